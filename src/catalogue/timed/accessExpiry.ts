// An access rule fwbot created with `--expires`, removed at its expiry (issue 36, item 7): at the expiry,
// inside the device's change windows, the same removal `/fw access revoke` makes (deleteAccessRule in SCC's
// copy), then a deploy of the device and packet-tracer again, in the thread of the request: "removed at
// expiry; verified: DROP by line N" (src/follow/accessVerify.ts, expecting DROP), or NOT verified and why.
// The expiry is the approval given when the rule was asked for: the audit trail says so, naming that
// approval. The rule's record is dropped once its removal is deployed.
//
// Exactly once: every step is read before it is made, so a run repeated after a crash makes only what is
// still missing. The rule still in SCC is deleted; a deploy carrying this item's tag (`(fwbot request …)`)
// is found rather than sent again; the record is dropped last. Like a request, the removal holds the device
// (the `access` hold) from before the delete until the verification ends, so nothing else joins the deploy;
// a device that has someone else's changes staged, or that another change holds, waits for them.
import { z } from 'zod';
import type { TrackRequest } from '../../follow/index.js';
import { code } from '../../render/format.js';
import { userMention } from '../../render/mrkdwn.js';
import { untrusted } from '../../render/untrusted.js';
import type { AccessRule, Device } from '../../scc/generated/models.js';
import { deployWindows } from '../deployWindows.js';
import { HOLD_KINDS, holderWords } from '../deviceHolds.js';
import { isNotFound } from '../sccErrors.js';
import { newestDeployRuns, requestTag, taggedRequest } from '../stagedDevices.js';
import { defineTimedKind, type TimedContext } from './kind.js';

const MINUTE = 60_000;
/** How soon a removal looks again while the device is held or has someone else's changes staged. */
export const EXPIRY_WAIT_MS = 30 * MINUTE;

const Payload = z.object({
  /** The record's id (`/fw access list`), and the rule it records. */
  recordId: z.string().min(1),
  ruleUid: z.string().min(1),
  /** The rule's line as SCC wrote it when it was created (what packet-tracer must no longer match). */
  ruleText: z.string(),
  deviceUid: z.string().min(1),
  device: z.string(),
  /** The packet-tracer line the request was checked and verified with (asaCommands.ts templates). */
  script: z.string().min(1).max(300),
  requester: z.string().min(1),
  /** The approval of the request (the removal at expiry was approved with it) and who approved it. */
  approvalId: z.string().optional(),
  approvedBy: z.array(z.string()),
  ticket: z.string().optional(),
});
type Payload = z.infer<typeof Payload>;

const deviceOf = (p: Payload) => ({ uid: p.deviceUid, name: p.device });

/** The deploy this item sent before a crash, found by its tag. */
async function ourDeploy(ctx: TimedContext): Promise<string | undefined> {
  const run = (await newestDeployRuns(ctx.op)).find(
    (item) => taggedRequest(item.description) === ctx.item.id && item.transactionUid,
  );
  return run?.transactionUid ?? undefined;
}

/** The rule in SCC's copy now; undefined when SCC no longer has it. */
async function ruleNow(ctx: TimedContext, uid: string): Promise<AccessRule | undefined> {
  try {
    return await ctx.op.scc.lookups.accessRule(uid);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The deploy followed to its end, then packet-tracer expecting DROP (which ends the device's hold). */
function tracks(ctx: TimedContext, p: Payload, transactionUid: string): TrackRequest[] {
  const label = `removal of access rule ${p.recordId} at its expiry on ${p.device}`;
  return [
    { kind: 'deployment', transactionUid, label: `deploy for the ${label}` },
    {
      kind: 'access-verify',
      transactionUid,
      label,
      device: deviceOf(p),
      script: p.script,
      rule: { uid: p.ruleUid, text: p.ruleText },
      removal: `access list ${p.device}`,
      holder: ctx.item.id,
      expect: 'drop',
      removed: 'removed at expiry',
    },
  ];
}

/** The device's hold for this removal, or the sentence of who holds it instead. */
async function hold(ctx: TimedContext, p: Payload): Promise<string | undefined> {
  const holds = ctx.op.services?.holds;
  if (!holds) return undefined;
  const taken = await holds.take(
    {
      profile: ctx.item.profile,
      devices: [deviceOf(p)],
      holder: {
        kind: 'access',
        id: ctx.item.id,
        requesterId: p.requester,
        ...(ctx.item.thread
          ? { channelId: ctx.item.thread.channelId, threadTs: ctx.item.thread.threadTs }
          : {}),
      },
      reason: `removal of access rule ${p.recordId} at its expiry on ${p.device}`,
      until: ctx.now() + HOLD_KINDS.access.maxMs,
    },
    ctx.now(),
  );
  return taken.taken ? undefined : `${p.device} is held by ${holderWords(taken.by)}`;
}

async function audit(ctx: TimedContext, p: Payload, outcome: string, transactionUid?: string): Promise<void> {
  await ctx.op.services?.audit
    ?.record?.({
      actor: p.requester,
      action: 'executed',
      operationId: 'access.expiry',
      target: `access rule ${p.recordId} (${p.ruleUid}) on ${p.device}`,
      outcome,
      ...(p.approvalId ? { approvalId: p.approvalId } : {}),
      ...(transactionUid ? { transactionUid } : {}),
      ...(p.ticket ? { ticket: p.ticket } : {}),
    })
    .catch((error: unknown) => ctx.log.error({ err: error }, 'the removal at expiry was not audited'));
}

const approvedWith = (p: Payload) =>
  `approved with the request${p.approvalId ? ` ${p.approvalId}` : ''}${
    p.approvedBy.length > 0 ? ` by ${p.approvedBy.join(', ')}` : ''
  }`;

export const accessExpiry = defineTimedKind({
  kind: 'access-expiry',
  payload: Payload,
  id: (p) => p.ruleUid,
  describe: (p) => `remove access rule ${p.recordId} from ${p.device} at its expiry`,
  devices: (p) => [deviceOf(p)],
  // The device's change windows, read again at the minute: the removal waits until one is open.
  windows: async (ctx, p) =>
    (await deployWindows(ctx.op, [deviceOf(p)])).map((w) => ({ device: w.device, windows: w.windows })),
  async run(ctx, p) {
    const records = ctx.op.services?.accessRecords;
    if (!records)
      return { status: 'failed', summary: 'this fwbot process cannot read the access rules it created' };
    const profile = ctx.item.profile;
    const record = await records.find(profile, p.ruleUid);
    // A run repeated after a crash: the deploy it sent is followed, nothing is sent again.
    const sent = ctx.item.attempt > 1 ? await ourDeploy(ctx) : undefined;
    if (sent) {
      if (record) await records.remove(profile, record.id);
      return {
        status: 'done',
        summary: `removed from ${p.device} at its expiry`,
        track: tracks(ctx, p, sent),
      };
    }
    if (!record)
      return {
        status: 'done',
        summary: `nothing to remove: access rule ${p.recordId} was revoked before its expiry`,
      };
    // Extended since it was scheduled and not moved (a crash between): due at the new expiry.
    if (record.expiresAt === undefined)
      return { status: 'done', summary: `access rule ${p.recordId} no longer expires` };
    if (record.expiresAt > ctx.now())
      return { status: 'again', at: record.expiresAt, summary: 'extended: due at its new expiry' };
    const rule = await ruleNow(ctx, p.ruleUid);
    const { data: device }: { data: Device } = await ctx.op.scc.call('getDevice', {
      path: { deviceUid: p.deviceUid },
    });
    const staged = device.configState === 'NOT_SYNCED';
    if (!rule && (!staged || ctx.item.attempt === 1)) {
      // Removed by someone else (`/fw rules remove`): their deploy takes it off the device, if not done yet.
      await records.remove(profile, record.id);
      await ctx.say(
        'gone',
        `:information_source: Access rule ${code(p.recordId)} on ${untrusted(p.device)} expired, but SCC no longer had it (removed by hand): nothing was removed or deployed${staged ? `; its removal is staged, \`/fw deploy ${untrusted(p.device)}\` takes it off the device` : ''}. fwbot no longer lists it.`,
      );
      return { status: 'done', summary: `already gone from SCC's copy of ${p.device}` };
    }
    if (rule && staged) {
      if (ctx.item.round === 0)
        await ctx.say(
          'staged',
          `:hourglass: Access rule ${code(p.recordId)} on ${untrusted(p.device)} expired, but the device has changes staged in SCC that are not fwbot's removal, and a deploy would carry them: the removal waits until they are deployed or discarded (\`/fw changes ${untrusted(p.device)}\`), looking again every ${EXPIRY_WAIT_MS / MINUTE} minutes.`,
        );
      return {
        status: 'again',
        at: ctx.now() + EXPIRY_WAIT_MS,
        summary: `waits: ${p.device} has other changes staged`,
      };
    }
    const held = await hold(ctx, p);
    if (held) return { status: 'again', at: ctx.now() + EXPIRY_WAIT_MS, summary: `waits: ${held}` };
    await ctx.committing();
    try {
      if (rule) await ctx.op.scc.call('deleteAccessRule', { path: { accessRuleUid: p.ruleUid } });
      const label = `removal of access rule ${p.recordId} at its expiry on ${p.device}`;
      const { data: transaction } = await ctx.op.scc.call('deployChangesToMultipleAsaDevices', {
        body: { deviceUids: [p.deviceUid], description: `${label} ${requestTag(ctx.item.id)}` },
      });
      const transactionUid = transaction.transactionUid ?? undefined;
      await records.remove(profile, record.id);
      await audit(
        ctx,
        p,
        `deleteAccessRule and deploy at the rule's expiry, ${approvedWith(p)}`,
        transactionUid,
      );
      await ctx.say(
        'removing',
        `:hourglass_flowing_sand: Access rule ${code(p.recordId)} (requested by ${userMention(p.requester)}) expired: fwbot removed it from SCC's copy of ${untrusted(p.device)} and deploys it; packet-tracer runs again once the deploy ends.`,
      );
      if (!transactionUid) return { status: 'failed', summary: 'SCC started no deploy for the removal' };
      return {
        status: 'done',
        summary: `removed from ${p.device} at its expiry`,
        track: tracks(ctx, p, transactionUid),
      };
    } catch (error) {
      // Nothing follows the deploy to end the hold: it ends now.
      await ctx.op.services?.holds?.release(ctx.item.id).catch(() => undefined);
      throw error;
    }
  },
  // Each step is read before it is made (the rule in SCC, the tagged deploy, the record): running it again
  // makes only what is still missing.
  interrupted: 'run-again',
});
