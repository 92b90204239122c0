// The compiled worker of the benchmarks and drills (bench/support/workers.ts: the worker bundled into one
// JavaScript file, as production runs compiled code) does what a worker does: a followed transaction's
// outcome reaches its thread. Its Redis scripts are files read beside the module that loads them, which in
// a bundle is the bundle: without them beside it, every notification failed on its first script and the
// upgrades benchmark saw nothing posted (a worker that now refuses to start, src/redis/scripts.ts).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compiledWorkerEntry,
  silentLog,
  startWorkerProcess,
  stopWorkers,
} from '../../bench/support/workers.js';
import {
  benchThread,
  plantTransaction,
  ReplyTally,
  startWorld,
  type World,
} from '../../bench/support/world.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { SCRIPTS } from '../../src/redis/scripts.js';

describe('the benchmarks’ compiled worker', () => {
  let world: World;
  let jobs: Jobs;
  const children: ChildProcess[] = [];
  const prefix = 'compiled-worker-test';

  beforeAll(async () => {
    world = await startWorld();
    jobs = createJobs({ redisUrl: world.redis.url, prefix, logger: silentLog });
  });
  afterAll(async () => {
    await stopWorkers(children);
    await jobs.close();
    await world.stop();
  });

  it('has the Lua scripts beside its bundle', () => {
    const entry = compiledWorkerEntry();
    for (const name of Object.keys(SCRIPTS))
      expect(existsSync(new URL(`lua/${name}.lua`, `file://${entry}`)), `${name}.lua`).toBe(true);
  });

  it('posts the outcome of a followed transaction in its thread', { timeout: 120_000 }, async () => {
    const uid = plantTransaction(world.sim, world.sim.clock.now());
    const thread = benchThread(1, 1);
    await jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'compiled' }, thread);
    children.push(
      await startWorkerProcess(world, {
        prefix,
        schedule: { poll: { transaction: { firstDelayMs: 10, capMs: 100 } } },
        compiled: true,
      }),
    );
    const replies = new ReplyTally(world.slack);
    // A polling wait with a generous bound; the assertion is on what was posted, not on when.
    await replies.until([thread], Date.now() + 60_000, 100);
    expect(replies.account([thread])).toEqual({ delivered: 1, lost: 0, duplicated: 0 });
  });
});
