// The outside world of a benchmark or drill, all on loopback: a private redis-server, the SCC simulator
// in this process, the fake Slack Web API. Plus three instruments over them: transactions planted in the
// simulator that finish exactly when a benchmark says, a tally of the SCC requests the simulator served
// (read from its request log as it goes, so the log's bounded size never loses any), and a tally of the
// final replies posted in threads (one per followed thing is right; none is a loss; two is a duplicate).
import { randomUUID } from 'node:crypto';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import {
  type SimulatorHandle,
  type StartSimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import type { TransactionRecord } from '../../src/simulator/state/model.js';
import { type FakeSlack, type RecordedCall, startFakeSlack } from '../../test/support/fakeSlack.js';
import {
  type RedisServerHandle,
  type StartRedisOptions,
  startRedisServer,
} from '../../test/support/redisServer.js';

export interface World {
  redis: RedisServerHandle;
  sim: SimulatorHandle;
  slack: FakeSlack;
  stop(): Promise<void>;
}

export async function startWorld(
  options: { sim?: StartSimulatorOptions; redis?: StartRedisOptions } = {},
): Promise<World> {
  const redis = await startRedisServer(options.redis);
  const sim = await startSimulator({ port: 0, clock: 'manual', ...options.sim });
  const slack = await startFakeSlack();
  return {
    redis,
    sim,
    slack,
    async stop() {
      await slack.stop();
      await sim.stop();
      await redis.stop();
    },
  };
}

/**
 * A transaction of the portal tenant that is IN_PROGRESS until simulated time `finishAt`, then DONE. Its
 * status is read from the clock when asked, so it finishes at that instant exactly, with no timer behind
 * it. `finishAt` may be a function, for a finish time decided after the transaction is followed. Its SCC
 * type is `type` (what fwbot learns durations by).
 */
export function plantTransaction(
  sim: SimulatorHandle,
  finish: number | (() => number),
  type: TransactionRecord['type'] = 'MSP_ENABLE_MULTICLOUD_DEFENSE',
): string {
  const uid = randomUUID();
  const submittedAt = sim.clock.now();
  const finishAt = typeof finish === 'number' ? () => finish : finish;
  const record: TransactionRecord = {
    uid,
    tenantUid: sim.state.portalUid,
    type,
    get status() {
      return sim.clock.now() >= finishAt() ? 'DONE' : 'IN_PROGRESS';
    },
    submissionTime: submittedAt,
    get lastUpdatedTime() {
      return sim.clock.now() >= finishAt() ? finishAt() : submittedAt;
    },
    details: {},
  };
  sim.state.transactions.set(uid, record);
  return uid;
}

/** Counts the simulator's requests by path (and in total) by reading its log forward as it grows. */
export class SccRequestTally {
  private since = 0;
  readonly byPath = new Map<string, number>();
  readonly byOperation = new Map<string, number>();
  readonly statuses = new Map<number, number>();
  /** path → wall time (ms) of the last request answered 200 on it (when a poll saw the end). */
  readonly lastOk = new Map<string, number>();
  total = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sim: SimulatorHandle) {
    this.since = sim.requestLog.total;
  }

  /** Reads what was logged since the last read. Call often enough that the log never wraps (10,000). */
  read(): void {
    const entries = this.sim.requestLog.list({ since: this.since });
    const first = entries[0];
    if (first !== undefined && first.seq > this.since + 1) {
      throw new Error('the simulator request log wrapped before it was read: counts would be wrong');
    }
    for (const entry of entries) {
      this.since = entry.seq;
      this.total += 1;
      this.byPath.set(entry.path, (this.byPath.get(entry.path) ?? 0) + 1);
      const op = entry.operationId ?? '(none)';
      this.byOperation.set(op, (this.byOperation.get(op) ?? 0) + 1);
      this.statuses.set(entry.status, (this.statuses.get(entry.status) ?? 0) + 1);
      if (entry.status === 200) this.lastOk.set(entry.path, Date.parse(entry.realTime));
    }
  }

  /** Reads every `everyMs` until stopped. */
  start(everyMs = 200): this {
    this.timer = setInterval(() => this.read(), everyMs);
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.read();
  }
}

/** A thread of its own for each followed thing, spread over `channels` channels. */
export function benchThread(index: number, channels: number): ThreadRef {
  return {
    channelId: `C0B${String(index % channels).padStart(6, '0')}`,
    threadTs: `1700000000.${String(index).padStart(6, '0')}`,
    requesterId: 'U0BENCH01',
    profile: 'default',
  };
}

export const threadKey = (channel: unknown, threadTs: unknown): string =>
  `${String(channel)}/${String(threadTs)}`;

function eventType(call: RecordedCall): unknown {
  const metadata = call.args.metadata;
  return typeof metadata === 'object' && metadata !== null
    ? (metadata as Record<string, unknown>).event_type
    : undefined;
}

/** True for a final reply Slack accepted: a thread post whose metadata says it is an outcome. */
export const isFinalReply = (call: RecordedCall): boolean =>
  call.method === 'chat.postMessage' && call.status === 200 && eventType(call) === 'fwbot_outcome';

/** Final replies per thread, read forward from the fake Slack's call record. */
export class ReplyTally {
  private seen = 0;
  /** thread key → real times (ms) of the accepted final replies in it. */
  readonly replies = new Map<string, number[]>();

  constructor(private readonly slack: FakeSlack) {}

  read(): void {
    const calls = this.slack.calls;
    for (; this.seen < calls.length; this.seen += 1) {
      const call = calls[this.seen];
      if (!call || !isFinalReply(call)) continue;
      const key = threadKey(call.args.channel, call.args.thread_ts);
      const times = this.replies.get(key) ?? [];
      times.push(call.at);
      this.replies.set(key, times);
    }
  }

  /** How many of `threads` have at least one reply, none, and more than one. */
  account(threads: readonly ThreadRef[]): { delivered: number; lost: number; duplicated: number } {
    this.read();
    let delivered = 0;
    let lost = 0;
    let duplicated = 0;
    for (const thread of threads) {
      const count = this.replies.get(threadKey(thread.channelId, thread.threadTs))?.length ?? 0;
      if (count === 0) lost += 1;
      else delivered += 1;
      if (count > 1) duplicated += count - 1;
    }
    return { delivered, lost, duplicated };
  }

  /**
   * Resolves once every thread has a reply, or at the deadline (real ms since the epoch). With `label`,
   * prints every 15 s how many threads are answered, so a slow run shows where it stands.
   */
  async until(
    threads: readonly ThreadRef[],
    deadline: number,
    everyMs = 100,
    label?: string,
  ): Promise<boolean> {
    const started = Date.now();
    let told = started;
    for (;;) {
      const { lost } = this.account(threads);
      if (lost === 0) return true;
      if (Date.now() > deadline) {
        if (label) console.log(`  [${label}] deadline reached with ${lost} of ${threads.length} unanswered`);
        return false;
      }
      if (label && Date.now() - told >= 15_000) {
        told = Date.now();
        const waited = ((told - started) / 1000).toFixed(0);
        const left = ((deadline - told) / 1000).toFixed(0);
        console.log(
          `  [${label}] ${threads.length - lost} of ${threads.length} answered after ${waited} s (gives up in ${left} s)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
