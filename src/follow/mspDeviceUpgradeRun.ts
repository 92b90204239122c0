// Following a firewall software upgrade run across the MSP portal's managed tenants (ASA or FTD) that
// `/fw upgrade` started through the portal: found by its trigger's transactionUid in the MSP runs, read
// until it ends (UPGRADE_COMPLETED, UPGRADE_FAILED, a staging failure in either of SCC's spellings, or
// UPGRADE_STAGED for a stage-only run). As for one tenant's runs (deviceUpgradeRun.ts), the thread keeps one
// progress message, here a table with a tenant column: each device, each unit of an HA pair, how far and
// SCC's last message. The outcome is one reply naming the requester, with SCC's reason for a failure. The
// request carries each device's tenant (the card knew it), so following costs no inventory read. A request
// may start several runs (SCC takes at most 50 devices per model per tenant in one): the device holds are
// released when the last of them ends (`siblings`). Staged now and upgraded in the devices' windows
// (timed/mspUpgradeInWindow.ts), a staging run releases none and each upgrade run its own devices
// (`releases`), and a run carrying the devices' state from right before it (`proof`) is proven after it
// completed (timed/mspUpgradeProof.ts); one found again after a crash while it was being started carries
// none (`unproven` says why), and its end says so.
import { z } from 'zod';
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import type { MspUpgradeRunDto } from '../scc/generated/models.js';
import {
  DEVICE_UPGRADE_ENDINGS,
  deviceRunName,
  isDeviceUpgradeEnded,
  unprovenOutcome,
} from './deviceUpgradeWords.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { RunState, readRun, runRequest } from './runs.js';
import { sentence } from './words.js';

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;

/** A device of the run as the card knew it: its name and its tenant. */
export const RunDevice = z.object({ uid: z.string(), name: z.string(), tenant: z.string() });
export type RunDevice = z.infer<typeof RunDevice>;

/** Rows shown in the table at most: a run of many devices shows the unfinished and the rest as a count. */
export const TABLE_ROWS = 60;

interface Row {
  tenant: string;
  device: string;
  unit: string;
  progress: string;
  said: string;
  done: boolean;
}

function rows(run: MspUpgradeRunDto, devices: readonly RunDevice[]): Row[] {
  const known = new Map(devices.map((d) => [d.uid.toLowerCase(), d]));
  const statuses = run.metadata?.devices ?? [];
  const seen = new Set<string>();
  const out = statuses.flatMap((device) => {
    const uid = (device.uid ?? '').toLowerCase();
    seen.add(uid);
    const mine = known.get(uid);
    const tenant = mine?.tenant ?? 'tenant unknown';
    const nodes = device.completionStatuses ?? [];
    if (nodes.length === 0)
      return [
        { tenant, device: mine?.name ?? uid, unit: '', progress: '', said: 'no status yet', done: false },
      ];
    return nodes.map((node) => ({
      tenant,
      device: node.name ?? mine?.name ?? uid,
      unit: node.nodeType ? node.nodeType.replace('HA_', '').toLowerCase() : '',
      progress: node.completedAt
        ? 'done'
        : typeof node.percentageComplete === 'number'
          ? `${Math.round(node.percentageComplete * 100)}%`
          : '',
      said: node.message ?? 'no message',
      done: Boolean(node.completedAt),
    }));
  });
  // Devices SCC does not list (yet): said, so none of the request's devices goes missing from the table.
  for (const d of devices)
    if (!seen.has(d.uid.toLowerCase()))
      out.push({
        tenant: d.tenant,
        device: d.name,
        unit: '',
        progress: '',
        said: 'not in the run',
        done: false,
      });
  return out.sort((a, b) => a.tenant.localeCompare(b.tenant) || a.device.localeCompare(b.device));
}

/** The per-device table, in a code block: tenant, device, unit, progress, SCC's last message. */
export function mspDeviceUpgradeTable(run: MspUpgradeRunDto, devices: readonly RunDevice[]): string {
  const all = rows(run, devices);
  // Past TABLE_ROWS rows: those not done first, the finished as a count.
  const shown =
    all.length <= TABLE_ROWS ? all : [...all.filter((r) => !r.done), ...all.filter((r) => r.done)];
  const kept = shown.slice(0, TABLE_ROWS);
  const head: Row = {
    tenant: 'Tenant',
    device: 'Device',
    unit: 'Unit',
    progress: 'Done',
    said: 'SCC says',
    done: false,
  };
  const width = (f: keyof Omit<Row, 'done'>) => Math.max(...[head, ...kept].map((r) => r[f].length));
  const w = {
    tenant: width('tenant'),
    device: width('device'),
    unit: width('unit'),
    progress: width('progress'),
  };
  const line = (r: Row) =>
    `${r.tenant.padEnd(w.tenant)}  ${r.device.padEnd(w.device)}  ${r.unit.padEnd(w.unit)}  ${r.progress.padEnd(w.progress)}  ${r.said}`.trimEnd();
  const more = all.length - kept.length;
  const tail = more > 0 ? [`… and ${counted(more, 'more row')} (finished)`] : [];
  return `\`\`\`\n${escapeAll([head, ...kept].map(line).concat(tail).join('\n'))}\n\`\`\``;
}

/** The run's one progress message: its name, status, how many devices in how many tenants, the table. */
export function mspDeviceUpgradeProgress(run: MspUpgradeRunDto, devices: readonly RunDevice[]): string {
  const tenants = new Set(devices.map((d) => d.tenant)).size;
  return [
    `${deviceRunName(run)}: ${escapeAll(run.upgradeRunStatus ?? 'starting')}`,
    `${counted(devices.length, 'device')} in ${counted(tenants, 'tenant')}`,
    mspDeviceUpgradeTable(run, devices),
  ].join('\n');
}

export function mspDeviceUpgradeOutcome(
  run: MspUpgradeRunDto,
  devices: readonly RunDevice[],
): Outcome | undefined {
  if (!isDeviceUpgradeEnded(run)) return undefined;
  const ending = DEVICE_UPGRADE_ENDINGS[run.upgradeRunStatus ?? ''];
  if (!ending) return undefined;
  const reason = run.errorMsg ? ` SCC says: ${sentence(run.errorMsg)}` : '';
  const tenants = new Set(devices.map((d) => d.tenant)).size;
  return {
    status: ending.status,
    text: `${deviceRunName(run)} across ${counted(tenants, 'tenant')} ${ending.words} (${escapeAll(run.upgradeRunStatus ?? '')}).${reason}`,
    progressText: mspDeviceUpgradeProgress(run, devices),
  };
}

export const mspDeviceUpgradeRun = defineFollowKind({
  kind: 'mspDeviceUpgradeRun',
  request: runRequest('mspDeviceUpgradeRun').extend({
    /** The id the upgrade's device holds were taken under (the approval's). */
    holder: z.string().optional(),
    /** Each device of the run with its tenant, for the table. */
    devices: z.array(RunDevice),
    /** The transactions of the other runs the same request started: the holds end when all have ended. */
    siblings: z.array(z.string()).optional(),
    /**
     * The devices whose holds end with this run, when the request's devices upgrade in several runs at
     * different times (staged now, upgraded in their windows): none for a staging run, the run's own for
     * an upgrade in a window. Absent: every hold of the holder (once the siblings have ended).
     */
    releases: z.array(z.string()).optional(),
    /** The devices as they were right before the upgrade (src/catalogue/mspUpgradeSteps.ts MspUpgradeBaseline). */
    // Checked whole by the timed kind's schema when it is scheduled (follow/ cannot import the catalogue's).
    proof: z
      .object({ version: z.string(), devices: z.array(z.looseObject({ uid: z.string(), name: z.string() })) })
      .optional(),
    /** Why there is no `proof` (the baseline was lost with a process that crashed while starting the run). */
    unproven: z.string().optional(),
  }),
  state: RunState,
  id: (request) => request.transactionUid,
  sccId: (request) => request.transactionUid,
  // Paced as one tenant's runs: an ASA stages in minutes, an FTD HA pair upgrades in most of an hour.
  poll: { firstDelayMs: 5 * SECOND, factor: 1.5, capMs: 60 * SECOND, deadlineMs: 12 * HOUR },
  holder: (request) => request.holder,
  holderSiblings: (request) => request.siblings ?? [],
  heldDevices: (request) => request.releases,
  // Proven a minute after it completed, as one tenant's runs (timed/mspUpgradeProof.ts checks it completed).
  later: (request, outcome) =>
    request.proof && outcome.status === 'succeeded'
      ? [
          {
            kind: 'msp-upgrade-proof',
            payload: {
              transactionUid: request.transactionUid,
              label: request.label,
              baseline: request.proof,
            },
            delayMs: 60 * SECOND,
          },
        ]
      : [],
  describe: (request) =>
    `the software upgrade across tenants started by transaction \`${request.transactionUid}\``,
  async step(ctx, request, state) {
    const scc = ctx.client;
    const found = await readRun<MspUpgradeRunDto, typeof state>(ctx, request.transactionUid, state, {
      read: (runUid) =>
        unlessGone(async () => (await scc.call('getMspDeviceUpgradeRun', { path: { uid: runUid } })).data),
      find: async (transactionUid) => {
        const { data } = await scc.call('getMspDeviceUpgradeRuns', {
          query: { q: `transactionUid:"${transactionUid}"`, limit: '1' },
        });
        return data.items?.find((item) => item.transactionUid === transactionUid && item.uid);
      },
      uid: (run) => run.uid,
      gone: (runUid) =>
        end({
          status: 'unknown',
          text: `outcome unknown: SCC no longer knows the upgrade run across tenants \`${escapeAll(runUid)}\` (deleted?). Check the devices' versions in SCC.`,
        }),
      waiting: 'waiting for SCC to start the upgrade run across tenants.',
    });
    if ('result' in found) return found.result;
    const { run, runUid } = found;
    const outcome = mspDeviceUpgradeOutcome(run, request.devices);
    if (outcome) return end(request.unproven ? unprovenOutcome(outcome, run, request.unproven) : outcome);
    return {
      kind: 'continue',
      state: { ...state, runUid, lastStatus: run.upgradeRunStatus ?? undefined },
      progress: mspDeviceUpgradeProgress(run, request.devices),
    };
  },
});
