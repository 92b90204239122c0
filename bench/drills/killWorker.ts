// Drill: kill -9 the worker with 500 jobs in flight, then start another. While it dies, Slack has
// accepted some of its posts without the worker hearing back (the crash window between Slack and Redis).
// Every thread must get its final reply exactly once.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createJobs } from '../../src/jobs/workers.js';
import { QUEUE } from '../../src/redis/keys.js';
import { stopChild } from '../support/processes.js';
import { silentLog, startWorkerProcess, stopWorkers } from '../support/workers.js';
import { ReplyTally, startWorld } from '../support/world.js';
import { DRILL_SCHEDULE, type Drill, until } from './drill.js';
import { followMany } from './followMany.js';

const COUNT = 500;

export const killWorkerDrill: Drill = {
  name: 'kill-worker',
  summary: `SIGKILL the worker with ${COUNT} tracking jobs in flight, restart it: ${COUNT} outcomes, 0 duplicates`,
  async run() {
    const world = await startWorld({ sim: { clock: 'real', speed: 1 } });
    const prefix = 'drill-kill';
    const jobs = createJobs({
      redisUrl: world.redis.url,
      prefix,
      schedule: DRILL_SCHEDULE,
      logger: silentLog,
    });
    const connection = new Redis(world.redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE.track, { connection, prefix });
    const replies = new ReplyTally(world.slack);
    const spec = { prefix, schedule: DRILL_SCHEDULE };
    const did: string[] = [];
    let second: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
    try {
      const followed = await followMany(world, jobs, COUNT, { minMs: 500, maxMs: 4_000 });
      did.push(`followed ${COUNT} transactions finishing 0.5–4 s after the worker starts`);
      const first = await startWorkerProcess(world, spec);
      followed.go();
      // Slack accepts the next three posts but holds its answers: the worker dies not knowing.
      world.slack.holdResponses('chat.postMessage', 3);
      await until(() => replies.account(followed.threads).delivered >= 50, 30_000);
      const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'completed');
      const delivered = replies.account(followed.threads).delivered;
      await stopChild(first, 'SIGKILL');
      const held = world.slack.releaseHeld();
      did.push(
        `SIGKILLed the worker after ${delivered} replies, with ${counts.active ?? 0} jobs active, ${(counts.waiting ?? 0) + (counts.delayed ?? 0)} waiting or delayed and ${counts.completed ?? 0} completed; ${held} posts accepted by Slack were unanswered when it died`,
      );
      second = await startWorkerProcess(world, spec);
      did.push('started a new worker');
      const complete = await until(() => replies.account(followed.threads).lost === 0, 90_000, 100);
      const final = replies.account(followed.threads);
      did.push(
        `${final.delivered} of ${COUNT} threads got their final reply${complete ? '' : ' (bound of 90 s reached)'}`,
      );
      return { did, lost: final.lost, duplicated: final.duplicated, findings: [] };
    } finally {
      if (second) await stopWorkers([second]);
      await queue.close();
      await connection.quit();
      await jobs.close();
      await world.stop();
    }
  },
};
