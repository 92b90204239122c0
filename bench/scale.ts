// Benchmark 3, scale: N transactions (10,000 by default) followed at once, then handed to one worker
// process, and the same again with three worker processes. Production schedule and Slack pace, a
// simulator on a real clock; every transaction finishes at a time spread evenly over the first
// `finishWithinS` seconds after the workers start, so the run is as long as the workers need to keep up.
// Threads are spread over 1,000 channels (Slack's per-channel pace is one post a second).
//
// Measured per run: wall time until every thread has its final reply, SCC reads (simulator request log),
// worker CPU per read (from /proc), worker resident memory (peak), Redis used_memory (INFO memory, before,
// with everything queued, and the peak sampled during the run), lateness of the replies, and replies
// delivered / lost (none by the deadline) / duplicated.
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import type { ThreadRef } from '../src/app/ports.js';
import { createJobs } from '../src/jobs/workers.js';
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

const CHANNELS = 1_000;

interface ScaleRun {
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
  offsets: readonly number[],
  options: ScaleOptions,
): Promise<ScaleRun> {
  const prefix = `bench-scale-${count}`;
  const admin = new Redis(world.redis.url);
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
      const thread = benchThread(count * 1_000_000 + index, CHANNELS);
      // Finishes `offset` ms after the workers start: decided later, read when SCC is asked.
      const uid = plantTransaction(world.sim, () => start + offset);
      threads.push(thread);
      finishes.push(offset);
      await jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'scale' }, thread);
    }
    const followSeconds = (Date.now() - followStarted) / 1000;
    const redisQueued = await usedMemory(admin);
    const scc = new SccRequestTally(world.sim).start(100);
    for (let i = 0; i < count; i += 1)
      children.push(await startWorkerProcess(world, { prefix, schedule: {} }));
    const pids = children.map(pidOf);
    const cpuBefore = pids.map(cpuSeconds);
    const redisPid = Number(/process_id:(\d+)/.exec(await admin.info('server'))?.[1]);
    const hostBefore = cpuSeconds(process.pid);
    const redisCpuBefore = cpuSeconds(redisPid);
    start = world.sim.clock.now();
    const startedReal = Date.now();
    let redisPeak = redisQueued;
    const sampler = setInterval(() => {
      usedMemory(admin)
        .then((bytes) => {
          redisPeak = Math.max(redisPeak, bytes);
        })
        .catch(() => undefined);
    }, 500);
    await replies.until(threads, startedReal + options.boundS * 1000, 100, `scale, ${count} worker(s)`);
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
    await admin.quit();
  }
}

export async function benchScale(options: ScaleOptions): Promise<Table> {
  const random = seededRandom(options.seed);
  const offsets = Array.from({ length: options.transactions }, () =>
    Math.round(1000 * options.finishWithinS * random()),
  );
  const world = await startWorld({ sim: { clock: 'real', speed: 1 } });
  const runs: ScaleRun[] = [];
  try {
    for (const count of options.workers) runs.push(await runScale(world, count, offsets, options));
  } finally {
    await world.stop();
  }
  const first = runs[0];
  return {
    title: `Scale: ${num(options.transactions)} transactions followed at once`,
    notes: [
      `Production schedule and Slack pace; transactions finish evenly over the first ${options.finishWithinS} s after the workers start; threads over ${CHANNELS} channels; each run bounded to ${options.boundS} s. Simulator, fake Slack and this process share the machine with the workers and Redis.`,
      'Time: from the workers starting to the last final reply. CPU per read: worker CPU time (all processes) over SCC reads. Lateness: final reply after the transaction finished. Redis: used_memory before the run (earlier runs’ retained outcomes included), added by queueing every job, and the sampled peak (every 0.5 s) over before. CPU seconds during the run: all worker processes, redis-server, and the process holding the simulator and fake Slack; the machine has 2 cores.',
    ],
    headers: [
      'workers',
      'time s',
      'speed-up',
      'SCC reads',
      'reads/s',
      'CPU ms/read',
      'worker RSS peak MiB',
      'Redis MiB before / +queued / +peak',
      'CPU s workers / Redis / sim+Slack',
      'lateness p50 / p95 s',
      'delivered / lost / dup',
      'follow s',
    ],
    rows: runs.map((run) => [
      String(run.workers),
      num(run.seconds, 1),
      first ? num(ratio(first.seconds, run.seconds), 2) : 'n/a',
      num(run.reads),
      num(run.reads / run.seconds),
      num((1000 * run.cpuSeconds) / run.reads, 2),
      mib(run.peakRss),
      `${mib(run.redisBefore)} / +${mib(run.redisQueued - run.redisBefore)} / +${mib(run.redisPeak - run.redisBefore)}`,
      `${num(run.cpuSeconds, 1)} / ${num(run.redisCpu, 1)} / ${num(run.hostCpu, 1)}`,
      `${num(median(run.lateness), 1)} / ${num(percentile(run.lateness, 95), 1)}`,
      `${num(run.delivered)} / ${num(run.lost)} / ${num(run.duplicated)}`,
      num(run.followSeconds, 1),
    ]),
  };
}
