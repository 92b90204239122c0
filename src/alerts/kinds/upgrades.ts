// Upgrades: Secure Client upgrade runs (ASA or FTD in one tenant; across managed tenants for an MSP
// portal) that end, those started outside fwbot too, with each device's result: what `vpn watch` told,
// now one kind of alert. The words are the followed runs' (src/follow/upgradeWords.ts). Read: the newest
// updated runs, every minute (one page per list).
import { isUpgradeTerminal, runName, sccSays, UPGRADE_ENDINGS } from '../../follow/upgradeWords.js';
import { untrusted } from '../../render/untrusted.js';
import type { MspSecureClientUpgradeRunDto, SecureClientUpgradeRunDto } from '../../scc/generated/models.js';
import { ANY_READER, alreadyOver, defineAlertKind } from './kind.js';
import { detectRuns, RunState } from './runs.js';

type UpgradeRun = SecureClientUpgradeRunDto | MspSecureClientUpgradeRunDto;

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
  summary: 'Secure Client upgrade runs (ASA/FTD, MSP) that fail or finish, also those started outside fwbot',
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
      (run) =>
        run.uid
          ? {
              uid: run.uid,
              status: run.upgradeRunStatus ?? 'UNKNOWN',
              ended: isUpgradeTerminal(run.upgradeRunStatus),
              ...(run.lastUpdatedTime ? { at: run.lastUpdatedTime } : {}),
            }
          : undefined,
      (run, view) => {
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
