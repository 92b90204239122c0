// The shapes approvals keep in Redis and put in buttons, each parsed with zod when read back. A request is
// one hash: the immutable request (JSON in the `request` field) and the fields the state machine changes.
import { z } from 'zod';
import { StoredCall } from '../dispatch/reveals.js';
import { TrackRequestSchema } from '../follow/index.js';
import { StoredView } from '../model/storedView.js';
import { ROLES } from '../model/types.js';

export const APPROVAL_STATES = [
  'pending',
  'approved',
  'executing',
  'done',
  'failed',
  'rejected',
  'expired',
  'cancelled',
] as const;
export const ApprovalState = z.enum(APPROVAL_STATES);
export type ApprovalState = z.infer<typeof ApprovalState>;

/** States from which nothing moves any more. */
export const FINAL_STATES: readonly ApprovalState[] = ['done', 'failed', 'rejected', 'expired', 'cancelled'];

export const TargetDescription = z.object({
  action: z.string(),
  line: z.string(),
  fields: z.array(z.object({ label: z.string(), value: z.string() })),
  warnings: z.array(z.string()),
  code: z.string().optional(),
  notes: z.array(z.string()).optional(),
});

/** What was asked, by whom, on what: fixed when the request is made. */
export const ApprovalRequest = StoredCall.extend({
  id: z.string().min(1),
  commandText: z.string(),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
  /** The role the request needed: the requester must still hold it when it is decided and run. */
  role: z.enum(ROLES),
  /**
   * The target as resolved when the request was made: the operation's facts (parsed with its own schema
   * where used) and their description, which the card shows and the audit trail names.
   */
  target: z.object({ facts: z.unknown(), description: TargetDescription }),
  /** The change ticket the request is made under (`--ticket`), and its link from the policy's `ticket_url`. */
  ticket: z.string().optional(),
  ticketUrl: z.string().optional(),
  /** Why it may run outside its change windows (`--break-glass "<reason>"`, redacted): every audit record of it names it. */
  breakGlass: z.string().optional(),
  /** The device holds the call belongs to (ApprovalRequestInput.holder): its run meets them as their holder's. */
  holder: z.string().optional(),
  /**
   * How many distinct people other than the requester must approve (1 when absent): scoped approver rules
   * (`approvals.approvers[].min_approvers`) and break-glass deploys ask for more.
   */
  approvalsNeeded: z.number().int().min(1).max(10).optional(),
  /**
   * Who may approve, when approver rules scoped to the target decide it (Slack user ids and user-group ids,
   * the union of every matching rule's `approvers`) instead of the channel's approver role; and the rules'
   * keys, which the card names.
   */
  approverRule: z.object({ principals: z.array(z.string()).min(1), rules: z.array(z.string()) }).optional(),
  /**
   * Approvals from both sides (`customer_approvers`): besides the MSP's (`approverRule`), one of these
   * customer's people must approve, on the card in the tenant's customer channel (`channelId`).
   */
  customerSide: z
    .object({ tenant: z.string(), principals: z.array(z.string()).min(1), rules: z.array(z.string()) })
    .optional(),
  /**
   * Approver rules the target adds besides the usual approvers (TargetSpec.approvers: an access request's
   * risk check), each with the sentence the card shows why; `approvalsNeeded` counts their approvals too
   * (src/approvals/extraApprovers.ts).
   */
  extraApprovers: z
    .array(
      z.object({
        key: z.string(),
        principals: z.array(z.string()).min(1),
        minApprovers: z.number().int().min(1),
        reason: z.string(),
      }),
    )
    .optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** The result of an execution, kept until it is posted in the card's thread. */
export const ExecutionOutcome = z.object({
  /** One line for the card and the audit trail. */
  summary: z.string(),
  /** What to post in the thread: the operation's own rendering, or what went wrong. */
  view: StoredView,
  /** Handed to the tracking queue when SCC answered 202. */
  track: z.array(TrackRequestSchema).default([]),
  /** Timed work the call scheduled, handed the card's thread to speak in (a shun's end). */
  timed: z.array(z.object({ kind: z.string(), profile: z.string(), key: z.string() })).optional(),
});
export type ExecutionOutcome = z.infer<typeof ExecutionOutcome>;

const optionalNumber = z.coerce.number().int().optional();

/** The hash as HGETALL returns it: every value a string, absent fields missing. */
export const ApprovalHash = z.object({
  request: z.string().transform((text, ctx) => {
    try {
      return ApprovalRequest.parse(JSON.parse(text));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `unreadable request: ${String(error)}` });
      return z.NEVER;
    }
  }),
  state: ApprovalState,
  cardChannel: z.string().optional(),
  cardTs: z.string().optional(),
  decidedBy: z.string().optional(),
  decidedAt: optionalNumber,
  /** Who approved so far, in order (comma-separated in Redis): a multi-approver request waits for them all. */
  approvers: z
    .string()
    .transform((text) => text.split(',').filter((id) => id !== ''))
    .optional(),
  /**
   * For a request that needs both sides: the side each approver counted for, in `approvers`' order, one
   * letter each (`m` the MSP's, `c` the customer's, `e` either: named on both through user groups).
   */
  approverSides: z.string().optional(),
  reason: z.string().optional(),
  /** An approved request held until its time (src/approvals/timing.ts): when, why, the zone it is said in. */
  runAt: optionalNumber,
  runReason: z.enum(['explicit', 'window']).optional(),
  runZone: z.string().optional(),
  runWindows: z.string().optional(),
  /** A held request withdrawn before its time (`/fw deployments cancel`): by whom, when. */
  cancelledBy: z.string().optional(),
  cancelledAt: optionalNumber,
  /** Which process runs it, until when it holds the claim, and how far it got. */
  executor: z.string().optional(),
  leaseUntil: optionalNumber,
  phase: z.enum(['checking', 'calling']).optional(),
  attempts: z.coerce.number().int().default(0),
  outcome: z
    .string()
    .transform((text) => ExecutionOutcome.parse(JSON.parse(text)))
    .optional(),
  finishedAt: optionalNumber,
  notified: z.literal('1').optional(),
  /** Steps of posting the outcome already done (see ApprovalExecutor.notify). */
  threadPosted: z.literal('1').optional(),
  cardUpdated: z.literal('1').optional(),
  tracked: z.literal('1').optional(),
});
export type ApprovalRecord = z.output<typeof ApprovalHash>;

/** What a button of the card carries: the request id only, everything else is read from Redis. */
export const ApprovalButtonValue = z.object({ v: z.literal(1), id: z.string().min(1).max(64) });
export type ApprovalButtonValue = z.infer<typeof ApprovalButtonValue>;

/** The reject modal remembers which request, and the card it was opened from (where to answer). */
export const RejectModalMetadata = z.object({
  id: z.string().min(1).max(64),
  channel: z.string().min(1),
  ts: z.string().optional(),
});
export type RejectModalMetadata = z.infer<typeof RejectModalMetadata>;
