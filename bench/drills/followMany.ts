// Shared by the queue drills: plant transactions in the simulator that finish a little after the workers
// start, follow each from a thread of its own, and count the final replies per thread at the end.
import type { ThreadRef } from '../../src/dispatch/ports.js';
import type { Jobs } from '../../src/jobs/workers.js';
import { seededRandom } from '../support/stats.js';
import { benchThread, plantTransaction, type World } from '../support/world.js';

export interface Followed {
  threads: ThreadRef[];
  /** Call when the clock should start: transactions finish `minMs`–`maxMs` after it. */
  go(): void;
}

export async function followMany(
  world: Pick<World, 'sim'>,
  jobs: Jobs,
  count: number,
  window: { minMs: number; maxMs: number },
  seed = 1,
): Promise<Followed> {
  const random = seededRandom(seed);
  let start = Number.POSITIVE_INFINITY;
  const threads: ThreadRef[] = [];
  for (let i = 0; i < count; i += 1) {
    const offset = window.minMs + random() * (window.maxMs - window.minMs);
    const uid = plantTransaction(world.sim, () => start + offset);
    const thread = benchThread(i, 50);
    threads.push(thread);
    await jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: `drill ${i}` }, thread);
  }
  return {
    threads,
    go() {
      start = world.sim.clock.now();
    },
  };
}
