// Views of the MSP portal's cross-tenant work: devices of every managed tenant, the Secure Client packages
// on one of them, the Secure Client versions every selected tenant offers, and upgrade runs across tenants
// (tenant by tenant, device by device).
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type {
  CompatibleSecureClientVersionDto,
  MspManagedDevice,
  MspSecureClientPackageDto,
  MspSecureClientUpgradeRunDto,
  MspSecureClientUpgradeRunsAttributeValues,
} from '../scc/generated/models.js';
import { counted, humanEnum, NONE, table, time } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { describeProgress, mspRunProgress, overallPercent, runProgress } from './upgradeProgress.js';
import { platform, platforms, runDevices, runFieldsView, runHead } from './vpn.js';

/** A device of a managed tenant as a target names it. */
export interface MspDeviceFacts {
  uid: string;
  name: string;
  tenantUid: string;
  tenantName: string;
}

/** Devices grouped by tenant, tenants in the order their first device came. */
export function tenantGroups<D extends { tenantUid: string; tenantName: string }>(
  devices: readonly D[],
): { tenantName: string; devices: D[] }[] {
  const groups = new Map<string, { tenantName: string; devices: D[] }>();
  for (const device of devices) {
    const group = groups.get(device.tenantUid) ?? { tenantName: device.tenantName, devices: [] };
    group.devices.push(device);
    groups.set(device.tenantUid, group);
  }
  return [...groups.values()];
}

/** `ONLINE, SYNCED`: the two states that decide whether SCC acts on a device. */
function state(device: MspManagedDevice): string {
  const parts = [device.connectivityState, device.configState].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : NONE;
}

export function renderMspDevices(
  devices: readonly MspManagedDevice[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Devices of the managed tenants',
      page,
      query,
      columns: ['Tenant', 'Device', 'Type', 'Version', 'State', 'UUID'],
      rows: devices.map((d) => [
        d.managedTenantName ?? d.managedTenantDisplayName,
        d.name,
        d.deviceType,
        d.softwareVersion,
        state(d),
        d.uid,
      ]),
      hint: '`/fw msp vpn versions <device…>` for the Secure Client versions ASAs across tenants can take.',
      empty: 'no devices.',
    },
    meta,
  );
}

/** The Secure Client packages installed on one device of a managed tenant. */
export function renderMspPackages(
  device: MspManagedDevice,
  packages: readonly MspSecureClientPackageDto[],
  page: PageInfo,
  meta: RenderMeta,
): View {
  const tenant = device.managedTenantName ?? device.managedTenantDisplayName ?? '?';
  const asa = device.deviceType === 'ASA';
  return listView(
    {
      title: `Secure Client packages on ${device.name} (${tenant})`,
      page,
      columns: ['File', 'Version', 'Platform', 'UUID'],
      rows: packages.map((p) => [p.fileName, p.version, platform(p), p.uid]),
      widths: [64],
      // Upgrades across tenants take ASAs only (the reference's cross-tenant operations).
      ...(asa ? { hint: '`/fw msp vpn versions <device…>` for the versions it can be upgraded to.' } : {}),
      empty: asa
        ? 'none installed.'
        : 'none. An FTD lists the packages of its remote-access VPN policy, and it may have no policy.',
    },
    meta,
  );
}

/** Versions shown; more are counted, not listed. */
const MAX_VERSIONS = 25;

export function renderMspVersions(
  devices: readonly MspDeviceFacts[],
  versions: readonly CompatibleSecureClientVersionDto[],
): View {
  const groups = tenantGroups(devices);
  const who = groups.map((g) => `${g.tenantName}: ${g.devices.map((d) => d.name).join(', ')}`).join('\n');
  const shown = versions.slice(0, MAX_VERSIONS);
  const more = versions.length > shown.length ? ` (newest ${shown.length} of ${versions.length})` : '';
  const blocks: ViewBlock[] = [
    {
      kind: 'text',
      text: `*Secure Client versions for ${counted(devices.length, 'device')} in ${counted(groups.length, 'tenant')}*\n${who}`,
    },
  ];
  if (shown.length === 0) {
    blocks.push({
      kind: 'text',
      text: 'No Secure Client version fits every one of these devices and is offered by every one of these tenants.',
    });
  } else {
    const lines = shown.map((v) => `\`${v.version}\`  ${platforms(v.platforms)}`);
    blocks.push({ kind: 'text', text: `Every tenant offers${more}:\n${lines.join('\n')}` });
  }
  blocks.push({
    kind: 'context',
    text: '`/fw msp vpn upgrade <device…> --version <version>` to upgrade them in one run (a second person approves).',
  });
  return {
    summary: `Secure Client versions for ${devices.map((d) => d.name).join(', ')}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export function renderMspRuns(
  runs: readonly MspSecureClientUpgradeRunDto[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Secure Client upgrade runs across tenants',
      page,
      query,
      columns: ['Name', 'Version', 'Status', 'Done', 'Tenants', 'Devices', 'Submitted', 'UUID'],
      rows: runs.map((r) => [
        r.name,
        r.secureClientVersion,
        humanEnum(r.upgradeRunStatus),
        overallPercent(
          mspRunProgress(r.upgradeRunStatus, r.percentageComplete, r.managedTenantUpgrades ?? []),
        ),
        r.managedTenantUpgrades?.length ?? 0,
        r.devices?.length ?? 0,
        time(r.submissionTime),
        r.uid,
      ]),
      numeric: [4, 5],
      hint: '`/fw msp vpn run <run-uid>` for one run, `/fw msp vpn run-fields` for the values to search by.',
      empty: 'no upgrade runs across tenants.',
    },
    meta,
  );
}

export function renderMspRun(run: MspSecureClientUpgradeRunDto): View {
  const tenants = run.managedTenantUpgrades ?? [];
  const blocks: ViewBlock[] = runHead(
    run,
    mspRunProgress(run.upgradeRunStatus, run.percentageComplete, tenants),
  );
  if (tenants.length > 0) {
    blocks.push(
      table(
        ['Tenant', 'Status', 'Progress', 'Tenant run', 'Error'],
        tenants.map((t) => [
          t.managedTenantDisplayName ?? t.managedTenantUid,
          humanEnum(t.upgradeRunStatus ?? t.transactionStatus),
          // A tenant's own run walks the single-tenant steps (runs across tenants are of ASAs).
          describeProgress(runProgress(t.upgradeRunStatus, t.upgradeRunStepPercentageComplete, 'asa')),
          t.upgradeRunUid,
          t.errorMsg,
        ]),
        [undefined, undefined, undefined, undefined, 80],
      ),
    );
  }
  blocks.push(...runDevices(run.devices));
  return {
    summary: `Upgrade run across tenants ${run.name ?? run.uid ?? ''}: ${humanEnum(run.upgradeRunStatus)}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export function renderMspRunFields(values: MspSecureClientUpgradeRunsAttributeValues): View {
  return runFieldsView(values, {
    what: 'upgrade runs across tenants',
    example:
      'For example `/fw msp vpn runs upgradeRunStatus:DONE_WITH_DEVICE_ERRORS`, or by tenant: `managedTenantDisplayName:Globex*`.',
    summary: 'Upgrade run across tenants search values',
  });
}
