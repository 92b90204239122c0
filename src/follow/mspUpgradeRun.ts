// Following a Secure Client upgrade across managed tenants: the MSP run its trigger started, found by the
// trigger's transactionUid, read until it ends. Each device's tenant is read once from the MSP inventory
// when the run is found (kept in the job's state), so progress and the final reply speak tenant by tenant.
import { z } from 'zod';
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import { mspRunProgress, runProgress } from '../render/upgradeProgress.js';
import type { SccClient } from '../scc/client.js';
import type { MspSecureClientUpgradeRunDto } from '../scc/generated/models.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { RunState, readRun, runRequest } from './runs.js';
import {
  isUpgradeTerminal,
  mspUpgradeRunFraction,
  runName,
  sccSays,
  stepAndOverall,
  UPGRADE_ENDINGS,
} from './upgradeWords.js';

/** Each device's tenant, as the MSP inventory names it (devices it no longer lists are left out). */
const DeviceTenants = z.record(z.string(), z.object({ tenantUid: z.string(), tenantName: z.string() }));
export type DeviceTenants = z.infer<typeof DeviceTenants>;

const MspRunState = RunState.extend({
  /** Each device's tenant (read once when the run is found), for per-tenant words. */
  deviceTenants: DeviceTenants.optional(),
});

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

export const mspUpgradeRun = defineFollowKind({
  kind: 'mspUpgradeRun',
  request: runRequest('mspUpgradeRun'),
  state: MspRunState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // Upgrades across tenants run as long as their slowest tenant: paced like single-tenant runs.
  poll: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 30 * SECOND, deadlineMs: 12 * HOUR },
  describe: (request) => `the upgrade across tenants started by transaction \`${request.transactionUid}\``,
  async step(ctx, request, state) {
    const scc = ctx.client;
    const found = await readRun<MspSecureClientUpgradeRunDto, typeof state>(
      ctx,
      request.transactionUid,
      state,
      {
        read: (runUid) =>
          unlessGone(
            async () =>
              (await scc.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: runUid } })).data,
          ),
        find: async (transactionUid) => {
          const { data } = await scc.call('getMspSecureClientUpgradeRuns', {
            query: { q: `transactionUid:"${transactionUid}"`, limit: 1 },
          });
          return data.items?.find((item) => item.transactionUid === transactionUid && item.uid);
        },
        uid: (run) => run.uid,
        gone: (runUid) => end(goneOutcome(runUid)),
        waiting: 'waiting for SCC to start the upgrade run across tenants.',
      },
    );
    if ('result' in found) return found.result;
    const { run, runUid } = found;
    const deviceTenants =
      state.deviceTenants ??
      (await readDeviceTenants(
        scc,
        (run.devices ?? []).flatMap((device) => (device.uid ? [device.uid] : [])),
      ));
    if (isUpgradeTerminal(run.upgradeRunStatus)) {
      const outcome = mspUpgradeOutcome(run, deviceTenants);
      if (outcome) return end(outcome);
    }
    const fraction = mspUpgradeRunFraction(run);
    return {
      kind: 'continue',
      state: { ...state, runUid, deviceTenants, lastStatus: run.upgradeRunStatus ?? undefined },
      progress: mspUpgradeProgress(run, deviceTenants),
      ...(fraction === undefined ? {} : { fraction }),
    };
  },
});

/** Devices asked about per inventory read (SCC's MSP upgrades take at most 50 devices per tenant). */
const DEVICES_PER_READ = 50;

/** Each device's tenant, from the MSP inventory: one read per 50 devices; devices it lacks are left out. */
export async function readDeviceTenants(
  scc: SccClient,
  deviceUids: readonly string[],
): Promise<DeviceTenants> {
  const tenants: DeviceTenants = {};
  for (let start = 0; start < deviceUids.length; start += DEVICES_PER_READ) {
    const chunk = deviceUids.slice(start, start + DEVICES_PER_READ);
    const { data } = await scc.call('getMspManagedDevices', {
      query: { q: chunk.map((uid) => `uid:"${uid}"`).join(' OR '), limit: DEVICES_PER_READ },
    });
    for (const device of data.items ?? []) {
      if (!device.uid) continue;
      tenants[device.uid] = {
        tenantUid: device.managedTenantUid ?? '',
        tenantName: device.managedTenantName ?? device.managedTenantDisplayName ?? 'tenant unknown',
      };
    }
  }
  return tenants;
}

/** The run's devices grouped by tenant (tenant uid → name and devices), in the order SCC lists them. */
function devicesByTenant(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants) {
  const groups = new Map<string, { name: string; devices: NonNullable<typeof run.devices> }>();
  for (const device of run.devices ?? []) {
    const tenant = tenants[device.uid ?? ''];
    const key = tenant?.tenantUid ?? '';
    const group = groups.get(key) ?? { name: tenant?.tenantName ?? 'tenant unknown', devices: [] };
    group.devices.push(device);
    groups.set(key, group);
  }
  return groups;
}

/** Progress in words: the run as a whole, then one line per tenant (its devices, stage and progress). */
export function mspUpgradeProgress(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants): string {
  const groups = devicesByTenant(run, tenants);
  const legs = run.managedTenantUpgrades ?? [];
  const devices = run.devices?.length ?? 0;
  const head =
    `upgrade ${runName(run)} across ${counted(Math.max(groups.size, legs.length), 'tenant')}: ` +
    `${stepAndOverall(run.upgradeRunStatus, mspRunProgress(run.upgradeRunStatus, run.percentageComplete, legs))}, ` +
    `${counted(devices, 'device')}.`;
  const lines = [...groups].map(([tenantUid, group]) => {
    const leg = legs.find((l) => l.managedTenantUid === tenantUid);
    // A tenant's own run walks the single-tenant steps (runs across tenants are of ASAs).
    const stage = leg?.upgradeRunStatus
      ? stepAndOverall(
          leg.upgradeRunStatus,
          runProgress(leg.upgradeRunStatus, leg.upgradeRunStepPercentageComplete, 'asa'),
        )
      : 'not started';
    const done = group.devices.filter((d) => d.status !== 'PENDING' && d.status !== 'IN_PROGRESS').length;
    return `• ${escapeAll(group.name)}: ${counted(group.devices.length, 'device')}, ${done} finished, ${stage}`;
  });
  return lines.length === 0 ? head : `${head}\n${lines.join('\n')}`;
}

/** Every device's result, grouped by tenant, with each tenant's own error. */
function tenantDeviceLines(run: MspSecureClientUpgradeRunDto, tenants: DeviceTenants): string {
  const legs = run.managedTenantUpgrades ?? [];
  const blocks = [...devicesByTenant(run, tenants)].map(([tenantUid, group]) => {
    const leg = legs.find((l) => l.managedTenantUid === tenantUid);
    const error = leg?.errorMsg ? ` — ${escapeAll(leg.errorMsg)}` : '';
    const lines = group.devices.map((device) => {
      const name = device.name ?? device.uid ?? 'unnamed device';
      const why = device.errorMsg ? ` — ${device.errorMsg}` : '';
      return escapeAll(`  • ${name}: ${device.status ?? 'UNKNOWN'}${why}`);
    });
    return `*${escapeAll(group.name)}*${error}\n${lines.join('\n')}`;
  });
  return blocks.length === 0 ? '' : `\n${blocks.join('\n')}`;
}

function goneOutcome(runUid: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows the upgrade run across tenants \`${escapeAll(runUid)}\`. Check the MSP upgrade runs in SCC.`,
  };
}

/** The run's end and each device's result grouped by tenant; undefined while it runs. */
export function mspUpgradeOutcome(
  run: MspSecureClientUpgradeRunDto,
  tenants: DeviceTenants,
): Outcome | undefined {
  const ending = UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  const uid = escapeAll(run.uid ?? '?');
  return {
    status: ending.status,
    text:
      `upgrade ${runName(run)} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${sccSays(run)}` +
      `${tenantDeviceLines(run, tenants)}\nThe whole run: \`/fw msp vpn run ${uid}\`.`,
    progressText: mspUpgradeProgress(run, tenants),
  };
}
