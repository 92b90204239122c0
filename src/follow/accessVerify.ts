// Verifying an access request's rule once its deploy has run: the deploy's run is read until it ends, then
// packet-tracer runs again on the device (the same line the request was checked with, built by the
// catalogue from its templates), and the verdict is read: "verified: ALLOW by line N (the new rule)", or
// "NOT verified: …" with a *Remove the rule…* button that runs `rules remove` (governed like any removal).
// Declared later work, so it happens exactly once even when the worker that deployed dies before it: the
// tracking queue keeps one job per request, and each step is one read (or one packet-tracer start, which
// is a read the device may be asked twice). The request's hold on this device (the per-device change lock)
// ends with it, however it ends; a request on several ASAs keeps its other devices held until theirs end.
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import { parsePacketTracer } from '../render/packetTracer.js';
import type { SccClient } from '../scc/client.js';
import type { DeploymentRunDto } from '../scc/generated/models.js';
import { escapeLuceneTerm } from '../scc/lucene.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';

const SECOND = 1_000;
const HOUR = 60 * 60 * SECOND;
/** How soon a running packet-tracer is read again. */
const PACKET_TRACER_MS = SECOND;

/** SCC's or the device's words as code, escaped. */
const quoted = (text: string) => `\`${escapeAll(text).replace(/`/g, 'ˋ')}\``;

/** Whitespace-insensitive, without the `line N` SCC's copy of a rule may carry. */
function plainRule(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(access-list \S+) line \d+ /, '$1 ');
}

export const AccessVerifyRequest = z.object({
  kind: z.literal('access-verify'),
  label: z.string(),
  /** The deploy's transaction: its run is read until it ends. */
  transactionUid: z.string().min(1),
  device: z.object({ uid: z.string().min(1), name: z.string().min(1) }),
  /** The packet-tracer line, built from asaCommands.ts templates when the request was made. */
  script: z.string().min(1).max(300),
  /** The rule fwbot created: its UUID and its configuration line as SCC wrote it. */
  rule: z.object({ uid: z.string().min(1), text: z.string() }),
  /** The command line of the governed removal the *Remove the rule…* button runs. */
  removal: z.string().min(1).max(300),
  /** The request's id, whose device hold ends with the verification. */
  holder: z.string().optional(),
  /**
   * What packet-tracer should say: ALLOW by the new rule (a request's rule, the default), or DROP once the
   * rule was removed (at its expiry, src/catalogue/timed/accessExpiry.ts): then `removed` starts the
   * thread's line (`removed at expiry`) and no removal button is offered, the rule being gone already.
   * `gone` (any rule removed or disabled, `rules remove|disable` through src/follow/ruleVerify.ts): whatever
   * packet-tracer decides, ALLOW or DROP, it must be decided by another line than the rule's.
   */
  expect: z.enum(['allow', 'drop', 'gone']).optional(),
  removed: z.string().max(100).optional(),
});
export type AccessVerifyRequest = z.infer<typeof AccessVerifyRequest>;

export const accessVerify = defineFollowKind({
  kind: 'access-verify',
  request: AccessVerifyRequest,
  state: z.object({
    /** The deploy run ended well: packet-tracer may run. */
    deployed: z.boolean().optional(),
    /** The packet-tracer's command-line transaction, once started. */
    cliTransactionUid: z.string().optional(),
  }),
  id: (request) => `${request.transactionUid}:${request.rule.uid}`,
  sccId: (request) => request.transactionUid,
  // A deploy takes seconds to minutes; packet-tracer seconds.
  poll: { firstDelayMs: 2 * SECOND, factor: 1.5, capMs: 20 * SECOND, deadlineMs: 2 * HOUR },
  holder: (request) => request.holder,
  // A request on several ASAs holds each until its own verification ends (the others may still deploy).
  heldDevices: (request) => (request.holder === undefined ? undefined : [request.device.uid]),
  describe: (request) => `the verification of the access rule on \`${request.device.name}\``,
  async step(ctx, request, state) {
    const scc = ctx.client;
    if (!state.deployed) {
      const { data } = await scc.call('getDeviceDeploymentRuns', {
        query: { q: `transactionUid:"${request.transactionUid}"`, limit: '1' },
      });
      const run: DeploymentRunDto | undefined = data.items?.find(
        (item) => item.transactionUid === request.transactionUid,
      );
      const status = run?.deploymentRunStatus ?? undefined;
      if (status === 'DEPLOY_FAILED')
        return end(failed(request, `the deploy failed (run \`${escapeAll(run?.uid ?? '?')}\`)`));
      if (status !== 'DEPLOY_COMPLETED')
        return {
          kind: 'continue',
          state: { ...state, lastStatus: status },
          progress: 'waiting for the deploy to end before packet-tracer runs again.',
        };
      return { kind: 'continue', state: { ...state, deployed: true, lastStatus: status }, delayMs: 0 };
    }
    if (!state.cliTransactionUid) {
      const transaction = await scc.lookups.executeCli({
        deviceUids: [request.device.uid],
        script: request.script,
      });
      if (!transaction.transactionUid)
        return end(failed(request, 'SCC accepted packet-tracer but gave no transaction to follow'));
      return {
        kind: 'continue',
        state: { ...state, cliTransactionUid: transaction.transactionUid, lastStatus: 'TRACING' },
        // packet-tracer answers in seconds: read soon, not on the deploy's grown schedule.
        delayMs: PACKET_TRACER_MS,
      };
    }
    const transaction = await unlessGone(() => scc.transactions.get(state.cliTransactionUid ?? ''));
    if (!transaction) return end(failed(request, 'SCC no longer knows the packet-tracer run'));
    const status = transaction.cdoTransactionStatus ?? 'UNKNOWN';
    if (status !== 'DONE' && status !== 'ERROR' && status !== 'CANCELLED')
      return { kind: 'continue', state: { ...state, lastStatus: status }, delayMs: PACKET_TRACER_MS };
    if (status !== 'DONE') return end(failed(request, `packet-tracer did not run (${escapeAll(status)})`));
    const executionUid = transaction.entityUid ?? '';
    const page = await scc.lookups.cliResults({ q: `executionUid:${escapeLuceneTerm(executionUid)}` });
    const listed = (page.items ?? []).find((item) => item.deviceUid === request.device.uid);
    const result =
      listed && listed.result == null && listed.errorMsg == null
        ? await scc.lookups.cliResult(listed.uid)
        : listed;
    if (!result) return end(failed(request, 'SCC has no packet-tracer result'));
    if (result.errorMsg)
      return end(failed(request, `the device could not run packet-tracer: ${escapeAll(result.errorMsg)}`));
    return end(await verdictOutcome(ctx.client, request, result.result ?? ''));
  },
});

/** The rule a trace line names, with its line in the configuration, from SCC's copy of the device's rules. */
async function ruleOfLine(
  scc: SccClient,
  request: AccessVerifyRequest,
  line: string,
): Promise<{ uid: string; line: number | undefined } | undefined> {
  // The device's rules a page at a time (SCC's lists give at most 200), until the line is found.
  let found: Awaited<ReturnType<SccClient['lookups']['accessRule']>> | undefined;
  for (let offset = 0; offset < 2_000 && !found; offset += 200) {
    const page = await scc.lookups.accessRules({
      q: `entityUid:${escapeLuceneTerm(request.device.uid)}`,
      limit: 200,
      offset,
    });
    const items = page.items ?? [];
    found = items.find(
      (rule) => rule.ruleConfigurationText && plainRule(rule.ruleConfigurationText) === plainRule(line),
    );
    if (items.length < 200) break;
  }
  return found?.uid ? { uid: found.uid, line: found.ruleConfigurationLineNumber ?? undefined } : undefined;
}

async function verdictOutcome(
  scc: SccClient,
  request: AccessVerifyRequest,
  output: string,
): Promise<Outcome> {
  const verdict = parsePacketTracer(output);
  if (request.expect === 'drop') return dropOutcome(scc, request, verdict);
  if (request.expect === 'gone') return goneOutcome(scc, request, verdict);
  const decision = verdict.decision;
  if (verdict.action === undefined) return notVerified(request, 'the packet-tracer answer could not be read');
  const line = decision?.kind === 'access-list' ? decision.line : undefined;
  if (verdict.action === 'drop') {
    const by = line
      ? `dropped by ${quoted(line)}`
      : `dropped (${escapeAll(verdict.dropReason ?? 'no reason given')})`;
    return notVerified(request, `packet-tracer says DROP: ${by}`);
  }
  const ours = line !== undefined && plainRule(line) === plainRule(request.rule.text);
  const found = line ? await ruleOfLine(scc, request, line) : undefined;
  if (!ours && found?.uid !== request.rule.uid) {
    const by = line ? `by ${quoted(line)}` : 'without an access-list line (security levels)';
    return notVerified(request, `packet-tracer says ALLOW, but ${by}, not by the new rule`);
  }
  const where = found?.line === undefined ? '' : ` by line ${found.line}`;
  return {
    status: 'succeeded',
    text: `verified: ALLOW${where} (the new rule, ${quoted(request.rule.text)}) on \`${escapeAll(request.device.name)}\`.`,
  };
}

/** Not verified, said as the request expects: a new rule offers its removal, a removed one does not. */
function failed(request: AccessVerifyRequest, why: string): Outcome {
  return request.expect === undefined || request.expect === 'allow'
    ? notVerified(request, why)
    : notRemoved(request, why);
}

function notVerified(request: AccessVerifyRequest, why: string): Outcome {
  return {
    status: 'failed',
    text: `NOT verified: ${why}. The rule ${quoted(request.rule.text)} stays on \`${escapeAll(request.device.name)}\` until it is removed.`,
    button: { label: 'Remove the rule…', command: request.removal },
  };
}

/** After a removal: DROP is what proves the rule no longer lets the traffic through. */
async function dropOutcome(
  scc: SccClient,
  request: AccessVerifyRequest,
  verdict: ReturnType<typeof parsePacketTracer>,
): Promise<Outcome> {
  if (verdict.action === undefined) return notRemoved(request, 'the packet-tracer answer could not be read');
  const decision = verdict.decision;
  const line = decision?.kind === 'access-list' ? decision.line : undefined;
  if (verdict.action === 'allow') {
    const by = line ? `by ${quoted(line)}` : 'without an access-list line (security levels)';
    return notRemoved(request, `packet-tracer still says ALLOW, ${by}`);
  }
  let by: string;
  if (line) {
    const found = await ruleOfLine(scc, request, line);
    by = `${found?.line === undefined ? '' : `line ${found.line} `}(${quoted(line)})`;
  } else if (decision?.kind === 'implicit-deny') by = 'the implicit deny at the end of the access list';
  else by = `${escapeAll(verdict.dropReason ?? 'no reason given')}`;
  return {
    status: 'succeeded',
    text: `${escapeAll(request.removed ?? 'removed')}; verified: DROP by ${by} on \`${escapeAll(request.device.name)}\` (the rule ${quoted(request.rule.text)} is gone).`,
  };
}

function notRemoved(request: AccessVerifyRequest, why: string): Outcome {
  const state = request.removed === 'disabled' ? 'is inactive in' : 'is gone from';
  return {
    status: 'failed',
    text: `${escapeAll(request.removed ?? 'removed')}, but NOT verified: ${why}. The rule ${quoted(request.rule.text)} ${state} SCC’s copy of \`${escapeAll(request.device.name)}\`; \`/fw trace\` and \`/fw changes\` show what the device does now.`,
  };
}

/** A rule's line, without the `inactive` a disabled rule's carries (packet-tracer never names those). */
const activeText = (text: string) => plainRule(text).replace(/ inactive$/, '');

/**
 * After any rule was removed or disabled: packet-tracer may ALLOW or DROP (a broader rule, a later deny,
 * the implicit deny), as long as the line deciding is not the rule's. Which line decides is said.
 */
async function goneOutcome(
  scc: SccClient,
  request: AccessVerifyRequest,
  verdict: ReturnType<typeof parsePacketTracer>,
): Promise<Outcome> {
  if (verdict.action === undefined) return notRemoved(request, 'the packet-tracer answer could not be read');
  const decision = verdict.decision;
  const line = decision?.kind === 'access-list' ? decision.line : undefined;
  const action = verdict.action === 'allow' ? 'ALLOW' : 'DROP';
  if (line !== undefined && activeText(line) === activeText(request.rule.text))
    return notRemoved(request, `packet-tracer says ${action} still by the rule itself, ${quoted(line)}`);
  let by: string;
  if (line) {
    const found = await ruleOfLine(scc, request, line);
    if (found?.uid === request.rule.uid)
      return notRemoved(request, `packet-tracer says ${action} still by the rule itself, ${quoted(line)}`);
    by = `${found?.line === undefined ? '' : `line ${found.line} `}(${quoted(line)})`;
  } else if (decision?.kind === 'implicit-deny') by = 'the implicit deny at the end of the access list';
  else if (verdict.action === 'allow') by = 'no access-list line (security levels)';
  else by = escapeAll(verdict.dropReason ?? 'no reason given');
  return {
    status: 'succeeded',
    text: `verified: ${action} by ${by} on \`${escapeAll(request.device.name)}\`, no longer by the ${escapeAll(request.removed ?? 'removed')} rule ${quoted(request.rule.text)}.`,
  };
}
