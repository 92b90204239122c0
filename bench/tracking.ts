// Benchmark 2, tracking efficiency, on two workloads. Uniform: a thousand transactions finishing at
// log-uniformly spread simulated times between 1 s and 10 min, all followed at once. Mixed (issue 18): a
// thousand transactions of the kinds SCC runs, each with the duration the simulator gives its type
// (bench/support/mixedWorkload.ts), arriving one after another. In each, fwbot's schedule and naive
// fixed-interval pollers follow the same transactions at the same time on the same simulator, Redis and
// fake Slack; fwbot learning (src/jobs/learning.ts) starts from a history of earlier transactions of the
// same workload. The simulator's work runs `speed` times faster than SCC's and every schedule is
// compressed by the same factor, so the figures read in simulated (production) time. The naive pollers run
// through fwbot's own queue and notifier with a fixed delay (factor 1): only the schedule differs. Each
// variant has its own worker process and key prefix.
//
// Measured per variant: delay from the moment a transaction finished to its final reply in the thread
// (median, p95, max, in simulated seconds), SCC reads per transaction (from the simulator's request
// log), and replies delivered / lost / duplicated.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { ThreadRef } from '../src/dispatch/ports.js';
import { learnedPollTimes, nextPollDelayMs, readsFor } from '../src/jobs/learning.js';
import { DurationHistory } from '../src/jobs/learningStore.js';
import {
  DEFAULT_SCHEDULE,
  type PollSchedule,
  pollDelayMs,
  resolveSchedule,
  type ScheduleOverrides,
} from '../src/jobs/schedule.js';
import { createJobs, type Jobs } from '../src/jobs/workers.js';
import { normalisePrefix, RedisKeys } from '../src/redis/keys.js';
import type { TransactionRecord } from '../src/simulator/state/model.js';
import { fixedPollerFigures, mixedReadsBound } from './support/mixedBound.js';
import { describeWorkTypes, drawWork, type Work } from './support/mixedWorkload.js';
import { type PollingFigures, pollingFigures, pollTimes, readsBoundForP95 } from './support/pollingBound.js';
import { mean, median, num, percentile, seededRandom, type Table } from './support/stats.js';
import { compressedSchedule, silentLog, startWorkerProcess, stopWorkers } from './support/workers.js';
import {
  benchThread,
  plantTransaction,
  ReplyTally,
  SccRequestTally,
  startWorld,
  threadKey,
  type World,
} from './support/world.js';

export interface TrackingOptions {
  /** The uniform workload. */
  transactions: number;
  /** How many times faster than SCC's the simulator's work goes. */
  speed: number;
  /** Fixed intervals of the naive pollers, simulated seconds. */
  naiveIntervalsS: readonly number[];
  mixed?: MixedOptions;
  seed: number;
}

export interface MixedOptions {
  transactions: number;
  speed: number;
  /** The transactions arrive evenly over this many simulated seconds. */
  arrivalS: number;
  naiveIntervalsS: readonly number[];
  /** Earlier transactions of the same workload whose durations the learning workers start with. */
  history: number;
  /** Read budgets of the learning variants (1: no more reads than the schedule alone). */
  readBudgets: readonly number[];
}

interface VariantSpec {
  name: string;
  schedule: ScheduleOverrides;
  /** Learned durations to start with, per transaction type, oldest first (production ms). */
  history?: readonly Work[];
}

interface Variant extends VariantSpec {
  jobs?: Jobs;
  worker?: ChildProcess;
  /** transaction uid → its thread, completion (sim ms) */
  followed: { uid: string; thread: ThreadRef; finishAt: number }[];
}

/** One transaction to follow: its type, duration and when it arrives (production ms after the start). */
interface Planned extends Work {
  arriveAtMs: number;
}

const MIN_S = 1;
const MAX_S = 600;
const CHANNELS = 100;

/** "3 s ×2 → 12 s, 60 s after 10 min": a poll schedule as people read it. */
function describePoll(poll: PollSchedule): string {
  const s = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);
  const late =
    poll.lateAfterMs === undefined || poll.lateCapMs === undefined
      ? ''
      : `, ${s(poll.lateCapMs)} after ${s(poll.lateAfterMs)}`;
  return `${s(poll.firstDelayMs)} ×${poll.factor} → ${s(poll.capMs)}${late}`;
}

/**
 * The same schedules computed exactly for this workload (polling alone, no overhead), and the fewest reads
 * any schedule needs to match the 10 s poller's p95: what the measured table can be held against.
 */
function pollingNote(naiveIntervalsS: readonly number[]): string {
  const workload = { minS: MIN_S, maxS: MAX_S };
  const poll = DEFAULT_SCHEDULE.poll.transaction;
  const fwbot = pollingFigures(workload, pollTimes(poll, MAX_S));
  const figures = (f: PollingFigures) =>
    `${num(f.reads, 1)} reads, p50 ${num(f.p50, 1)} s, mean ${num(f.mean, 1)} s, p95 ${num(f.p95, 1)} s`;
  const reference = naiveIntervalsS.includes(10) ? 10 : (naiveIntervalsS[0] ?? 10);
  const every = reference * 1000;
  const naive = pollingFigures(
    workload,
    pollTimes({ firstDelayMs: every, factor: 1, capMs: every, deadlineMs: poll.deadlineMs }, MAX_S),
  );
  const bound = readsBoundForP95(workload, naive.p95);
  return (
    `Polling alone, computed exactly for this workload (bench/support/pollingBound.ts): fwbot ${figures(fwbot)}; naive every ${reference} s ${figures(naive)}. ` +
    `No schedule keeps p95 at or below the ${reference} s poller's ${num(naive.p95, 1)} s with fewer than ${num(bound.atLeast, 2)} reads per transaction (a dynamic programme over every poll schedule on a 0.5 s grid); ` +
    `the schedule that attains ${num(bound.attained.reads, 2)} (${figures(bound.attained)}) has a median gap between polls of ${num(median(gapsOf(bound.attained.times)), 1)} s and a longest of ${num(Math.max(...gapsOf(bound.attained.times)), 0)} s: fitted to this distribution, not a schedule for real work.`
  );
}

function gapsOf(times: readonly number[]): number[] {
  return times.slice(1).map((at, i) => at - (times[i] ?? 0));
}

/** The production schedule of transactions, with learning on (at `readBudget`) or off. */
function baseSchedule(learning: { enabled: boolean; readBudget?: number }) {
  const { poll, slack, transientBaseMs, transientCapMs } = DEFAULT_SCHEDULE;
  const { minGapMs, refreshMs } = DEFAULT_SCHEDULE.learning;
  return {
    poll: poll.transaction,
    slack,
    transientBaseMs,
    transientCapMs,
    learning: { ...learning, minGapMs, refreshMs },
  };
}

function naiveSchedule(seconds: number, speed: number): ScheduleOverrides {
  const base = baseSchedule({ enabled: false });
  return compressedSchedule(
    {
      ...base,
      poll: {
        ...base.poll,
        firstDelayMs: seconds * 1000,
        factor: 1,
        capMs: seconds * 1000,
        lateAfterMs: undefined,
        lateCapMs: undefined,
      },
    },
    speed,
  );
}

const learningName = (budget: number) =>
  budget === 1 ? 'fwbot learning' : `fwbot learning, read budget ×${budget}`;

/**
 * Follows `planned` with every variant side by side, each in its own worker process on its own prefix,
 * and returns the table rows: reads per transaction, delays, replies.
 */
async function runVariants(
  label: string,
  speed: number,
  planned: readonly Planned[],
  specs: readonly VariantSpec[],
): Promise<string[][]> {
  const world = await startWorld({ sim: { clock: 'real', speed } });
  const variants: Variant[] = specs.map((spec) => ({ ...spec, followed: [] }));
  const scc = new SccRequestTally(world.sim).start(100);
  const replies = new ReplyTally(world.slack);
  try {
    for (const [i, variant] of variants.entries()) {
      const prefix = `bench-${label}-${i}`;
      if (variant.history) await learnBeforehand(world, prefix, variant.history);
      variant.worker = await startWorkerProcess(world, { prefix, schedule: variant.schedule });
      variant.jobs = createJobs({
        redisUrl: world.redis.url,
        prefix,
        schedule: variant.schedule,
        logger: silentLog,
      });
    }
    // Each transaction is planted the moment it is followed, so every variant sees the same durations.
    const followStarted = Date.now();
    for (const [index, work] of planned.entries()) {
      const wait = followStarted + work.arriveAtMs / speed - Date.now();
      if (wait > 0) await sleep(wait);
      for (const [v, variant] of variants.entries()) {
        const thread = benchThread(index * variants.length + v, CHANNELS);
        const finishAt = world.sim.clock.now() + world.sim.clock.span(work.durationMs);
        const uid = plantTransaction(world.sim, finishAt, work.type as TransactionRecord['type']);
        variant.followed.push({ uid, thread, finishAt });
        await variant.jobs?.tracker.follow(
          { kind: 'transaction', transactionUid: uid, label: 'bench' },
          thread,
        );
      }
    }
    const threads = variants.flatMap((variant) => variant.followed.map((f) => f.thread));
    const longest = Math.max(...planned.map((work) => work.durationMs));
    const deadline = Date.now() + (longest + 2 * 60_000) / speed + 60_000;
    console.log(
      `  [${label}] ${threads.length} followed in ${((Date.now() - followStarted) / 1000).toFixed(1)} s; the longest takes ${(longest / speed / 1000).toFixed(0)} s`,
    );
    await replies.until(threads, deadline, 200, label);
    scc.stop();
    // The simulator's clock is the wall clock (its work `speed` times shorter), read together with Date.now.
    const refReal = Date.now();
    const refSim = world.sim.clock.now();
    const realAt = (simMs: number) => refReal + (simMs - refSim);

    return variants.map((variant) => {
      const delays: number[] = [];
      const delivery: number[] = [];
      const polls: number[] = [];
      for (const { uid, thread, finishAt } of variant.followed) {
        const path = `/v1/transactions/${uid}`;
        polls.push(scc.byPath.get(path) ?? 0);
        const at = replies.replies.get(threadKey(thread.channelId, thread.threadTs))?.[0];
        if (at === undefined) continue;
        delays.push(((at - realAt(finishAt)) * speed) / 1000);
        const seen = scc.lastOk.get(path);
        if (seen !== undefined) delivery.push(at - seen);
      }
      const account = replies.account(variant.followed.map((f) => f.thread));
      return [
        variant.name,
        num(mean(polls), 1),
        num(polls.reduce((a, b) => a + b, 0)),
        num(median(delays), 1),
        num(mean(delays), 1),
        num(percentile(delays, 95), 1),
        num(Math.max(...delays), 1),
        num(median(delivery), 0),
        `${account.delivered} / ${account.lost} / ${account.duplicated}`,
      ];
    });
  } finally {
    scc.stop();
    await Promise.all(variants.map((variant) => variant.jobs?.close()));
    await stopWorkers(variants.flatMap((variant) => (variant.worker ? [variant.worker] : [])));
    await world.stop();
  }
}

/**
 * The warm-up: the durations of earlier transactions recorded in a learning variant's store, as its
 * workers record a transaction they followed to DONE (by SCC's own timestamps, so the simulator's span).
 */
async function learnBeforehand(world: World, prefix: string, history: readonly Work[]) {
  const redis = new Redis(world.redis.url);
  try {
    const store = new DurationHistory(
      redis,
      new RedisKeys(normalisePrefix(prefix)),
      DEFAULT_SCHEDULE.learning,
    );
    for (const work of history)
      await store.record('default', work.type, world.sim.clock.span(work.durationMs));
  } finally {
    await redis.quit();
  }
}

const HEADERS = [
  'schedule',
  'SCC reads / tx',
  'SCC reads',
  'delay p50 s',
  'delay mean s',
  'delay p95 s',
  'delay max s',
  'poll→reply p50 ms (real)',
  'delivered / lost / dup',
] as const;

const UNIFORM_TYPE = 'MSP_ENABLE_MULTICLOUD_DEFENSE';

function logUniform(count: number, random: () => number): Work[] {
  // As many transactions finish within the first 10 s as between 1 and 10 min.
  return Array.from({ length: count }, () => ({
    type: UNIFORM_TYPE,
    durationMs: Math.round(1000 * MIN_S * (MAX_S / MIN_S) ** random()),
  }));
}

async function uniformTable(options: TrackingOptions, random: () => number): Promise<Table> {
  const { speed } = options;
  const planned = logUniform(options.transactions, random).map((work) => ({ ...work, arriveAtMs: 0 }));
  const history = logUniform(DEFAULT_SCHEDULE.learning.keep, random);
  const specs: VariantSpec[] = [
    {
      name: `${learningName(1)} (from ${history.length} earlier durations)`,
      schedule: compressedSchedule(baseSchedule({ enabled: true }), speed),
      history,
    },
    {
      name: `fwbot's schedule (${describePoll(DEFAULT_SCHEDULE.poll.transaction)})`,
      schedule: compressedSchedule(baseSchedule({ enabled: false }), speed),
    },
    ...options.naiveIntervalsS.map((seconds) => ({
      name: `naive, every ${seconds} s`,
      schedule: naiveSchedule(seconds, speed),
    })),
  ];
  const rows = await runVariants('uniform', speed, planned, specs);
  return {
    title: `Tracking efficiency, uniform: ${options.transactions} transactions finishing between ${MIN_S} s and ${MAX_S / 60} min`,
    notes: [
      `Side by side in one run, each variant in its own worker process on its own prefix; the simulator's work ${speed}× faster than SCC's and every schedule compressed ${speed}×, so figures are in simulated (production) seconds. Real overheads are magnified ${speed}× too. All transactions are followed at once.`,
      'Delay: from the instant the transaction became DONE to the final reply in its thread. SCC reads: GET /v1/transactions/{uid} per transaction, from the simulator request log.',
      uniformLearningNote(history),
      pollingNote(options.naiveIntervalsS),
      capBoundLine(planned, options.naiveIntervalsS),
    ],
    headers: HEADERS,
    rows,
  };
}

/** What learning does with the uniform workload's history, from the planner itself. */
function uniformLearningNote(history: readonly Work[]): string {
  const newest = history.map((work) => work.durationMs).reverse();
  const plan = learnedPollTimes(newest, DEFAULT_SCHEDULE.poll.transaction, DEFAULT_SCHEDULE.learning);
  const verdict =
    plan === undefined
      ? 'on them the best plan its read budget allows is not clearly better than the schedule alone (it must cut the mean delay by a fifth and not raise the 95th percentile), so learning keeps the schedule alone'
      : `on them it plans ${plan.length} polls up to ${num((plan.at(-1) ?? 0) / 1000, 0)} s`;
  return `fwbot learning starts from the durations of ${history.length} earlier transactions of the same distribution (one type, so one history); there is nothing to learn here but the distribution itself: ${verdict}. During the run the short transactions end first and become the newest durations, but the long ones are seen still running past them, and while more than 5 % of the evidence is such, what was learned is contradicted and the schedule alone decides (src/jobs/learning.ts, contradicted); a transaction still running past a plan is read when the schedule alone would read it.`;
}

/** Reads and delays of polling alone (no overhead) for `work`, each transaction's delays from `next`. */
function computed(work: readonly Work[], next: (work: Work) => (step: number, at: number) => number) {
  const reads: number[] = [];
  const delays: number[] = [];
  for (const item of work) {
    const delay = next(item);
    reads.push(readsFor(item.durationMs, delay));
    let at = 0;
    for (let step = 1; at < item.durationMs; step += 1) at += Math.max(1, delay(step, at));
    delays.push((at - item.durationMs) / 1000);
  }
  return `${num(mean(reads), 1)} reads, p50 ${num(median(delays), 1)} s, p95 ${num(percentile(delays, 95), 1)} s`;
}

/** Per type, the newest `keep` durations of `history`, newest first: what a store holds after it. */
function newestFirst(history: readonly Work[]): Map<string, number[]> {
  const byType = new Map<string, number[]>();
  for (const work of history) byType.set(work.type, [work.durationMs, ...(byType.get(work.type) ?? [])]);
  for (const [type, list] of byType) byType.set(type, list.slice(0, DEFAULT_SCHEDULE.learning.keep));
  return byType;
}

/**
 * The fewest SCC reads per transaction of any schedule that never leaves a gap longer than fwbot's cap,
 * even one that knew each duration in advance: the first read at 0, then a read at least every cap
 * (the late cap from lateAfterMs on) until one sees the work ended. The cap never shrinks as time goes
 * on, so stepping the whole cap each time reaches furthest with each read (by induction on the reads)
 * and is the minimum for every transaction; for work of d ending before lateAfterMs it is 1 + ⌈d / cap⌉.
 * Computed twice, by stepping and by that closed form, and the two must agree.
 */
export function fewestCappedReads(work: readonly Work[], poll: PollSchedule): number {
  const late = poll.lateAfterMs ?? Number.POSITIVE_INFINITY;
  const lateCap = poll.lateCapMs ?? poll.capMs;
  const capAt = (at: number) => (at >= late ? lateCap : poll.capMs);
  const stepped = work.map((item) => readsFor(item.durationMs, (_step, at) => capAt(at)));
  const early = Math.ceil(Math.min(late, 1e15) / poll.capMs) * poll.capMs;
  const closed = work.map(({ durationMs: d }) =>
    d <= early ? 1 + Math.ceil(d / poll.capMs) : 1 + early / poll.capMs + Math.ceil((d - early) / lateCap),
  );
  const disagree = stepped.findIndex((reads, i) => reads !== closed[i]);
  if (disagree >= 0)
    throw new Error(
      `lower bound: ${stepped[disagree]} reads stepped, ${closed[disagree]} closed form, for ${work[disagree]?.durationMs} ms`,
    );
  return mean(stepped);
}

/** The cap as the notes say it, and where it comes from. */
function describeCap(poll: PollSchedule): string {
  const late =
    poll.lateAfterMs === undefined
      ? ''
      : `, ${(poll.lateCapMs ?? poll.capMs) / 1000} s once ${poll.lateAfterMs / 60_000} min have passed (lateCapMs, lateAfterMs)`;
  return `${poll.capMs / 1000} s (capMs${late}: DEFAULT_SCHEDULE.poll.transaction in src/jobs/schedule.ts)`;
}

/**
 * The lower-bound line of a workload's notes (printed as it is computed), with the reads of the fixed
 * pollers on the same durations, which ignore the cap.
 */
function capBoundLine(work: readonly Work[], naiveIntervalsS: readonly number[]): string {
  const poll = DEFAULT_SCHEDULE.poll.transaction;
  const bound = fewestCappedReads(work, poll);
  console.log(`  lower bound under the cap: ${num(bound, 2)} reads per transaction`);
  const fixed = naiveIntervalsS.map((seconds) => ({
    seconds,
    reads: mean(work.map((item) => readsFor(item.durationMs, () => seconds * 1000))),
  }));
  const pollers = fixed.map(({ seconds, reads }) => `every ${seconds} s ${num(reads, 2)}`).join(', ');
  const beyond = fixed.filter(({ reads }) => reads < bound).map(({ seconds }) => `${seconds} s`);
  const verdict =
    beyond.length === 0
      ? 'The bound is below every fixed poller here.'
      : `So no schedule that keeps to the cap, as the issue requires, whatever it learns, reads as rarely as the ${beyond.join(' and ')} poller${beyond.length > 1 ? 's' : ''} here.`;
  const late =
    poll.lateAfterMs === undefined ? '' : ` for a duration d up to ${poll.lateAfterMs / 60_000} min`;
  return `Lower bound under the cap: ${num(bound, 2)} SCC reads per transaction. No schedule that never leaves a gap longer than fwbot's cap, ${describeCap(poll)}, reads these ${work.length} transactions fewer times, even one that knew every duration in advance: each needs its first read at 0 and then one at least every cap until the one that sees it ended, 1 + ⌈d / ${poll.capMs / 1000} s⌉${late} (the mean over the workload of that minimum, computed by stepping the cap and by the closed form, which agree). The fixed pollers, which ignore the cap, on the same durations: ${pollers} reads per transaction. ${verdict}`;
}

/**
 * Whether any tracker at all, cap or no cap, could be below the fastest fixed poller's delays and the
 * slowest one's reads at once on the mixed workload's own model (bench/support/mixedBound.ts), printed as
 * it is computed.
 */
function outOfReachLine(naiveIntervalsS: readonly number[]): string {
  const [fastest, slowest] = [Math.min(...naiveIntervalsS), Math.max(...naiveIntervalsS)];
  const [fast, slow] = [fixedPollerFigures(fastest), fixedPollerFigures(slowest)];
  const gridS = 0.025;
  const bound = mixedReadsBound({ p50S: fast.p50, p95S: fast.p95 }, { gridS });
  console.log(
    `  fewest reads of any tracker with the ${fastest} s poller's delays: ${num(bound.atLeast, 2)} (the ${slowest} s poller: ${num(slow.reads, 2)})`,
  );
  const verdict =
    bound.atLeast > slow.reads
      ? `So no tracker is below the ${fastest} s poller's delays and the ${slowest} s poller's reads at once on this workload: the target of issue 18 is out of reach whatever is learned, and lifting the cap would not bring it within reach.`
      : `This bound does not rule out a tracker below the ${fastest} s poller's delays and the ${slowest} s poller's reads at once.`;
  return `Without the cap, on the model itself (polling alone, exact, no overhead): every ${fastest} s, p50 ${num(fast.p50, 2)} s, p95 ${num(fast.p95, 2)} s, ${num(fast.reads, 2)} reads per transaction; every ${slowest} s, ${num(slow.reads, 2)} reads. No tracker whose p50 and p95 are at most the ${fastest} s poller's makes fewer than ${num(bound.atLeast, 2)} reads per transaction, even one told each transaction's type and that type's exact duration distribution, with no cap (a Lagrangian bound: late transactions priced at ${num(bound.lambda95, 1)} reads past p95 and ${num(bound.lambda50, 2)} past p50, every poll schedule of each type solved exactly on a ${gridS * 1000} ms grid with every poll and gap rounded in the tracker's favour; bench/support/mixedBound.ts). ${verdict}`;
}

function mixedNotes(mixed: MixedOptions, work: readonly Work[], history: readonly Work[]): string[] {
  const poll = DEFAULT_SCHEDULE.poll.transaction;
  const learned = newestFirst(history);
  const learning = (readBudget: number) => {
    const learn = resolveSchedule({ learning: { readBudget } }).learning;
    const plans = new Map([...learned].map(([type, list]) => [type, learnedPollTimes(list, poll, learn)]));
    return computed(
      work,
      (item) => (step, at) =>
        nextPollDelayMs({ poll, learn, step, elapsedMs: at, plan: plans.get(item.type) }),
    );
  };
  const fixed = (seconds: number) => computed(work, () => () => seconds * 1000);
  const budgets = [...new Set([...mixed.readBudgets, 1, 1.5, 2, 3])].sort((a, b) => a - b);
  return [
    `Side by side in one run, each variant in its own worker process on its own prefix; the simulator's work ${mixed.speed}× faster than SCC's and every schedule compressed ${mixed.speed}×, so figures are in simulated (production) seconds; real overheads are magnified ${mixed.speed}× too. The transactions arrive evenly over ${mixed.arrivalS / 60} simulated minutes.`,
    `Work types, with the simulator's own durations (pending + running, uniform where it draws one): ${describeWorkTypes()}.`,
    `Warm-up: before the run, each learning variant's store holds the durations of ${history.length} earlier transactions drawn from the same models (recorded through DurationHistory.record as a worker records a transaction it followed to DONE; the newest ${DEFAULT_SCHEDULE.learning.keep} per type are kept). The learning goes on during the run.`,
    `Polling alone on these ${work.length} durations, computed with the planner itself (no Redis, worker or Slack overhead): ${budgets.map((b) => `${learningName(b)} ${learning(b)}`).join('; ')}; fwbot's schedule ${computed(work, () => (step, at) => pollDelayMs(poll, step, undefined, at))}; ${mixed.naiveIntervalsS.map((s) => `every ${s} s ${fixed(s)}`).join('; ')}.`,
    capBoundLine(work, mixed.naiveIntervalsS),
    outOfReachLine(mixed.naiveIntervalsS),
  ];
}

async function mixedTable(mixed: MixedOptions, seed: number): Promise<Table> {
  const random = seededRandom(seed);
  const history = drawWork(mixed.history, random);
  const work = drawWork(mixed.transactions, random);
  const planned = work.map((item, i) => ({ ...item, arriveAtMs: (1000 * mixed.arrivalS * i) / work.length }));
  const { speed } = mixed;
  const specs: VariantSpec[] = [
    ...mixed.readBudgets.map((readBudget) => ({
      name: learningName(readBudget),
      schedule: compressedSchedule(baseSchedule({ enabled: true, readBudget }), speed),
      history,
    })),
    {
      name: `fwbot's schedule (${describePoll(DEFAULT_SCHEDULE.poll.transaction)})`,
      schedule: compressedSchedule(baseSchedule({ enabled: false }), speed),
    },
    ...mixed.naiveIntervalsS.map((seconds) => ({
      name: `naive, every ${seconds} s`,
      schedule: naiveSchedule(seconds, speed),
    })),
  ];
  const rows = await runVariants('mixed', speed, planned, specs);
  return {
    title: `Tracking efficiency, mixed: ${mixed.transactions} transactions of ${new Set(work.map((w) => w.type)).size} kinds, after a warm-up of ${mixed.history}`,
    notes: [
      ...mixedNotes(mixed, work, history),
      'Delay: from the instant the transaction became DONE to the final reply in its thread. SCC reads: GET /v1/transactions/{uid} per transaction, from the simulator request log.',
    ],
    headers: HEADERS,
    rows,
  };
}

export async function benchTracking(options: TrackingOptions): Promise<Table[]> {
  const tables = [await uniformTable(options, seededRandom(options.seed))];
  if (options.mixed) tables.push(await mixedTable(options.mixed, options.seed + 1));
  return tables;
}
