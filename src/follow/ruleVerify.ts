// Verifying a `rules remove|disable` once the change is on the device. The change only stages in SCC; the
// deploy that takes it to the device is a separate, governed `/fw deploy` (or any deploy of the device), so
// this waits for the first deployment run of the device submitted after the change, then goes on exactly
// as an access request's verification does (accessVerify.ts, expecting `gone`): the run read until it
// ends, packet-tracer run again with the line built from the rule when the change was requested
// (src/catalogue/ruleTrace.ts), and the thread told "verified: DROP by line N (…), no longer by the removed
// rule …" or "NOT verified: …" and why. Followed work on the tracking queue, one job per rule change: a
// crash anywhere resumes at the read it was at, and the thread is told once.
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import type { SccClient } from '../scc/client.js';
import type { DeploymentRunDto } from '../scc/generated/models.js';
import { accessVerify } from './accessVerify.js';
import { defineFollowKind, end, unlessGone } from './kind.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

export const RuleVerifyRequest = z.object({
  kind: z.literal('rule-verify'),
  label: z.string(),
  device: z.object({ uid: z.string().min(1), name: z.string().min(1) }),
  /**
   * SCC's newest deployment run when the change was made (its submission time by SCC's clock, 0 for none,
   * and its transaction): the first run of the device listed after it carries the change.
   */
  after: z.number().int(),
  notRun: z.string().optional(),
  /** The rule as it was: its UUID and its configuration line. */
  rule: z.object({ uid: z.string().min(1), text: z.string() }),
  change: z.enum(['remove', 'disable']),
  /** The packet-tracer line of the flow the rule matched, built from asaCommands.ts templates. */
  script: z.string().min(1).max(300),
  /** The command that removes the rule (a disabled rule's next step), for the verification's request. */
  removal: z.string().min(1).max(300),
});
export type RuleVerifyRequest = z.infer<typeof RuleVerifyRequest>;

/** The first deployment run of the device after the one newest at the change, among SCC's newest runs. */
async function deployAfter(
  client: SccClient,
  request: RuleVerifyRequest,
): Promise<DeploymentRunDto | undefined> {
  const { data } = await client.call('getDeviceDeploymentRuns', {
    query: { limit: '50', sort: ['submissionTime:DESC'] },
  });
  const runs: DeploymentRunDto[] = (data.items ?? []).filter(
    (run) =>
      run.transactionUid &&
      (run.deviceUids ?? []).includes(request.device.uid) &&
      run.transactionUid !== request.notRun &&
      Date.parse(run.submissionTime ?? '') >= request.after,
  );
  return runs.at(-1);
}

export const ruleVerify = defineFollowKind({
  kind: 'rule-verify',
  request: RuleVerifyRequest,
  state: z.object({
    /** The deploy that carries the change, once found. */
    transactionUid: z.string().optional(),
    /** As accessVerify keeps them, once the deploy is found. */
    deployed: z.boolean().optional(),
    cliTransactionUid: z.string().optional(),
  }),
  id: (request) => `${request.device.uid}:${request.rule.uid}:${request.after}`,
  sccId: () => undefined,
  // A deploy may come minutes or days after the change: two reads (the runs, the device) every 2 minutes at
  // most while none came, for a week; once it came, accessVerify's own short waits (delayMs) take over.
  poll: { firstDelayMs: 5 * SECOND, factor: 1.5, capMs: 2 * MINUTE, deadlineMs: 7 * DAY },
  describe: (request) =>
    `the verification of the ${request.change === 'remove' ? 'removed' : 'disabled'} access rule on \`${request.device.name}\``,
  async step(ctx, request, state) {
    if (!state.transactionUid) {
      const run = await deployAfter(ctx.client, request);
      if (run?.transactionUid)
        return { kind: 'continue', state: { ...state, transactionUid: run.transactionUid }, delayMs: 0 };
      // Nothing staged any more and no deploy since: the change was discarded (or SCC's copy read again).
      const path = { deviceUid: request.device.uid };
      const device = await unlessGone(async () => (await ctx.client.call('getDevice', { path })).data);
      if (device === undefined)
        return end({
          status: 'failed',
          text: `NOT verified: SCC no longer knows \`${escapeAll(request.device.name)}\`.`,
        });
      if (device.configState === 'SYNCED')
        return end({
          status: 'failed',
          text: `NOT verified: \`${escapeAll(request.device.name)}\` has nothing staged any more and no deploy of it ran since the change (discarded?), so the rule may still be on the device: \`/fw rules ${escapeAll(request.device.name)}\` shows it.`,
        });
      return {
        kind: 'continue',
        state: { ...state, lastStatus: 'waiting for a deploy' },
        progress: `waiting for a deploy of \`${escapeAll(request.device.name)}\` (\`/fw deploy ${escapeAll(request.device.name)}\`) before packet-tracer runs again.`,
      };
    }
    return accessVerify.step(
      ctx,
      {
        kind: 'access-verify',
        label: request.label,
        transactionUid: state.transactionUid,
        device: request.device,
        script: request.script,
        rule: request.rule,
        removal: request.removal,
        expect: 'gone',
        removed: request.change === 'remove' ? 'removed' : 'disabled',
      },
      state,
    );
  },
});
