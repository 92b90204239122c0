// The running simulator as handlers see it: the current world (replaced on reset), the clock, the
// public base URL, and the requests parked on simulated time (synchronous gateway calls).
import type { SimClock } from './clock.js';
import type { SimState } from './state/model.js';

export interface SimRuntime {
  readonly clock: SimClock;
  state: SimState;
  /** Where the simulator is reachable, e.g. http://127.0.0.1:4010 (polling URLs, presigned links). */
  baseUrl: string;
  /** Requests waiting for simulated time to pass; reset answers them so nothing hangs. */
  readonly parked: ParkedRequests;
}

type Settle = (reason: 'reset') => void;

/** Counts requests parked on the clock and lets tests wait until a given number are parked. */
export class ParkedRequests {
  private readonly settles = new Set<Settle>();
  private readonly watchers: { count: number; resolve: () => void }[] = [];

  get size(): number {
    return this.settles.size;
  }

  /** Registers a parked request; returns the function to call once it is answered. */
  park(onReset: Settle): () => void {
    this.settles.add(onReset);
    for (const w of [...this.watchers]) {
      if (this.settles.size >= w.count) {
        this.watchers.splice(this.watchers.indexOf(w), 1);
        w.resolve();
      }
    }
    return () => {
      this.settles.delete(onReset);
    };
  }

  /** Resolves once at least `count` requests are parked on simulated time. */
  until(count: number): Promise<void> {
    if (this.settles.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  releaseAll(): void {
    for (const settle of [...this.settles]) settle('reset');
    this.settles.clear();
  }
}

export const iso = (t: number): string => new Date(t).toISOString();
