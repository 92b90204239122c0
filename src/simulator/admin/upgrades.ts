// Admin routes for firewall software upgrades: making a device's next upgrades fail (its readiness check,
// or one node of it while it upgrades), and an upgrade started by someone in SCC's UI (outside fwbot),
// through the operations' own handlers, so it walks the same statuses on the same clock.
import { z } from 'zod';
import { invalidInput } from '../errors.js';
import type { SimRuntime } from '../runtime.js';
import { FTD_RELEASES, ftdPackage } from '../state/softwareReleases.js';
import { type AddRoute, findDevice, findDevices, findTenant, parse, UI_USER } from './request.js';
import { byTenant, entityOf, invoke, uiPrincipal } from './sccUi.js';

const FaultInput = z
  .object({
    /**
     * READINESS_CHECK: the run ends UPGRADE_STAGING_FAILED; NODE: a unit fails while it upgrades. The run
     * completes, but: VERSION, the device still reports its old version; FAILOVER, an HA pair stays failed
     * over (secondary active); CONFIG, the first `access-list … permit` line is gone from its configuration.
     */
    kind: z.enum(['READINESS_CHECK', 'NODE', 'VERSION', 'FAILOVER', 'CONFIG']),
    /** For NODE on an HA pair: which unit fails (default HA_PRIMARY, upgraded second). */
    node: z.enum(['HA_PRIMARY', 'HA_SECONDARY']).optional(),
    message: z.string().min(1).max(500).optional(),
    /** How many runs it applies to (default: every run until cleared). */
    times: z.number().int().min(1).max(1000).optional(),
  })
  .strict();

const UpgradeInput = z
  .object({
    devices: z.array(z.string().min(1)).min(1).max(50),
    softwareVersion: z.string().min(1),
    stageUpgradeOnly: z.boolean().optional(),
    ignoreMaintenanceWindow: z.boolean().optional(),
    forceUpgrade: z.boolean().optional(),
    name: z.string().min(1).max(200).optional(),
    username: z.string().min(1).max(200).optional(),
  })
  .strict();

const DEFAULT_MESSAGES = {
  READINESS_CHECK: 'Readiness check failed: insufficient disk space on disk0 for the new image',
  NODE: 'The unit did not come back after reloading with the new image',
  VERSION: 'The unit reloaded into the image it ran before',
  FAILOVER: 'The pair did not fail back after the upgrade',
  CONFIG: 'The new version dropped a command it no longer takes',
} as const;

export const UPGRADE_ROUTES = [
  [
    'POST',
    '/_sim/devices/{device}/upgrade-fault',
    'make the next software upgrades of a device fail: {kind: READINESS_CHECK|NODE|VERSION|FAILOVER|CONFIG, node?: HA_PRIMARY|HA_SECONDARY, message?, times?} (VERSION, FAILOVER and CONFIG complete the run and leave the device on its old version, failed over, or without its first access-list permit line)',
  ],
  ['DELETE', '/_sim/devices/{device}/upgrade-fault', "clear a device's software upgrade fault"],
  [
    'POST',
    '/_sim/device-upgrades',
    "start ASA or FTD software upgrades in SCC's UI (one run per tenant and model): {devices, softwareVersion, stageUpgradeOnly?, ignoreMaintenanceWindow?, forceUpgrade?, name?, username?}",
  ],
] as const;

export function addUpgradeRoutes(add: AddRoute, sim: SimRuntime): void {
  add('POST', '/_sim/devices/{device}/upgrade-fault', async (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    const input = await parse(r, FaultInput);
    if (device.kind !== 'ASA' && device.kind !== 'FTD')
      throw invalidInput(`${device.device.name} is not an ASA or an FTD`);
    device.softwareUpgradeFault = {
      kind: input.kind,
      ...(input.node === undefined ? {} : { node: input.node }),
      message: input.message ?? DEFAULT_MESSAGES[input.kind],
      ...(input.times === undefined ? {} : { times: input.times }),
    };
    return {
      status: 200,
      body: { device: device.device.name, softwareUpgradeFault: device.softwareUpgradeFault },
    };
  });
  add('DELETE', '/_sim/devices/{device}/upgrade-fault', (r) => {
    const device = findDevice(sim.state, r.params.device ?? '');
    delete device.softwareUpgradeFault;
    return { status: 204 };
  });
  add('POST', '/_sim/device-upgrades', async (r) => {
    const input = await parse(r, UpgradeInput);
    const { state } = sim;
    const devices = findDevices(state, input.devices);
    const username = input.username ?? UI_USER;
    const runs: Record<string, unknown>[] = [];
    for (const [tenantUid, group] of byTenant(devices)) {
      const tenant = findTenant(state, tenantUid);
      for (const model of new Set(group.map((d) => d.device.hardwareModel ?? ''))) {
        const same = group.filter((d) => (d.device.hardwareModel ?? '') === model);
        const kind = same[0]?.kind;
        const common = {
          deviceUids: same.map((d) => d.device.uid),
          stageUpgrade: input.stageUpgradeOnly ?? false,
          ignoreMaintenanceWindow: input.ignoreMaintenanceWindow ?? false,
          ...(input.name === undefined ? {} : { name: input.name }),
        };
        const release = FTD_RELEASES.find((v) => v.softwareVersion === input.softwareVersion);
        if (kind === 'FTD' && release === undefined)
          throw invalidInput(`No FTD upgrade package for ${input.softwareVersion}`);
        const response =
          kind === 'ASA'
            ? await invoke(sim, 'upgradeAsaDevices', uiPrincipal(tenant, username), {
                ...common,
                softwareVersion: input.softwareVersion,
                forceUpgrade: input.forceUpgrade ?? false,
              })
            : kind === 'FTD' && release !== undefined
              ? await invoke(sim, 'upgradeFtdDevices', uiPrincipal(tenant, username), {
                  ...common,
                  upgradePackageUid: ftdPackage(release, model).uid,
                })
              : undefined;
        if (response === undefined) throw invalidInput('Only ASAs and FTDs can be upgraded');
        const { entityUid, transactionUid } = entityOf(response);
        runs.push({
          tenantUid,
          tenantName: tenant.name,
          upgradeRunUid: entityUid,
          transactionUid,
          devices: same.map((d) => d.device.name),
        });
      }
    }
    return { status: 201, body: { runs } };
  });
}
