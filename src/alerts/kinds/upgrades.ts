// Upgrades: upgrade runs that end, those started outside fwbot too, with each device's result: Secure Client
// runs (ASA or FTD in one tenant; across managed tenants for an MSP portal), what `vpn watch` told, and the
// firewalls' own software upgrade runs (ASA and FTD, one tenant's or the portal's across tenants), each node
// of an HA pair with SCC's message. The words are the followed runs' (src/follow/upgradeWords.ts,
// deviceUpgradeWords.ts). Read: the newest runs of each kind, every minute (one page per list).
import {
  DEVICE_UPGRADE_ENDINGS,
  type DeviceUpgradeRun,
  deviceRunName,
  deviceUpgradeLines,
  isAcrossTenants,
  isDeviceUpgradeEnded,
  isDeviceUpgradeRun,
  startedBy,
} from '../../follow/deviceUpgradeWords.js';
import { isUpgradeTerminal, runName, sccSays, UPGRADE_ENDINGS } from '../../follow/upgradeWords.js';
import { untrusted } from '../../render/untrusted.js';
import type { MspSecureClientUpgradeRunDto, SecureClientUpgradeRunDto } from '../../scc/generated/models.js';
import { ANY_READER, alreadyOver, defineAlertKind } from './kind.js';
import { detectRuns, RunState } from './runs.js';

type UpgradeRun = SecureClientUpgradeRunDto | MspSecureClientUpgradeRunDto;
type AnyRun = UpgradeRun | DeviceUpgradeRun;

const isDeviceRun = (run: AnyRun): run is DeviceUpgradeRun => isDeviceUpgradeRun(run);

/** When SCC last updated the run, where it says (a tenant's firewall software runs carry no times). */
function lastUpdated(run: AnyRun): { at?: string } {
  const at = (run as { lastUpdatedTime?: unknown }).lastUpdatedTime;
  return typeof at === 'string' && at !== '' ? { at } : {};
}

/** A firewall software run as the incident tells it: its name, how it ended, each node's last message. */
function tellDeviceRun(run: DeviceUpgradeRun, status: string) {
  const ending = DEVICE_UPGRADE_ENDINGS[status]?.words ?? 'ended';
  const by = startedBy(run);
  const who = by ? ` (started by ${untrusted(by)})` : '';
  const across = isAcrossTenants(run);
  const said = sccSays(run).trim();
  const { lines, deviceUids } = deviceUpgradeLines(run);
  return {
    subject: { type: 'run' as const, uid: run.uid ?? '', name: run.name || (run.uid ?? '') },
    headline: `${deviceRunName(run)}${across ? ' across tenants' : ''} ${ending}${who}`,
    details: [...(said ? [said] : []), ...lines],
    actions: [],
    deviceUids,
  };
}

function tenantsOf(run: UpgradeRun): { uid: string; name: string }[] {
  const legs: MspSecureClientUpgradeRunDto['managedTenantUpgrades'] =
    'managedTenantUpgrades' in run ? (run as MspSecureClientUpgradeRunDto).managedTenantUpgrades : undefined;
  return (legs ?? []).flatMap((leg) =>
    leg.managedTenantUid
      ? [{ uid: leg.managedTenantUid, name: leg.managedTenantDisplayName || leg.managedTenantUid }]
      : [],
  );
}

export const upgrades = defineAlertKind({
  kind: 'upgrades',
  summary:
    'Upgrade runs that fail or finish, also those started outside fwbot: Secure Client (ASA/FTD, MSP) and the firewalls’ own software (ASA, FTD)',
  tokenRoles: ANY_READER,
  words: {
    opened: 'upgrade failing',
    closed: 'upgrade over',
    noun: 'upgrade run',
    notice: 'ended upgrade run',
    now: ['failing upgrade run', 'failing upgrade runs'],
  },
  source: { from: 'upgradeRuns' },
  acrossTenants: true,
  intervalMs: 60_000,
  state: RunState,
  current: alreadyOver,
  detect: (input) =>
    detectRuns(
      'upgrades',
      input,
      (run: AnyRun) =>
        run.uid
          ? {
              uid: run.uid,
              status: run.upgradeRunStatus ?? 'UNKNOWN',
              ended: isDeviceRun(run) ? isDeviceUpgradeEnded(run) : isUpgradeTerminal(run.upgradeRunStatus),
              ...lastUpdated(run),
            }
          : undefined,
      (run: AnyRun, view) => {
        if (isDeviceRun(run)) return tellDeviceRun(run, view.status);
        const ending = UPGRADE_ENDINGS[view.status]?.words ?? 'ended';
        const who = run.username ? ` (started by ${untrusted(run.username)})` : '';
        const across = tenantsOf(run);
        const devices = run.devices ?? [];
        const said = sccSays(run).trim();
        return {
          subject: { type: 'run', uid: view.uid, name: run.name || view.uid },
          headline: `VPN client upgrade${across.length > 0 ? ' across tenants' : ''} ${runName(run)} ${ending}${who}`,
          details: [
            ...(said ? [said] : []),
            ...devices.map((device) => {
              const why = device.errorMsg ? ` — ${untrusted(device.errorMsg)}` : '';
              const name = untrusted(device.name ?? device.uid ?? 'unnamed device');
              return `• ${name}: ${untrusted(device.status ?? 'UNKNOWN')}${why}`;
            }),
          ],
          actions: [],
          deviceUids: devices.flatMap((device) => (device.uid ? [device.uid] : [])),
          ...(across.length > 0 ? { tenants: across } : {}),
        };
      },
    ),
});
