// `discard`: what is staged on an ASA is thrown away (SCC reads the device's configuration again), after a
// second person sees exactly what goes, whoever staged it. Its target is the device with its pending commands
// (stagedDevices.ts), read again and compared before it runs; what fwbot remembered as staged there goes too.
import { z } from 'zod';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import { text } from './args.js';
import { DEVICE, transactionTrack } from './common.js';
import { defineOperation, type OperationContext } from './operation.js';
import { ASA, PENDING_READS } from './pendingCommands.js';
import { resolveDevice } from './resolve.js';
import {
  commandsText,
  comparePending,
  PendingDevice,
  pendingDevices,
  rereadPending,
  stagerNotes,
} from './stagedDevices.js';
import { CHANGE_LOG_READS } from './stagedInScc.js';

async function forgetStaged(ctx: OperationContext, deviceUid: string): Promise<void> {
  try {
    await ctx.services?.staging?.forget(ctx.profile, deviceUid);
  } catch (error) {
    ctx.log.warn({ err: error, deviceUid }, 'who staged what not forgotten after a discard');
  }
}

export const discard = defineOperation({
  id: 'discard',
  words: ['discard'],
  area: 'changes',
  failure: 'Could not discard the staged changes',
  summary: 'Throw away what is staged on an ASA: SCC reads the device’s configuration again',
  params: [DEVICE],
  args: z.object({ device: text() }),
  role: 'operator',
  // Staged work, possibly other people's, is lost: a second person looks at what goes first.
  approval: 'always',
  scc: [...PENDING_READS, ...CHANGE_LOG_READS, 'getDeviceDeploymentRuns', 'readAsaDeviceConfiguration'],
  examples: ['discard asa-hq-01'],
  offeredAsButton: true,
  // Reading the configuration again changes SCC's copy of the device: a hold on it stops the discard.
  changes: { devices: async (_ctx, _args, facts) => (facts ? [facts.device] : []) },
  target: {
    facts: z.object({ device: PendingDevice }),
    resolve: async (ctx, args) => {
      const [device] = await pendingDevices(ctx, [await resolveDevice(ctx.scc, args.device, ASA)]);
      if (!device) throw new Error('a resolved device has no pending facts');
      return { facts: { device }, raw: { device: device.uid } };
    },
    reread: async (ctx, facts) => {
      const read = await rereadPending(ctx, { devices: [facts.device] });
      const [device] = read.found ? read.facts.devices : [];
      if (!read.found) return read;
      return device ? { found: true, facts: { device } } : { found: false, reason: 'the device is gone' };
    },
    compare: (before, after) => comparePending({ devices: [before.device] }, { devices: [after.device] }),
    // The device stays, so its re-read cannot tell: after a crash while the discard was being sent, a device
    // with nothing staged any more (SYNCED) says it took effect. Still NOT_SYNCED, a person checks: SCC may
    // still be reading the configuration, or the discard never arrived.
    interrupted: async (ctx, { device }) => {
      const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: device.uid } });
      if (data.configState !== 'SYNCED') return undefined;
      await forgetStaged(ctx, device.uid);
      const text = `:white_check_mark: Done: the discard sent before fwbot restarted took effect; nothing is staged on ${code(device.name)} any more.`;
      return {
        view: {
          summary: `discard the staged changes of ${device.name}: done before fwbot restarted`,
          blocks: [{ kind: 'text', text }],
          visibility: 'in_channel',
        },
        track: [],
      };
    },
    describe: ({ device }) => ({
      action: `discard the staged changes of ${code(device.name)} (SCC reads the device’s configuration again)`,
      line: `staged changes of ${untrusted(device.name)}`,
      fields: [{ label: 'Lost', value: counted(device.pending.commands.length, 'pending command') }],
      warnings: [':warning: Everything staged on it is lost, whoever staged it (SCC UI, API, fwbot).'],
      code: commandsText({ devices: [device] }),
      notes: stagerNotes([device]),
    }),
  },
  run: async (ctx, _args, { device }) => {
    const { data } = await ctx.scc.call('readAsaDeviceConfiguration', { path: { deviceUid: device.uid } });
    // What fwbot remembered as staged there is thrown away with it.
    await forgetStaged(ctx, device.uid);
    return { device, transaction: data };
  },
  render: ({ device, transaction }, _args, meta) =>
    announcement(
      { sentence: `discard the staged changes of ${device.name}`, tense: 'asked', transaction },
      meta,
    ),
  track: ({ device, transaction }) =>
    transactionTrack(transaction, `discard the staged changes of ${device.name}`),
});
