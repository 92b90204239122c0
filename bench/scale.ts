// Benchmark 3, scale: N transactions (10,000 by default) followed at once, then handed to one worker
// process, and the same again with three worker processes. Production schedule and Slack pace, a
// simulator on a real clock. Two workloads:
// - spread: every transaction finishes at a time spread evenly over the first `finishWithinS` seconds
//   after the workers start, threads over 1,000 channels (Slack's per-channel pace is one post a second).
//   The schedule bounds this run: the last transaction to finish is next polled up to 12 s later, so more
//   workers cannot make it much shorter; it shows that they keep up.
// - backlog: every transaction has finished and its first poll is due when the workers start, one thread
//   per channel. Nothing waits on the schedule or Slack's pace, so the time is the workers' capacity and
//   the speed-up is what more worker processes buy on this machine.
//
// Workers run as `npm run worker` does, plain node on compiled JavaScript; one more run of the spread
// workload puts one worker under tsx, as results before issue 18 did, to show what the loader adds.
//
// Measured per run: wall time until every thread has its final reply, SCC reads (simulator request log),
// worker CPU per read (from /proc), worker resident memory (peak), Redis used_memory (INFO memory, before,
// with everything queued, and the peak sampled during the run), lateness of the replies, and replies
// delivered / lost (none by the deadline) / duplicated.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { ThreadRef } from '../src/dispatch/ports.js';
import { DEFAULT_SCHEDULE } from '../src/jobs/schedule.js';
import { createJobs } from '../src/jobs/workers.js';
import { normalisePrefix, QUEUE } from '../src/redis/keys.js';
import { cpuSeconds, pidOf, residentMemory } from './support/processes.js';
import { median, mib, num, percentile, ratio, seededRandom, type Table } from './support/stats.js';
import { silentLog, startWorkerProcess, stopWorkers } from './support/workers.js';
import {
  benchThread,
  plantTransaction,
  ReplyTally,
  SccRequestTally,
  startWorld,
  threadKey,
  type World,
} from './support/world.js';

export interface ScaleOptions {
  transactions: number;
  finishWithinS: number;
  /** Worker process counts to compare, e.g. [1, 3]. */
  workers: readonly number[];
  /** Upper bound on one run, seconds. */
  boundS: number;
  seed: number;
}

const SPREAD_CHANNELS = 1_000;
/** Issue 18: one worker holds 10,000 followed transactions within this resident memory. */
const RSS_TARGET_MIB = 250;

/** A workload: when each transaction finishes (ms after the workers start), and where its thread is. */
interface Workload {
  name: 'spread' | 'backlog';
  offsets: readonly number[];
  channels: number;
  /** Start the workers only once every transaction's first poll is due. */
  allDue: boolean;
}

interface ScaleRun {
  /** The workload's name, and how the workers ran when not as production does. */
  workload: string;
  workers: number;
  seconds: number;
  reads: number;
  cpuSeconds: number;
  peakRss: number;
  redisBefore: number;
  redisQueued: number;
  redisPeak: number;
  lateness: number[];
  delivered: number;
  lost: number;
  duplicated: number;
  followSeconds: number;
  /** CPU seconds of this process (simulator, fake Slack) and of redis-server during the run. */
  hostCpu: number;
  redisCpu: number;
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
}

async function runScale(
  world: World,
  count: number,
  workload: Workload,
  options: ScaleOptions,
  /** Workers under tsx, as the results before issue 18 measured them, instead of compiled. */
  tsx = false,
): Promise<ScaleRun> {
  const { offsets } = workload;
  const prefix = `bench-scale-${workload.name}-${count}${tsx ? '-tsx' : ''}`;
  const admin = new Redis(world.redis.url);
  const track = new Queue(QUEUE.track, {
    connection: { url: world.redis.url },
    prefix: normalisePrefix(prefix),
  });
  const jobs = createJobs({ redisUrl: world.redis.url, prefix, logger: silentLog });
  const replies = new ReplyTally(world.slack);
  const threads: ThreadRef[] = [];
  const finishes: number[] = [];
  let start = Number.POSITIVE_INFINITY;
  const children: ChildProcess[] = [];
  try {
    const redisBefore = await usedMemory(admin);
    const followStarted = Date.now();
    for (const [index, offset] of offsets.entries()) {
      // Threads of their own per run: the reply tally reads every post the fake Slack has had.
      const run = (workload.name === 'backlog' ? 10 : 0) + (tsx ? 20 : 0) + count;
      const thread = benchThread(run * 1_000_000 + index, workload.channels);
      // Finishes `offset` ms after the workers start: decided later, read when SCC is asked.
      const uid = plantTransaction(world.sim, () => start + offset);
      threads.push(thread);
      finishes.push(offset);
      await jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'scale' }, thread);
    }
    const followSeconds = (Date.now() - followStarted) / 1000;
    // The last transaction followed is first polled this long after it was followed.
    if (workload.allDue) await sleep(DEFAULT_SCHEDULE.poll.transaction.firstDelayMs + 500);
    const redisQueued = await usedMemory(admin);
    const scc = new SccRequestTally(world.sim).start(100);
    // Paused while the worker processes start, so that the first one up does not run ahead of the
    // others, and before the clock of the run starts.
    await track.pause();
    children.push(
      ...(await Promise.all(
        Array.from({ length: count }, () =>
          startWorkerProcess(world, { prefix, schedule: {}, compiled: !tsx }),
        ),
      )),
    );
    const pids = children.map(pidOf);
    const cpuBefore = pids.map(cpuSeconds);
    const redisPid = Number(/process_id:(\d+)/.exec(await admin.info('server'))?.[1]);
    const hostBefore = cpuSeconds(process.pid);
    const redisCpuBefore = cpuSeconds(redisPid);
    start = world.sim.clock.now();
    const startedReal = Date.now();
    await track.resume();
    let redisPeak = redisQueued;
    const sampler = setInterval(() => {
      usedMemory(admin)
        .then((bytes) => {
          redisPeak = Math.max(redisPeak, bytes);
        })
        .catch(() => undefined);
    }, 500);
    await replies.until(
      threads,
      startedReal + options.boundS * 1000,
      100,
      `scale (${workload.name}${tsx ? ', tsx' : ''}), ${count} worker(s)`,
    );
    const seconds = (Date.now() - startedReal) / 1000;
    clearInterval(sampler);
    scc.stop();
    const cpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - (cpuBefore[i] ?? 0), 0);
    const hostCpu = cpuSeconds(process.pid) - hostBefore;
    const redisCpu = cpuSeconds(redisPid) - redisCpuBefore;
    const peakRss = Math.max(...pids.map((pid) => residentMemory(pid).peak));
    // Real and simulated time are the same here (speed 1, started now).
    const lateness: number[] = [];
    for (const [i, thread] of threads.entries()) {
      const at = replies.replies.get(threadKey(thread.channelId, thread.threadTs))?.[0];
      if (at !== undefined) lateness.push((at - (startedReal + (finishes[i] ?? 0))) / 1000);
    }
    const reads = [...scc.byPath.entries()]
      .filter(([path]) => path.startsWith('/v1/transactions/'))
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      workload: `${workload.name}${tsx ? ' (tsx)' : ''}`,
      workers: count,
      seconds,
      reads,
      cpuSeconds: cpu,
      peakRss,
      redisBefore,
      redisQueued,
      redisPeak,
      lateness,
      followSeconds,
      hostCpu,
      redisCpu,
      ...replies.account(threads),
    };
  } finally {
    await stopWorkers(children);
    await jobs.close();
    await track.close();
    await admin.quit();
  }
}

export async function benchScale(options: ScaleOptions): Promise<Table> {
  const random = seededRandom(options.seed);
  const workloads: Workload[] = [
    {
      name: 'spread',
      offsets: Array.from({ length: options.transactions }, () =>
        Math.round(1000 * options.finishWithinS * random()),
      ),
      channels: SPREAD_CHANNELS,
      allDue: false,
    },
    {
      name: 'backlog',
      offsets: Array.from({ length: options.transactions }, () => 0),
      channels: options.transactions,
      allDue: true,
    },
  ];
  const world = await startWorld({ sim: { clock: 'real', speed: 1 } });
  const runs: ScaleRun[] = [];
  try {
    for (const workload of workloads)
      for (const count of options.workers) runs.push(await runScale(world, count, workload, options));
    // One worker under tsx, as earlier results measured it: what the loader adds to resident memory.
    const spread = workloads[0];
    if (spread) runs.push(await runScale(world, 1, spread, options, true));
  } finally {
    await world.stop();
  }
  // Each run against the one-worker run of its workload.
  const baseline = (run: ScaleRun) => runs.find((other) => other.workload === run.workload);
  return {
    title: `Scale: ${num(options.transactions)} transactions followed at once`,
    notes: [
      `Production schedule and Slack pace; each run bounded to ${options.boundS} s. Simulator, fake Slack and this process share the machine with the workers and Redis. Two workloads. Spread: transactions finish evenly over the first ${options.finishWithinS} s after the workers start, threads over ${num(SPREAD_CHANNELS)} channels; the schedule bounds its time (the last to finish is next polled up to ${DEFAULT_SCHEDULE.poll.transaction.capMs / 1000} s later, so no number of workers ends it much before ${options.finishWithinS + DEFAULT_SCHEDULE.poll.transaction.capMs / 1000} s), and it shows whether the workers keep up. Backlog: every transaction has finished and its first poll is due when the workers start, one thread per channel: nothing waits on the schedule or Slack's pace, so its time is the workers' capacity and its speed-up what more worker processes buy on this machine.`,
      `Worker processes run as \`npm run worker\` does: plain node on compiled JavaScript (the same sources, bundled by esbuild); the last row runs one under tsx, as results before issue 18 did (its loader thread adds resident memory a production worker does not have). Target for one worker holding ${num(options.transactions)} followed transactions: ${RSS_TARGET_MIB} MiB RSS.`,
      'Time: from the workers starting to the last final reply. CPU per read: worker CPU time (all processes) over SCC reads. Lateness: final reply after the transaction finished. Redis: used_memory before the run (earlier runs’ retained outcomes included), added by queueing every job, and the sampled peak (every 0.5 s) over before. CPU seconds during the run: all worker processes, redis-server, and the process holding the simulator and fake Slack; cores busy: their sum over the run time (the machine has 2 cores). Worker processes start with the queue paused, and the run is timed from when it resumes.',
    ],
    headers: [
      'workload',
      'workers',
      'time s',
      'speed-up',
      'SCC reads',
      'reads/s',
      'CPU ms/read',
      `worker RSS peak MiB (target ${RSS_TARGET_MIB})`,
      'Redis MiB before / +queued / +peak',
      'CPU s workers / Redis / sim+Slack',
      'cores busy',
      'lateness p50 / p95 s',
      'delivered / lost / dup',
      'follow s',
    ],
    rows: runs.map((run) => [
      run.workload,
      String(run.workers),
      num(run.seconds, 1),
      num(ratio(baseline(run)?.seconds ?? Number.NaN, run.seconds), 2),
      num(run.reads),
      num(run.reads / run.seconds),
      num((1000 * run.cpuSeconds) / run.reads, 2),
      mib(run.peakRss),
      `${mib(run.redisBefore)} / +${mib(run.redisQueued - run.redisBefore)} / +${mib(run.redisPeak - run.redisBefore)}`,
      `${num(run.cpuSeconds, 1)} / ${num(run.redisCpu, 1)} / ${num(run.hostCpu, 1)}`,
      num((run.cpuSeconds + run.redisCpu + run.hostCpu) / run.seconds, 2),
      `${num(median(run.lateness), 1)} / ${num(percentile(run.lateness, 95), 1)}`,
      `${num(run.delivered)} / ${num(run.lost)} / ${num(run.duplicated)}`,
      num(run.followSeconds, 1),
    ]),
  };
}
