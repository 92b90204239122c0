// Drill: restart Redis (append-only persistence on) in the middle of a run. Workers and the producer
// reconnect by themselves; every followed transaction must still end in exactly one final reply.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJobs } from '../../src/jobs/workers.js';
import { startRedisServer } from '../../test/support/redisServer.js';
import { silentLog, startWorkerProcess, stopWorkers } from '../support/workers.js';
import { ReplyTally, startWorld } from '../support/world.js';
import { DRILL_SCHEDULE, type Drill, sleep, until } from './drill.js';
import { followMany } from './followMany.js';

const COUNT = 300;

export const redisRestartDrill: Drill = {
  name: 'redis-restart',
  summary: `restart Redis (append-only) mid-run with ${COUNT} transactions followed: all complete, once`,
  async run() {
    const dataDir = await mkdtemp(join(tmpdir(), 'fwbot-drill-redis-'));
    const world = await startWorld({
      sim: { clock: 'real', speed: 1 },
      redis: { dataDir, appendOnly: true },
    });
    const prefix = 'drill-redis';
    const jobs = createJobs({
      redisUrl: world.redis.url,
      prefix,
      schedule: DRILL_SCHEDULE,
      logger: silentLog,
    });
    const replies = new ReplyTally(world.slack);
    const did: string[] = [];
    let restarted: Awaited<ReturnType<typeof startRedisServer>> | undefined;
    let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
    try {
      const followed = await followMany(world, jobs, COUNT, { minMs: 500, maxMs: 6_000 });
      did.push(`followed ${COUNT} transactions finishing 0.5–6 s after the worker starts`);
      worker = await startWorkerProcess(world, { prefix, schedule: DRILL_SCHEDULE });
      followed.go();
      await until(() => replies.account(followed.threads).delivered >= 30, 30_000);
      const before = replies.account(followed.threads).delivered;
      await world.redis.stop();
      await sleep(1_000);
      restarted = await startRedisServer({ dataDir, appendOnly: true, port: world.redis.port });
      did.push(
        `stopped Redis after ${before} replies, restarted it 1 s later on the same port from its append-only file`,
      );
      const complete = await until(() => replies.account(followed.threads).lost === 0, 90_000, 100);
      const final = replies.account(followed.threads);
      did.push(
        `${final.delivered} of ${COUNT} threads got their final reply${complete ? '' : ' (bound of 90 s reached)'}`,
      );
      return { did, lost: final.lost, duplicated: final.duplicated, findings: [] };
    } finally {
      if (worker) await stopWorkers([worker]);
      await jobs.close();
      await world.stop();
      await restarted?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
