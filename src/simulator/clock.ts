// Simulated time. Everything that takes time in the simulator (transactions, device answers, upgrade
// runs, rate limits, expiry) is an event on this clock. A manual clock moves only when told to, so tests
// never sleep; a real clock is the wall clock, for demos and benchmarks. A real clock's `speed` makes
// SCC's work faster, not time: every duration the simulator imposes is `span(ms)` long, `speed` times
// shorter, while its timestamps stay what the wall clock says. So a run that takes 20 s at ×10 ends 2 s
// after it was submitted, by the wall clock, and nothing the simulator reports is ever in the future.
import { performance } from 'node:perf_hooks';

export type ClockMode = 'manual' | 'real';

interface ScheduledEvent {
  at: number;
  seq: number;
  run: () => void;
}

export interface SimClock {
  readonly mode: ClockMode;
  /** How many times faster than SCC's the simulator's work goes (1 on a manual clock). */
  readonly speed: number;
  /** Simulated time, epoch milliseconds (the wall clock's on a real clock, unless advanced). */
  now(): number;
  /** Moves simulated time forward by `ms`, running every event that falls due on the way, in order. */
  advance(ms: number): void;
  /** Runs `run` once simulated time reaches `at`. Returns a function that cancels it. */
  schedule(at: number, run: () => void): () => void;
  /** Runs events already due (the real clock's timer may lag behind a request by a tick). */
  runDue(): void;
  /** Drops every pending event and puts simulated time back to `to` (used by reset). */
  reset(to: number): void;
  /** How long SCC work (or a wait, or an expiry) of `ms` lasts on this clock: `ms / speed`, whole ms. */
  span(ms: number): number;
  close(): void;
}

const MAX_TIMER_MS = 2_147_483_647;

export interface ClockOptions {
  mode: ClockMode;
  start: number;
  speed?: number;
  /**
   * The wall time a real clock follows, in milliseconds (performance.now by default). Tests that need the
   * real clock's own arithmetic at a given instant (speed, Retry-After in real seconds) pass one they hold still.
   */
  wall?: () => number;
}

export function createClock(options: ClockOptions): SimClock {
  const speed = options.speed ?? 1;
  const wall = options.wall ?? (() => performance.now());
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`clock speed must be > 0, got ${speed}`);
  const { mode } = options;
  let base = options.start;
  let wallBase = wall();
  let manualNow = options.start;
  let seq = 0;
  let events: ScheduledEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  const now = (): number => (mode === 'manual' ? manualNow : Math.floor(base + (wall() - wallBase)));

  const insert = (event: ScheduledEvent): void => {
    // Binary insert keeps events ordered by time, then by scheduling order.
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = events[mid];
      if (other !== undefined && (other.at < event.at || (other.at === event.at && other.seq < event.seq))) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    events.splice(lo, 0, event);
  };

  const runUntil = (limit: number): void => {
    if (running) return; // an event that schedules or advances must not re-enter the loop
    running = true;
    try {
      for (;;) {
        const first = events[0];
        if (first === undefined || first.at > limit) break;
        events.shift();
        if (mode === 'manual' && first.at > manualNow) manualNow = first.at;
        first.run();
      }
    } finally {
      running = false;
    }
  };

  const arm = (): void => {
    if (mode !== 'real') return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const first = events[0];
    if (first === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, first.at - now()));
    timer = setTimeout(() => {
      timer = undefined;
      runUntil(now());
      arm();
    }, delay);
    timer.unref();
  };

  return {
    mode,
    speed,
    now,
    advance(ms) {
      if (!(ms >= 0) || !Number.isFinite(ms)) throw new Error(`cannot advance the clock by ${ms} ms`);
      if (mode === 'manual') {
        const target = manualNow + ms;
        runUntil(target);
        manualNow = Math.max(manualNow, target);
      } else {
        base += ms;
        runUntil(now());
        arm();
      }
    },
    schedule(at, run) {
      const event: ScheduledEvent = { at, seq: seq++, run };
      insert(event);
      arm();
      return () => {
        events = events.filter((e) => e !== event);
        arm();
      };
    },
    runDue() {
      runUntil(now());
      arm();
    },
    reset(to) {
      events = [];
      base = to;
      manualNow = to;
      wallBase = wall();
      arm();
    },
    span(ms) {
      return Math.round(ms / speed);
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      events = [];
    },
  };
}
