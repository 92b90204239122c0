// Worker processes on a key prefix of their own (test/support/workerProcess.ts), and the producer side
// (createJobs) that follows things for them: what a benchmark or drill starts, kills and restarts.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';
import { spawnTsx, stopChild, waitForLine } from './processes.js';
import type { World } from './world.js';

const WORKER_ENTRY = fileURLToPath(new URL('../../test/support/workerProcess.ts', import.meta.url));
const LUA_SOURCE = new URL('../../src/redis/lua/', import.meta.url);

export const silentLog = pino({ level: 'silent' });

export interface WorkerSpec {
  prefix: string;
  schedule: ScheduleOverrides;
  /** Pin to this CPU (taskset) when the machine allows it. */
  cpu?: number;
  /** Overrides the simulator as SCC (e.g. a proxy in front of it). */
  sccUrl?: string;
  redisUrl?: string;
  /**
   * Run the worker as production does, compiled JavaScript on plain node, instead of under tsx (whose
   * loader thread adds about 45 MB of resident memory a production worker does not have).
   */
  compiled?: boolean;
  /** More environment for the worker (e.g. REDIS_SENTINELS, which wins over REDIS_URL there). */
  env?: Record<string, string>;
}

let compiledEntry: string | undefined;

/** The worker entry bundled once into JavaScript (esbuild, the compiler under tsx), beside node_modules. */
export function compiledWorkerEntry(): string {
  if (compiledEntry) return compiledEntry;
  const out = fileURLToPath(
    new URL('../../node_modules/.cache/fwbot-bench/workerProcess.mjs', import.meta.url),
  );
  const esbuild = fileURLToPath(new URL('../../node_modules/.bin/esbuild', import.meta.url));
  const built = spawnSync(
    esbuild,
    [
      WORKER_ENTRY,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      '--target=node20',
      `--outfile=${out}`,
      '--log-level=warning',
    ],
    { stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error(`esbuild could not compile ${WORKER_ENTRY}`);
  // The Lua scripts are files src/redis/scripts.ts reads beside itself, and in the bundle "itself" is the
  // bundle: they go beside it, as `npm run build` copies them into dist/ (scripts/copy-lua.mjs).
  const lua = fileURLToPath(new URL('lua/', new URL(`file://${out}`)));
  rmSync(lua, { recursive: true, force: true });
  cpSync(fileURLToPath(LUA_SOURCE), lua, { recursive: true });
  compiledEntry = out;
  return out;
}

export async function startWorkerProcess(
  // Without the world's redis-server, spec.redisUrl or spec.env says where Redis is.
  world: Pick<World, 'sim' | 'slack'> & { redis?: { url: string } },
  spec: WorkerSpec,
): Promise<ChildProcess> {
  const entry = spec.compiled ? compiledWorkerEntry() : WORKER_ENTRY;
  const child = spawnTsx(entry, [], {
    tsx: spec.compiled !== true,
    env: {
      REDIS_URL: spec.redisUrl ?? world.redis?.url ?? '',
      PREFIX: spec.prefix,
      SIM_URL: spec.sccUrl ?? world.sim.url,
      SIM_TOKEN: world.sim.tokens.superAdmin,
      SLACK_API_URL: world.slack.apiUrl,
      SCHEDULE: JSON.stringify(spec.schedule),
      LOG_LEVEL: process.env.BENCH_WORKER_LOG ?? 'silent',
      ...spec.env,
    },
    ...(spec.cpu === undefined ? {} : { cpu: spec.cpu }),
  });
  await waitForLine(child, /ready/, 60_000);
  return child;
}

export async function stopWorkers(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child, 'SIGTERM', 10_000)));
}

/**
 * fwbot's default schedule with every duration divided by `speed`, for a simulator whose work runs
 * `speed` times faster than SCC's (its times stay the wall clock's): the same shape of polling,
 * compressed. Lock and stall timings stay
 * as they are (they are about processes, not about SCC).
 */
export function compressedSchedule(
  base: {
    poll: {
      firstDelayMs: number;
      factor: number;
      capMs: number;
      lateAfterMs?: number | undefined;
      lateCapMs?: number | undefined;
      deadlineMs: number;
    };
    slack: { postIntervalMs: number; updateIntervalMs: number; backoffMs: number };
    transientBaseMs: number;
    transientCapMs: number;
    learning?: { enabled: boolean; readBudget?: number; minGapMs: number; refreshMs: number };
  },
  speed: number,
): ScheduleOverrides {
  const d = (ms: number) => Math.max(1, Math.round(ms / speed));
  const { poll, slack } = base;
  // Always written, so a schedule without a late phase does not inherit the default's in the worker
  // process: the schedule reaches it as JSON, where an undefined field is dropped, so "none" is written as
  // a late phase that changes nothing (from the deadline on, the same cap).
  const late =
    poll.lateAfterMs === undefined || poll.lateCapMs === undefined
      ? { lateAfterMs: d(poll.deadlineMs), lateCapMs: d(poll.capMs) }
      : { lateAfterMs: d(poll.lateAfterMs), lateCapMs: d(poll.lateCapMs) };
  return {
    poll: {
      transaction: {
        firstDelayMs: d(poll.firstDelayMs),
        factor: poll.factor,
        capMs: d(poll.capMs),
        ...late,
        deadlineMs: d(poll.deadlineMs),
      },
    },
    slack: {
      postIntervalMs: d(slack.postIntervalMs),
      updateIntervalMs: d(slack.updateIntervalMs),
      backoffMs: d(slack.backoffMs),
    },
    transientBaseMs: d(base.transientBaseMs),
    transientCapMs: d(base.transientCapMs),
    // Learning is written out always (off unless asked), so a variant never inherits the default's.
    learning: base.learning
      ? {
          enabled: base.learning.enabled,
          ...(base.learning.readBudget === undefined ? {} : { readBudget: base.learning.readBudget }),
          minGapMs: d(base.learning.minGapMs),
          // How often a worker re-reads what is learned is about the process, not SCC: not compressed.
          refreshMs: base.learning.refreshMs,
        }
      : { enabled: false },
  };
}
