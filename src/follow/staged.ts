// A change staged on an ASA. Right after it, unless the change's own message already said what is staged
// on the device (`counted`, read from SCC's two copies of the configuration): SCC calculates the device's
// pending commands (a transaction, followed every second), and the thread is told how many a deploy would
// now run, since a deploy pushes everything staged on the device, whoever staged it. Then the long wait
// (the schedule's first delay is the reminder time), and one read of the device: still NOT_SYNCED, the
// thread is reminded once that the change is not on the device; deployed or discarded in the meantime,
// nothing is said. The waits live in the queue, so they survive restarts.
import { z } from 'zod';
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import { isTransactionFinished } from '../scc/transactions.js';
import { defineFollowKind, end, type PollSchedule, unlessGone } from './kind.js';

const StagedRequest = z.object({
  kind: z.literal('staged'),
  deviceUid: z.string().min(1),
  deviceName: z.string(),
  /** Tells two changes of one device apart. */
  stagedAt: z.number().int(),
  label: z.string(),
  /** The change's message already said what is staged on the device. */
  counted: z.boolean().optional(),
});

const StagedState = z.object({
  /** The calculation of the device's pending commands being followed. */
  calculation: z.string().optional(),
});

/** How often the calculation is read, and for how long it is worth waiting for (SCC takes seconds). */
const CALCULATION_POLL_MS = 1_000;
const CALCULATION_PATIENCE_MS = 2 * 60_000;
const MINUTE = 60_000;

/** How a staged change is followed: one wait of `afterMs`, then one read of the device. */
export function stagedReminder(afterMs: number): PollSchedule {
  return { firstDelayMs: afterMs, factor: 1, capMs: afterMs, deadlineMs: 3 * afterMs };
}

export const staged = defineFollowKind({
  kind: 'staged',
  request: StagedRequest,
  state: StagedState,
  id: (request) => `${request.deviceUid}:${request.stagedAt}`,
  // Nothing in SCC names a staged change: the audit trail records the call that staged it.
  sccId: () => undefined,
  /** The first step only starts the wait; firstDelayMs is the reminder time (STAGED_REMINDER_MINUTES). */
  poll: stagedReminder(60 * MINUTE),
  configured: (settings) => stagedReminder(settings.stagedReminderMinutes * MINUTE),
  describe: (request) => `the change staged on ${request.deviceName}`,
  stagedOn: (request) => request.deviceName,
  async step(ctx, request, state) {
    const name = escapeAll(request.deviceName);
    const path = { deviceUid: request.deviceUid };
    // The change's own message already said what is staged (`counted`): straight to the long wait.
    if (state.step === 0 && request.counted)
      return { kind: 'continue', state: { ...state, lastStatus: 'waiting' } };
    if (state.step === 0) {
      const { data } = await ctx.client.call('calculateAsaCommandsToApplyPendingChanges', { path });
      if (!data.transactionUid) return { kind: 'continue', state: { ...state, lastStatus: 'waiting' } };
      return {
        kind: 'continue',
        state: { ...state, calculation: data.transactionUid, lastStatus: 'calculating' },
        delayMs: CALCULATION_POLL_MS,
      };
    }
    if (state.calculation) {
      const waited = ctx.now - state.startedAt;
      const transaction = await unlessGone(() => ctx.client.transactions.get(state.calculation ?? ''));
      const stillRunning = transaction !== undefined && !isTransactionFinished(transaction);
      if (stillRunning && waited < CALCULATION_PATIENCE_MS)
        return { kind: 'continue', state, delayMs: CALCULATION_POLL_MS };
      const waiting = { ...state, calculation: undefined, lastStatus: 'waiting' };
      if (transaction?.cdoTransactionStatus !== 'DONE') return { kind: 'continue', state: waiting };
      const commands = await unlessGone(
        async () => (await ctx.client.call('getAsaCommandsToApplyPendingChanges', { path })).data,
      );
      const count = commands?.configCommands?.length ?? 0;
      if (count === 0) return { kind: 'continue', state: waiting };
      return {
        kind: 'continue',
        state: waiting,
        note: {
          id: 'pending',
          text:
            `${name} now has ${counted(count, 'pending command')} (a deploy runs all of them, whoever ` +
            `staged them): \`/fw changes ${name}\` shows them.`,
        },
      };
    }
    const device = await unlessGone(async () => (await ctx.client.call('getDevice', { path })).data);
    if (device?.configState !== 'NOT_SYNCED')
      return end({ status: 'succeeded', text: 'deployed.', quiet: true });
    const minutes = Math.round((ctx.now - state.startedAt) / 60_000);
    return end({
      status: 'succeeded',
      text:
        `still only staged: ${name} has not been deployed for ${counted(minutes, 'minute')}, so traffic ` +
        `is unchanged. \`/fw changes ${name}\` shows what a deploy would run; \`/fw deploy ${name}\` asks to run it.`,
    });
  },
});
