// Following a command sent to an FMC through the device gateway (`requestId`) until the device answers:
// `pending` and `timeout` (SCC stopped waiting, the device may still answer) both mean ask again.
import { z } from 'zod';
import { escapeAll } from '../render/mrkdwn.js';
import type { CommandResponse } from '../scc/generated/models.js';
import { defineFollowKind, end, type Outcome, unlessGone } from './kind.js';
import { sentence } from './words.js';

const GatewayRequest = z.object({
  kind: z.literal('gateway'),
  requestId: z.string().min(1),
  deviceUid: z.string().min(1),
  label: z.string(),
});

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

export const gateway = defineFollowKind({
  kind: 'gateway',
  request: GatewayRequest,
  state: z.object({}),
  id: (request) => request.requestId,
  sccId: (request) => request.requestId,
  // A device answers in seconds or not at all; the gateway itself gives up after 70 s.
  poll: { firstDelayMs: 1 * SECOND, factor: 1.5, capMs: 10 * SECOND, deadlineMs: 15 * MINUTE },
  describe: (request) => `gateway request \`${request.requestId}\``,
  async step(ctx, request, state) {
    const answer = await unlessGone(() => ctx.client.gateway.result(request.requestId));
    if (!answer) return end(goneOutcome(request.requestId));
    const outcome = gatewayOutcome(request.requestId, answer);
    if (outcome) return end(outcome);
    return { kind: 'continue', state: { ...state, lastStatus: answer.status ?? undefined } };
  },
});

/** Room for a device answer inside one message, with the sentences around it. */
export const ANSWER_LIMIT = 2_800;

function prettyAnswer(body: unknown): string {
  if (typeof body === 'string') {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }
  return JSON.stringify(body ?? null, null, 2) ?? 'null';
}

/**
 * A code block of at most `limit` characters of `text` (escaped after the cut, so no entity is split),
 * with a note saying what was left out and where the rest is. `whereWhole` is mrkdwn made here.
 */
export function codeBlock(text: string, limit: number, whereWhole: string): string {
  const clean = text.replace(/```/g, '`\u200b``');
  if (clean.length <= limit) return `\`\`\`\n${escapeAll(clean)}\n\`\`\``;
  const shown = escapeAll(clean.slice(0, limit));
  return (
    `\`\`\`\n${shown}\n\`\`\`\n_The answer is ${text.length.toLocaleString('en-US')} characters long; only the ` +
    `first ${limit.toLocaleString('en-US')} are shown. ${whereWhole}_`
  );
}

/** The device's answer, or why there is none; undefined while SCC waits for it. */
export function gatewayOutcome(requestId: string, answer: CommandResponse): Outcome | undefined {
  const data = answer.data;
  const record = typeof data === 'object' && data !== null ? data : undefined;
  const body = record ? (record.responseBody ?? record) : data;
  const deviceStatus =
    typeof record?.responseStatus === 'string' ? ` (${escapeAll(record.responseStatus)})` : '';
  const whole = `The whole answer stays available from SCC as gateway request \`${escapeAll(requestId)}\`.`;
  if (answer.status === 'responded') {
    return {
      status: 'succeeded',
      text: `the device answered${deviceStatus}:\n${codeBlock(prettyAnswer(body), ANSWER_LIMIT, whole)}`,
    };
  }
  if (answer.status === 'failed') {
    const said = answer.message ? `: ${sentence(answer.message)}` : '.';
    const shown =
      body === undefined || body === null ? '' : `\n${codeBlock(prettyAnswer(body), ANSWER_LIMIT, whole)}`;
    return { status: 'failed', text: `the command failed${said}${shown}` };
  }
  return undefined;
}

function goneOutcome(requestId: string): Outcome {
  return {
    status: 'unknown',
    text: `outcome unknown: SCC no longer knows gateway request \`${escapeAll(requestId)}\`, so fwbot cannot show the device's answer.`,
  };
}
