// Approval requests in Redis: the key layout, and every read and state change of a request. Each change
// is one Lua script (src/redis/lua/approval-*.lua), so concurrent clicks, sweepers and recovery passes cannot interleave.
//
// Keys under the prefix:
//   approval:<id>        hash: the request (JSON) and its mutable fields (state, decidedBy, executor…)
//   approvals:pending    zset id → expiresAt: what the expiry sweeper scans
//   approvals:active     zset id → when a recovery pass may look at it: approved requests (after a grace
//                        left to the approving process), executing ones (when their lease ends), finished
//                        ones not yet reported

import { z } from 'zod';
import type { RedisClient } from '../redis/connection.js';
import { RedisKeys } from '../redis/keys.js';
import { replicated } from '../redis/replication.js';
import { runScript } from '../redis/scripts.js';
import {
  ApprovalHash,
  type ApprovalRecord,
  type ApprovalRequest,
  ApprovalState,
  type ExecutionOutcome,
} from './record.js';
import { type CancelHeldResult, cancelHeld, type HeldRun, heldRun, holdRun } from './timing.js';

const DecideReply = z.tuple([
  z.enum(['ok', 'refused', 'missing', 'partial', 'again']),
  z.string(),
  z.string(),
]);
const ClaimReply = z.union([
  z.tuple([z.literal('claimed'), z.enum(['', 'checking', 'calling']), z.string()]),
  z.tuple([z.literal('busy'), z.string()]),
]);
const Flag = z.union([z.literal(0), z.literal(1)]);

export type NoticeStep = 'threadPosted' | 'cardUpdated' | 'tracked';

export type Decision = 'approved' | 'rejected' | 'cancelled' | 'expired';

/** The side an approval counts for, when a request needs both: the MSP's, the customer's, or either. */
export type ApproverSide = 'm' | 'c' | 'e';

export type DecideResult =
  /** This call made the transition; `state` is `expired` when the request had run out of time. */
  | { outcome: 'decided'; state: Decision; record: ApprovalRecord }
  /** Someone decided first (or the request is long gone). */
  | { outcome: 'refused'; state: ApprovalState | 'missing'; decidedBy: string | undefined }
  /** An approval of a request that needs more people: still pending, `approvers` so far (`again`: already counted). */
  | { outcome: 'partial'; approvers: string[]; record: ApprovalRecord }
  | { outcome: 'again'; approvers: string[]; record: ApprovalRecord };

export type ClaimResult =
  /** `previousPhase`: how far a process that died got (`calling` = the SCC call may have been sent). */
  | { claimed: true; previousPhase: 'checking' | 'calling' | undefined; attempts: number }
  | { claimed: false; state: string };

export interface ApprovalStoreOptions {
  redis: RedisClient;
  prefix: string;
  /** How long final records stay readable (late clicks, the card's history). */
  retentionMs: number;
  /** How long an approved request is left to the process that approved it before recovery may run it. */
  claimGraceMs: number;
}

/** How much longer than the request's life an external approver's mark is kept: held (scheduled) runs. */
const EXTERNAL_MARK_SLACK_MS = 31 * 24 * 60 * 60_000;

export class ApprovalStore {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #retentionMs: number;
  readonly #claimGraceMs: number;

  constructor(options: ApprovalStoreOptions) {
    this.#redis = options.redis;
    this.#keys = new RedisKeys(options.prefix);
    this.#retentionMs = options.retentionMs;
    this.#claimGraceMs = options.claimGraceMs;
  }

  key(id: string): string {
    return this.#keys.approval(id);
  }

  get pendingKey(): string {
    return this.#keys.approvalsPending();
  }

  get activeKey(): string {
    return this.#keys.approvalsActive();
  }

  async create(request: ApprovalRequest): Promise<void> {
    const created = await this.#redis
      .multi()
      .hsetnx(this.key(request.id), 'request', JSON.stringify(request))
      .hset(this.key(request.id), {
        id: request.id,
        state: 'pending',
        expiresAt: String(request.expiresAt),
        attempts: '0',
      })
      .zadd(this.pendingKey, request.expiresAt, request.id)
      .exec();
    const first = created?.[0];
    if (!first || first[0] !== null || first[1] !== 1) {
      throw new Error(`approval ${request.id} could not be created (id taken or Redis refused)`);
    }
    // The card is posted once this returns: a failover must not leave a card whose request is gone.
    await replicated(this.#redis, this.key(request.id));
  }

  /** Remembers where the card was posted; the card is updated there on every decision. */
  async attachCard(id: string, channel: string, ts: string): Promise<void> {
    await this.#redis.hset(this.key(id), { cardChannel: channel, cardTs: ts });
  }

  /** Forgets a request whose card could not be posted: nobody could ever decide it. */
  /**
   * True the first time this person is refused this way on this request: replayed clicks (Slack's retries,
   * a flood of forged ones) leave one audit record, not one each. Remembered for `ttlMs`.
   */
  async firstRefusal(id: string, userId: string, reason: string, ttlMs: number): Promise<boolean> {
    const key = this.#keys.approvalRefused(id, userId, reason);
    return (await this.#redis.set(key, '1', 'PX', Math.max(1_000, ttlMs), 'NX')) === 'OK';
  }

  /**
   * Notes that this approver is an external person (Slack Connect), before their approval is counted, so
   * the re-checks before execution ask the policy about them as the external person they are (only the
   * channel's external grants, and only where external approvers are allowed). Kept as long as the request
   * can still run and be read; when it is gone, the re-check takes them for a home person, which fails closed.
   */
  async markExternalApprover(id: string, userId: string, expiresAt: number, now: number): Promise<void> {
    const key = `${this.key(id)}:external`;
    const keepMs = Math.max(expiresAt - now, 0) + this.#retentionMs + EXTERNAL_MARK_SLACK_MS;
    await this.#redis.multi().sadd(key, userId).pexpire(key, keepMs).exec();
    await replicated(this.#redis, key);
  }

  /** The approvers of this request marked external (markExternalApprover). */
  async externalApprovers(id: string): Promise<ReadonlySet<string>> {
    return new Set(await this.#redis.smembers(`${this.key(id)}:external`));
  }

  async discard(id: string): Promise<void> {
    await this.#redis.multi().del(this.key(id)).zrem(this.pendingKey, id).zrem(this.activeKey, id).exec();
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const hash = await this.#redis.hgetall(this.key(id));
    if (Object.keys(hash).length === 0) return undefined;
    return ApprovalHash.parse(hash);
  }

  async decide(
    id: string,
    decision: Decision,
    now: number,
    decidedBy: string,
    reason?: string,
    approvalsNeeded = 1,
    /** A request that needs both sides: the side this approval counts for (see 'approval-decide'). */
    side?: ApproverSide,
  ): Promise<DecideResult> {
    const reply = DecideReply.parse(
      await runScript(
        this.#redis,
        'approval-decide',
        [this.key(id), this.pendingKey, this.activeKey],
        [
          now,
          decision,
          decidedBy,
          reason ?? '',
          this.#retentionMs,
          this.#claimGraceMs,
          approvalsNeeded,
          decision === 'approved' ? (side ?? '') : '',
        ],
      ),
    );
    const [status, state, by] = reply;
    if (status === 'missing') return { outcome: 'refused', state: 'missing', decidedBy: undefined };
    if (status === 'partial' || status === 'again') {
      const record = await this.get(id);
      if (!record) throw new Error(`approval ${id} vanished right after an approval was counted`);
      const approvers = by.split(',').filter((who) => who !== '');
      if (status === 'partial') return { outcome: 'partial', approvers, record };
      return { outcome: 'again', approvers, record };
    }
    if (status === 'refused') {
      return { outcome: 'refused', state: ApprovalState.parse(state), decidedBy: by || undefined };
    }
    const record = await this.get(id);
    if (!record) throw new Error(`approval ${id} vanished right after it was decided`);
    return { outcome: 'decided', state: decision === state ? decision : 'expired', record };
  }

  async claim(id: string, executor: string, now: number, leaseMs: number): Promise<ClaimResult> {
    const reply = ClaimReply.parse(
      await runScript(
        this.#redis,
        'approval-claim',
        [this.key(id), this.activeKey],
        [now, executor, leaseMs],
      ),
    );
    if (reply[0] === 'busy') return { claimed: false, state: reply[1] };
    return {
      claimed: true,
      previousPhase: reply[1] === '' ? undefined : reply[1],
      attempts: Number(reply[2]),
    };
  }

  /** Renews the claim (and moves to `phase`); false when this executor no longer holds it. */
  async hold(
    id: string,
    executor: string,
    now: number,
    leaseMs: number,
    phase?: 'calling',
  ): Promise<boolean> {
    const reply = await runScript(
      this.#redis,
      'approval-hold',
      [this.key(id), this.activeKey],
      [executor, now, leaseMs, phase ?? ''],
    );
    return Flag.parse(reply) === 1;
  }

  /** Back to approved, tried again at `at`: the executor held the claim (see 'approval-postpone'). */
  async postpone(id: string, executor: string, now: number, at: number): Promise<boolean> {
    const reply = await runScript(
      this.#redis,
      'approval-postpone',
      [this.key(id), this.activeKey],
      [executor, now, at],
    );
    return Flag.parse(reply) === 1;
  }

  /** True the first time `what` is noted of this request (remembered for `ttlMs`): said once, not each try. */
  async firstTime(id: string, what: string, ttlMs: number): Promise<boolean> {
    const key = this.#keys.approvalNoted(id, what);
    return (await this.#redis.set(key, '1', 'PX', Math.max(1_000, ttlMs), 'NX')) === 'OK';
  }

  async finish(
    id: string,
    executor: string,
    state: 'done' | 'failed',
    outcome: ExecutionOutcome,
    now: number,
    graceMs: number,
  ): Promise<boolean> {
    const reply = await runScript(
      this.#redis,
      'approval-finish',
      [this.key(id), this.activeKey],
      [executor, state, JSON.stringify(outcome), now, graceMs],
    );
    return Flag.parse(reply) === 1;
  }

  async claimNotice(id: string, now: number, leaseMs: number): Promise<boolean> {
    const reply = await runScript(
      this.#redis,
      'approval-claim-notice',
      [this.key(id), this.activeKey],
      [now, leaseMs],
    );
    return Flag.parse(reply) === 1;
  }

  /** Marks one step of posting an outcome as done, so a retried notice skips it. */
  async markNoticeStep(id: string, step: NoticeStep): Promise<void> {
    await this.#redis.hset(this.key(id), step, '1');
  }

  async noticed(id: string): Promise<void> {
    await runScript(this.#redis, 'approval-noticed', [this.key(id), this.activeKey], [this.#retentionMs]);
  }

  /** Pending requests whose time is not up yet, the soonest to expire first (the console lists them). */
  async pendingIds(now: number, limit: number): Promise<string[]> {
    return this.#redis.zrangebyscore(this.pendingKey, `(${now}`, '+inf', 'LIMIT', 0, limit);
  }

  /** Pending requests whose time is up, oldest first. */
  async dueForExpiry(now: number, limit: number): Promise<string[]> {
    return this.#redis.zrangebyscore(this.pendingKey, '-inf', now, 'LIMIT', 0, limit);
  }

  /** Holds an approved request until its time (src/approvals/timing.ts); false when it is not approved any more or held already. */
  async holdRun(id: string, held: HeldRun): Promise<boolean> {
    const done = await holdRun(this.#redis, { request: this.key(id), active: this.activeKey }, held);
    // A failover right after must not lose the hold: the request would then run at once, outside its window.
    if (done) await replicated(this.#redis, this.key(id));
    return done;
  }

  /** The time an approved request is held until, when it is. */
  async heldRun(id: string): Promise<HeldRun | undefined> {
    return heldRun(this.#redis, this.key(id));
  }

  /**
   * Withdraws a held request before its time (src/approvals/timing.ts): atomic against the claim that would
   * run it, so exactly one of the two wins.
   */
  async cancelHeld(id: string, by: string, now: number, reason: string): Promise<CancelHeldResult> {
    return cancelHeld(
      this.#redis,
      { request: this.key(id), active: this.activeKey },
      { now, by, reason, ttlMs: this.#retentionMs },
    );
  }

  /**
   * Approved requests held until a time, the soonest first (at most `limit` looked at). A held request's
   * score in the active index is its time, so the index read in order is the schedule.
   */
  async heldRecords(limit: number): Promise<ApprovalRecord[]> {
    const ids = await this.#redis.zrangebyscore(this.activeKey, '-inf', '+inf', 'LIMIT', 0, limit);
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter(
      (record): record is ApprovalRecord => record?.state === 'approved' && record.runAt !== undefined,
    );
  }

  /** Requests a recovery pass should look at now: approved, abandoned mid-execution, or unreported. */
  async dueForRecovery(now: number, limit: number): Promise<string[]> {
    const ids = await this.#redis.zrangebyscore(this.activeKey, '-inf', now, 'LIMIT', 0, limit);
    // A request whose hash expired or was removed would stay in the index for ever otherwise.
    const live: string[] = [];
    for (const id of ids) {
      if ((await this.#redis.exists(this.key(id))) === 1) live.push(id);
      else await this.#redis.zrem(this.activeKey, id);
    }
    return live;
  }
}
