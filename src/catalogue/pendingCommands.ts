// What a deploy would run on an ASA: SCC calculates the commands that bring the device to SCC's staged
// copy of its configuration (a transaction, followed), then fwbot reads them while SCC still has them.
// `changes` shows them, a deploy's or a discard's card names them, and an interface deletion asks whether
// anything else is pending before it deploys with the change.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { OperationContext } from './operation.js';
import type { DeviceRequirement } from './resolve.js';
import { isNotFound } from './sccErrors.js';

export const ASA: DeviceRequirement = { kinds: ['asa'], why: 'staged changes and deploys are for ASAs here' };

/** What finding a device and its pending commands reads (every operation of this area does). */
export const PENDING_READS = [
  'getDevices',
  'getDevice',
  'calculateAsaCommandsToApplyPendingChanges',
  'getTransaction',
  'getAsaCommandsToApplyPendingChanges',
] as const;

/** SCC keeps calculated commands briefly; the calculation itself takes seconds. */
const CALCULATION = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 60_000 } as const;

export const CommandsFacts = z.object({
  status: z.enum(['SUCCESS', 'UNSUPPORTED_COMMANDS', 'ERROR', 'UNKNOWN']),
  commands: z.array(z.string()),
});
export type CommandsFacts = z.infer<typeof CommandsFacts>;

/**
 * The exact commands a deploy would run on one ASA: asks SCC to calculate them (a transaction), follows
 * it, then reads them while SCC still has them cached.
 */
export async function pendingCommands(ctx: OperationContext, deviceUid: string): Promise<CommandsFacts> {
  // SCC drops its calculation when either copy of the configuration changes (a deploy ending, another
  // change): a 404 right after a finished calculation means it was overtaken, so it is calculated again.
  for (let attempt = 1; ; attempt += 1) {
    await calculate(ctx, deviceUid);
    try {
      const { data } = await ctx.scc.call('getAsaCommandsToApplyPendingChanges', { path: { deviceUid } });
      const known =
        data.status === 'SUCCESS' || data.status === 'UNSUPPORTED_COMMANDS' || data.status === 'ERROR';
      return {
        status: known ? (data.status as CommandsFacts['status']) : 'UNKNOWN',
        commands: data.configCommands ?? [],
      };
    } catch (error) {
      if (attempt >= 3 || !isNotFound(error)) throw error;
    }
  }
}

async function calculate(ctx: OperationContext, deviceUid: string): Promise<void> {
  const { data: transaction } = await ctx.scc.call('calculateAsaCommandsToApplyPendingChanges', {
    path: { deviceUid },
  });
  if (!transaction.transactionUid) return;
  const ended = await ctx.scc.transactions.follow(transaction.transactionUid, {
    ...CALCULATION,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (ended.cdoTransactionStatus !== 'DONE') {
    const said = ended.errorMessage ? `: ${ended.errorMessage}` : '';
    throw new UserError(
      `SCC could not calculate the pending commands (${ended.cdoTransactionStatus}${said}).`,
    );
  }
}
