// Running configurations before and after deploys (issue 28). Right before a deploy is sent, each
// device's running configuration (SCC's `configOnDevice`) is kept as a snapshot (`keepBeforeDeploy`, called
// by the deploy operation); the deployment follow kind carries their ids, and when the deploy ends the
// tracking worker keeps the configuration again and posts the diff into the thread
// (src/jobs/configChanges.ts). `/fw config history <asa>` lists what is kept and
// `/fw config diff <asa> <snapshot> [<snapshot>]` compares two, or one with what the device runs now.
// Viewers may read both: a running configuration is what `/fw changes` already shows them.
import { z } from 'zod';
import type { KeptSnapshot } from '../follow/kind.js';
import { UserError } from '../model/errors.js';
import { unifiedConfigDiff } from '../model/unifiedDiff.js';
import { type DiffSide, renderConfigDiff, renderConfigHistory, sideWords } from '../render/configHistory.js';
import { optionalText, text } from './args.js';
import { DEVICE } from './common.js';
import { defineOperation, type OperationContext } from './operation.js';
import { type DeviceRequirement, resolveDevice } from './resolve.js';
import type { ConfigSnapshot, ConfigSnapshots } from './services.js';

const ASA: DeviceRequirement = { kinds: ['asa'], why: 'running configurations are kept for ASAs' };

function snapshotsOf(ctx: OperationContext): ConfigSnapshots {
  const snapshots = ctx.services?.snapshots;
  if (!snapshots)
    throw new UserError('Configuration snapshots are not available here: they are kept in Redis.');
  return snapshots;
}

/**
 * Keeps each device's running configuration right before a deploy; the kept ones, for the deploy's
 * follow kind. Where snapshots are not kept (no Redis) nothing is; a device whose configuration cannot be
 * read or kept is left out with a warning in the log: the deploy was approved and goes ahead.
 */
export async function keepBeforeDeploy(
  ctx: OperationContext,
  devices: readonly { uid: string; name: string }[],
): Promise<KeptSnapshot[]> {
  const snapshots = ctx.services?.snapshots;
  if (!snapshots) return [];
  const kept: KeptSnapshot[] = [];
  for (const device of devices) {
    try {
      const { data } = await ctx.scc.call('getAsaConfiguration', { path: { deviceUid: device.uid } });
      const snapshotId = await snapshots.keep(ctx.profile, {
        deviceUid: device.uid,
        device: device.name,
        at: ctx.now(),
        phase: 'before-deploy',
        requestId: ctx.requestId,
        ...(ctx.approvedBy ? { approvalId: ctx.requestId } : {}),
        actor: ctx.actor.userId,
        text: data.configOnDevice ?? '',
      });
      kept.push({ deviceUid: device.uid, device: device.name, snapshotId });
    } catch (error) {
      ctx.log.warn({ err: error, deviceUid: device.uid }, 'running configuration not kept before the deploy');
    }
  }
  return kept;
}

export const configHistory = defineOperation({
  id: 'config.history',
  words: ['config', 'history'],
  area: 'changes',
  failure: 'Could not list the configuration snapshots',
  summary: 'List the running configurations fwbot kept of an ASA (before and after each deploy)',
  params: [DEVICE],
  args: z.object({ device: text() }),
  role: 'viewer',
  approval: 'never',
  needs: ['snapshots'],
  scc: ['getDevices', 'getDevice'],
  examples: ['config history asa-hq-01'],
  offeredAsButton: true,
  run: async (ctx, args) => {
    const found = await resolveDevice(ctx.scc, args.device, ASA);
    const store = snapshotsOf(ctx);
    return {
      device: found.name,
      retentionDays: store.retentionDays,
      snapshots: await store.list(ctx.profile, found.uid),
    };
  },
  render: (history) => renderConfigHistory(history),
});

/** A snapshot id as `/fw config history` shows it: a number. */
const snapshotId = () =>
  text().pipe(z.string().regex(/^[1-9][0-9]{0,9}$/, 'must be a snapshot number from /fw config history.'));
const optionalSnapshotId = () =>
  optionalText().pipe(
    z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/, 'must be a snapshot number from /fw config history.')
      .optional(),
  );

export const configDiff = defineOperation({
  id: 'config.diff',
  words: ['config', 'diff'],
  area: 'changes',
  failure: 'Could not compare the running configurations',
  summary:
    'Show what changed in an ASA’s running configuration between two snapshots, or since one (the current configuration)',
  params: [
    DEVICE,
    { name: 'snapshot', kind: 'word', description: 'a snapshot number from config history' },
    {
      name: 'other',
      kind: 'word',
      optional: true,
      description: 'a second snapshot; the running configuration now when left out',
    },
  ],
  args: z.object({ device: text(), snapshot: snapshotId(), other: optionalSnapshotId() }),
  role: 'viewer',
  approval: 'never',
  needs: ['snapshots'],
  scc: ['getDevices', 'getDevice', 'getAsaConfiguration'],
  examples: ['config diff asa-hq-01 3', 'config diff asa-hq-01 3 4'],
  run: async (ctx, args) => {
    const found = await resolveDevice(ctx.scc, args.device, ASA);
    const store = snapshotsOf(ctx);
    const kept = async (id: string): Promise<ConfigSnapshot> => {
      const snapshot = await store.get(ctx.profile, found.uid, id);
      if (!snapshot)
        throw new UserError(
          `No snapshot ${id} of ${found.name} is kept (kept ones: \`/fw config history ${found.name}\`).`,
        );
      return snapshot;
    };
    const from = await kept(args.snapshot);
    const side = (s: ConfigSnapshot): DiffSide => ({ kind: 'snapshot', id: s.id, at: s.at });
    let to: DiffSide;
    let after: string;
    if (args.other) {
      const other = await kept(args.other);
      to = side(other);
      after = other.text;
    } else {
      const { data } = await ctx.scc.call('getAsaConfiguration', { path: { deviceUid: found.uid } });
      to = { kind: 'current' };
      after = data.configOnDevice ?? '';
    }
    const changes = unifiedConfigDiff(from.text, after, {
      before: `${found.name} ${sideWords(side(from))}`,
      after: `${found.name} ${sideWords(to)}`,
    });
    return { device: found.name, from: side(from), to, changes };
  },
  render: (diff) => renderConfigDiff(diff),
});

export const CONFIG_HISTORY_OPERATIONS = [configHistory, configDiff];
