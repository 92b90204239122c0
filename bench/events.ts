// Benchmark: telling what happens in SCC (issue 26). An MSP world of `devices` devices across `tenants`
// managed tenants (the simulator's scale seed); `transitions` connectivity transitions injected into it on a
// fixed, seeded timetable: a burst (`burst` devices lost at once and back together), flapping devices
// (offline and online again, several times), and single devices going offline and coming back. Three
// watchers meet the same timetable, one after another on a fresh copy of the same world, in one run:
// - fwbot: a worker process (startWorkers, as `npm run worker`) with one subscription of a channel to
//   connectivity across every managed tenant; its alert scan reads the devices that are not ONLINE (one
//   Lucene-filtered list across tenants) and the devices of open incidents sooner; its desk posts one
//   message per incident, a burst as one summary, at Slack's per-channel pace.
// - a per-device poller: reads every device (getMspManagedDevice) once a minute, spread evenly, and posts
//   one message per transition it sees.
// - an inventory scan: reads the whole inventory (getMspManagedDevices, 200 a page) every minute and posts
//   one message per transition it sees.
// Time is compressed `compress` times (every interval of every watcher, the timetable, the simulator's
// clock, Slack's pace of one message per channel every 1.1 s and one edit every 3 s), so figures read in
// simulated (production) seconds; the pollers post at the same pace, as Slack would make them. Measured per watcher: delay from a transition to the first Slack message (post,
// edit or thread reply) that shows the device in its new state (p50, p95), SCC calls per simulated minute
// (the simulator's request log), Slack messages posted (top-level and in threads) and edits, Redis memory
// (fwbot's keys; the pollers keep theirs in process), transitions lost (not shown before the device changed again) and
// duplicated (announced by two top-level messages).
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { AlertSubscription } from '../src/alerts/model.js';
import { RedisAlertSubscriptions } from '../src/jobs/alerts/subscriptions.js';
import { createJobsCore } from '../src/jobs/core.js';
import type { ScheduleOverrides } from '../src/jobs/schedule.js';
import { DEFAULT_SCHEDULE } from '../src/jobs/schedule.js';
import type { RecordedCall } from '../test/support/fakeSlack.js';
import { median, num, percentile, ratio, seededRandom, type Table } from './support/stats.js';
import { startWorkerProcess, stopWorkers } from './support/workers.js';
import { SccRequestTally, startWorld, type World } from './support/world.js';

export interface EventsOptions {
  devices: number;
  tenants: number;
  /** Injected transitions in all (burst, flapping and singles), about. */
  transitions: number;
  /** Devices lost at once, and back together. */
  burst: number;
  /** Devices that flap, and how many times each goes offline. */
  flappers: number;
  flapsEach: number;
  /** Simulated seconds per real second. */
  compress: number;
  seed: number;
}

type Watcher = 'fwbot' | 'per-device poller' | 'inventory scan';
const WATCHERS: readonly Watcher[] = (process.env.BENCH_EVENTS_ONLY?.split(',') as Watcher[] | undefined) ?? [
  'fwbot',
  'per-device poller',
  'inventory scan',
];

export interface Transition {
  /** Simulated ms after the watchers started. */
  atS: number;
  uid: string;
  name: string;
  to: 'UNREACHABLE' | 'ONLINE';
  why: 'burst' | 'flap' | 'single';
}

/** The watchers' first minute is their baseline: nothing is injected before it. */
const SETTLE_S = 90;
/** How long after the last transition a watcher has to show it. */
const GRACE_S = 150;
const POLL_EVERY_S = 60;
const PAGE = 200;

/** The timetable: simulated seconds, seeded, the same for every watcher. */
export function timetable(
  devices: readonly { uid: string; name: string }[],
  options: EventsOptions,
): Transition[] {
  const random = seededRandom(options.seed);
  const pool = [...devices];
  const take = (): { uid: string; name: string } => {
    const index = Math.floor(random() * pool.length);
    const [device] = pool.splice(index, 1);
    if (!device) throw new Error('the world has fewer devices than the workload needs');
    return device;
  };
  const out: Transition[] = [];
  const burstAt = SETTLE_S + 60;
  const burstBack = burstAt + 240;
  for (let i = 0; i < options.burst; i += 1) {
    const device = take();
    out.push({ atS: burstAt, ...device, to: 'UNREACHABLE', why: 'burst' });
    out.push({ atS: burstBack, ...device, to: 'ONLINE', why: 'burst' });
  }
  // Each state of a flapping device lasts 90 s: longer than any watcher's interval, so every watcher can
  // see every transition, and within fwbot's flapping window, so its desk collapses them.
  for (let i = 0; i < options.flappers; i += 1) {
    const device = take();
    let at = SETTLE_S + 30 + Math.floor(random() * 120);
    for (let flap = 0; flap < options.flapsEach; flap += 1) {
      out.push({ atS: at, ...device, to: 'UNREACHABLE', why: 'flap' });
      out.push({ atS: at + 90, ...device, to: 'ONLINE', why: 'flap' });
      at += 180;
    }
  }
  const singles = Math.max(0, Math.round((options.transitions - out.length) / 2));
  for (let i = 0; i < singles; i += 1) {
    const device = take();
    const at = SETTLE_S + Math.floor(random() * 420);
    out.push({ atS: at, ...device, to: 'UNREACHABLE', why: 'single' });
    out.push({ atS: at + 120 + Math.floor(random() * 120), ...device, to: 'ONLINE', why: 'single' });
  }
  return out.sort((a, b) => a.atS - b.atS);
}

/** Compresses every duration of fwbot's schedule that decides when it reads or collapses. */
export function fwbotSchedule(compress: number): ScheduleOverrides {
  const base = DEFAULT_SCHEDULE;
  const c = (ms: number) => Math.max(1, Math.round(ms / compress));
  const intervals = Object.fromEntries(
    Object.entries(base.alerts.intervals).map(([kind, ms]) => [kind, c(ms)]),
  ) as typeof base.alerts.intervals;
  return {
    alerts: {
      ...base.alerts,
      tickMs: c(base.alerts.tickMs),
      intervals,
      incidentsEveryMs: c(base.alerts.incidentsEveryMs),
      // The budget is per minute of SCC's time: compressed time makes as many calls in fewer real seconds.
      callsPerMinute: base.alerts.callsPerMinute * compress,
      catchUpAfterMs: c(base.alerts.catchUpAfterMs),
      reconcileEveryMs: c(base.alerts.reconcileEveryMs),
    },
    // Slack's pace in simulated time too: one post per channel every 1.1 s of SCC's time, as in production.
    slack: {
      postIntervalMs: c(base.slack.postIntervalMs),
      updateIntervalMs: c(base.slack.updateIntervalMs),
    },
    desk: {
      flapWindowMs: c(base.desk.flapWindowMs),
      burstOpens: base.desk.burstOpens,
      burstWindowMs: c(base.desk.burstWindowMs),
    },
  };
}

/** What one Slack call shows of each device: its lines (text, section, context, table rows). */
function linesOf(call: RecordedCall): string[] {
  const lines: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const line of value.split('\n')) lines.push(line);
    } else if (Array.isArray(value)) {
      // A table row is an array of cells: one line, so a device and its state stay together.
      if (value.every((cell) => typeof cell === 'object' && cell !== null && 'type' in cell)) {
        const cells = value.map((cell) => JSON.stringify(cell));
        if (value.some((cell) => (cell as { type?: unknown }).type === 'raw_text')) {
          lines.push(cells.join(' | '));
          return;
        }
      }
      for (const item of value) visit(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(call.args.text);
  visit(call.args.blocks);
  return lines;
}

const OFFLINE_WORDS = /UNREACHABLE|went offline|offline|unreachable/;
const ONLINE_WORDS = /back online|came back|\bONLINE\b/;

/** Whether a line about a device shows it in the state `to`. */
function shows(line: string, to: Transition['to']): boolean {
  if (to === 'ONLINE') return ONLINE_WORDS.test(line.replace(/NOT ONLINE/g, ''));
  return OFFLINE_WORDS.test(line) && !/back online|came back/.test(line);
}

/** `flapped 3 times` in a line: how often the device flapped, as fwbot says it (0 when not said). */
function flapCount(line: string): number {
  const match = /flapped (\d+) times?/.exec(line);
  return match ? Number(match[1]) : 0;
}

export interface Shown {
  delaysS: number[];
  lost: number;
  duplicated: number;
}

/** Matches the transitions to the calls that showed them (per device, in order). */
export function account(
  transitions: readonly Transition[],
  calls: readonly RecordedCall[],
  channel: string,
  startedAtMs: number,
  compress: number,
): Shown {
  const inChannel = calls
    .filter((call) => call.args.channel === channel && call.status === 200)
    .filter((call) => call.method === 'chat.postMessage' || call.method === 'chat.update')
    .map((call) => ({ call, lines: linesOf(call) }));
  const byDevice = new Map<string, Transition[]>();
  for (const t of transitions) byDevice.set(t.uid, [...(byDevice.get(t.uid) ?? []), t]);
  const delaysS: number[] = [];
  let lost = 0;
  let duplicated = 0;
  for (const list of byDevice.values()) {
    list.forEach((t, index) => {
      const from = startedAtMs + (t.atS * 1000) / compress;
      const next = list[index + 1];
      const until = next ? startedAtMs + (next.atS * 1000) / compress : Number.POSITIVE_INFINITY;
      // A device that flapped faster than a message was edited: a return that was never shown as such is
      // shown by the flap count going up when it failed again (fwbot's incidents and summary rows count).
      const afterNext = list[index + 2];
      const flapUntil = afterNext
        ? startedAtMs + (afterNext.atS * 1000) / compress
        : Number.POSITIVE_INFINITY;
      const flapsBefore = Math.max(
        0,
        ...inChannel
          .filter(({ call }) => call.at < from)
          .flatMap(({ lines }) => lines.filter((line) => line.includes(t.name)).map(flapCount)),
      );
      const about = inChannel.filter(
        ({ call, lines }) =>
          (call.at >= from &&
            call.at < until &&
            lines.some((line) => line.includes(t.name) && shows(line, t.to))) ||
          (t.to === 'ONLINE' &&
            call.at >= from &&
            call.at < flapUntil &&
            lines.some((line) => line.includes(t.name) && flapCount(line) > flapsBefore)),
      );
      const first = about[0];
      if (!first) {
        lost += 1;
        if (process.env.BENCH_EVENTS_DEBUG) {
          console.log(`lost: ${t.name} → ${t.to} at ${t.atS} s (${t.why})`);
          for (const { call, lines } of inChannel)
            for (const line of lines)
              if (line.includes(t.name))
                console.log(
                  `  ${(((call.at - startedAtMs) * compress) / 1000).toFixed(0)} s ${call.method} ${String(call.args.ts ?? call.args.thread_ts ?? '')}: ${line.slice(0, 200)}`,
                );
        }
        return;
      }
      const delayS = ((first.call.at - from) * compress) / 1000;
      delaysS.push(delayS);
      if (process.env.BENCH_EVENTS_DEBUG && delayS > 60)
        console.log(
          `late: ${t.name} → ${t.to} at ${t.atS} s (${t.why}) shown after ${delayS.toFixed(0)} s by ${first.call.method}`,
        );
      const announcements = about.filter(
        ({ call }) => call.method === 'chat.postMessage' && call.args.thread_ts === undefined,
      );
      if (announcements.length > 1) duplicated += 1;
    });
  }
  return { delaysS, lost, duplicated };
}

/** A poller of the benchmark's own: what a script against SCC's API would do. */
class Poller {
  private stopped = false;
  private readonly last = new Map<string, string>();
  calls = 0;
  behindS = 0;

  constructor(
    private readonly world: World,
    private readonly channel: string,
    private readonly compress: number,
    private readonly devices: readonly { uid: string; name: string }[],
  ) {}

  private async get(path: string): Promise<unknown> {
    this.calls += 1;
    const response = await fetch(`${this.world.sim.url}${path}`, {
      headers: { authorization: `Bearer ${this.world.sim.tokens.superAdmin}` },
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response.json();
  }

  /** When this poller may post next: Slack's pace (one message per channel per 1.1 s), as fwbot keeps it. */
  private nextPostAt = 0;

  private async post(name: string, state: string): Promise<void> {
    const paceMs = DEFAULT_SCHEDULE.slack.postIntervalMs / this.compress;
    const at = Math.max(Date.now(), this.nextPostAt);
    this.nextPostAt = at + paceMs;
    if (at > Date.now()) await sleep(at - Date.now());
    const text = state === 'ONLINE' ? `${name} back online` : `${name} went offline (${state})`;
    await fetch(`${this.world.slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-poller' },
      body: JSON.stringify({ channel: this.channel, text }),
    });
  }

  private async saw(uid: string, name: string, state: string): Promise<void> {
    const before = this.last.get(uid);
    this.last.set(uid, state);
    // Posted in the background, in order, at Slack's pace: reading goes on at its own pace meanwhile.
    if (before !== undefined && before !== state)
      this.posting = this.posting.then(() => this.post(name, state)).catch(() => {});
  }

  /** The posts queued so far, one after another. */
  private posting: Promise<void> = Promise.resolve();

  /** Every device once a minute (simulated), spread evenly, a few requests in flight. */
  async perDevice(): Promise<void> {
    const cycleMs = (POLL_EVERY_S * 1000) / this.compress;
    while (!this.stopped) {
      const started = Date.now();
      let next = 0;
      const lane = async () => {
        for (;;) {
          const index = next;
          next += 1;
          const device = this.devices[index];
          if (!device || this.stopped) return;
          const due = started + (index * cycleMs) / this.devices.length;
          const wait = due - Date.now();
          if (wait > 0) await sleep(wait);
          const item = (await this.get(`/v1/msp/inventory/devices/${device.uid}`)) as {
            connectivityState?: string;
          };
          await this.saw(device.uid, device.name, item.connectivityState ?? 'UNKNOWN');
        }
      };
      await Promise.all(Array.from({ length: 16 }, lane));
      const took = Date.now() - started;
      if (took > cycleMs) this.behindS = Math.max(this.behindS, ((took - cycleMs) * this.compress) / 1000);
      else await sleep(cycleMs - took);
    }
  }

  /** The whole inventory every minute (simulated), 200 a page. */
  async inventory(): Promise<void> {
    const cycleMs = (POLL_EVERY_S * 1000) / this.compress;
    while (!this.stopped) {
      const started = Date.now();
      for (let offset = 0; !this.stopped; offset += PAGE) {
        const page = (await this.get(`/v1/msp/inventory/devices?limit=${PAGE}&offset=${offset}`)) as {
          items?: { uid?: string; name?: string; connectivityState?: string }[];
          count?: number;
        };
        for (const item of page.items ?? [])
          if (item.uid) await this.saw(item.uid, item.name ?? item.uid, item.connectivityState ?? 'UNKNOWN');
        if ((page.items?.length ?? 0) < PAGE) break;
      }
      const took = Date.now() - started;
      if (took < cycleMs) await sleep(cycleMs - took);
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

interface Run {
  watcher: Watcher;
  shown: Shown;
  callsPerMinute: number;
  posts: number;
  threadReplies: number;
  edits: number;
  redisBytes?: number;
  /** How far behind its minute the slowest read cycle of a poller ended, simulated seconds. */
  behindS?: number;
}

async function runWatcher(watcher: Watcher, options: EventsOptions): Promise<Run> {
  const { compress } = options;
  const world = await startWorld({
    sim: {
      clock: 'real',
      speed: compress,
      scale: { tenants: options.tenants, devices: options.devices },
    },
  });
  const channel = `C0EV${watcher === 'fwbot' ? 'FWBOT' : watcher === 'inventory scan' ? 'SCAN0' : 'POLL0'}`;
  const prefix = `bench-events-${WATCHERS.indexOf(watcher)}`;
  const redis = new Redis(world.redis.url);
  let worker: ChildProcess | undefined;
  let poller: Poller | undefined;
  let pollerRun: Promise<void> | undefined;
  try {
    // The devices of the portal's managed tenants: what getMspManagedDevices lists.
    const managed = (tenantUid: string) => {
      const tenant = world.sim.state.tenants.get(tenantUid);
      return tenant?.inPortal === true && !tenant.isPortal;
    };
    const devices = [...world.sim.state.devices.values()]
      .filter((record) => managed(record.tenantUid))
      .map((record) => ({ uid: record.device.uid, name: record.device.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const plan = timetable(devices, options);
    const memoryBefore = await usedMemory(redis);
    if (watcher === 'fwbot') {
      const schedule = fwbotSchedule(compress);
      const core = createJobsCore({
        redisUrl: world.redis.url,
        prefix,
        schedule,
        logger: pino({ level: 'silent' }),
      });
      const subscription: Omit<AlertSubscription, 'id' | 'createdAt'> = {
        channelId: channel,
        profile: 'default',
        kinds: ['connectivity'],
        scope: { kind: 'all-tenants' },
        createdBy: 'U0BENCH01',
      };
      await new RedisAlertSubscriptions(core).subscribe(subscription);
      await core.close();
      worker = await startWorkerProcess(world, { prefix, schedule, compiled: true });
    } else {
      poller = new Poller(world, channel, compress, devices);
      pollerRun = watcher === 'inventory scan' ? poller.inventory() : poller.perDevice();
    }
    const tally = new SccRequestTally(world.sim).start();
    const startedAt = Date.now();
    // The first minutes are the baseline: every watcher has seen the world once before anything changes.
    for (const t of plan) {
      const due = startedAt + (t.atS * 1000) / compress;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const record = world.sim.state.devices.get(t.uid);
      if (record) record.device.connectivityState = t.to;
    }
    const last = plan.at(-1)?.atS ?? 0;
    const endAt = startedAt + ((last + GRACE_S) * 1000) / compress;
    await sleep(Math.max(0, endAt - Date.now()));
    const elapsedMinutes = ((Date.now() - startedAt) * compress) / 60_000;
    tally.stop();
    poller?.stop();
    await pollerRun?.catch(() => {});
    const redisBytes = watcher === 'fwbot' ? (await usedMemory(redis)) - memoryBefore : undefined;
    const calls = world.slack.calls.filter((call) => call.args.channel === channel && call.status === 200);
    const posts = calls.filter((call) => call.method === 'chat.postMessage');
    return {
      watcher,
      shown: account(plan, world.slack.calls, channel, startedAt, compress),
      callsPerMinute: tally.total / elapsedMinutes,
      posts: posts.filter((call) => call.args.thread_ts === undefined).length,
      threadReplies: posts.filter((call) => call.args.thread_ts !== undefined).length,
      edits: calls.filter((call) => call.method === 'chat.update').length,
      ...(redisBytes === undefined ? {} : { redisBytes }),
      ...(poller ? { behindS: poller.behindS } : {}),
    };
  } finally {
    poller?.stop();
    if (worker) await stopWorkers([worker]);
    redis.disconnect();
    await world.stop();
  }
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const match = /used_memory:(\d+)/.exec(info);
  return match ? Number(match[1]) : 0;
}

export async function benchEvents(options: EventsOptions): Promise<Table[]> {
  const runs: Run[] = [];
  for (const watcher of WATCHERS) {
    console.log(`[events] ${watcher}…`);
    runs.push(await runWatcher(watcher, options));
  }
  const inventoryOnce = Math.ceil(options.devices / PAGE);
  const transitions = runs[0] ? runs[0].shown.delaysS.length + runs[0].shown.lost : 0;
  const fwbot = runs.find((run) => run.watcher === 'fwbot');
  const rows = runs.map((run) => {
    const { delaysS, lost, duplicated } = run.shown;
    return [
      run.watcher,
      num(median(delaysS), 1),
      num(percentile(delaysS, 95), 1),
      num(run.callsPerMinute, 1),
      num(ratio(run.callsPerMinute, inventoryOnce), 2),
      num(run.posts),
      num(run.threadReplies),
      num(run.edits),
      run.redisBytes === undefined ? '— (in process)' : num(run.redisBytes / 1024 / 1024, 1),
      num(lost),
      num(duplicated),
      fwbot && run !== fwbot ? num(ratio(run.posts, fwbot.posts), 1) : '1.0',
    ];
  });
  return [
    {
      title: `Telling what happens in SCC: ${num(options.devices)} devices across ${num(options.tenants)} managed tenants, ${num(transitions)} transitions (a burst of ${options.burst}, ${options.flappers} devices flapping ${options.flapsEach} times, the rest single devices)`,
      notes: [
        ...runs
          .filter((run) => (run.behindS ?? 0) >= 1)
          .map(
            (run) =>
              `The ${run.watcher} could not keep its minute on this machine: its slowest cycle took ${num(60 + (run.behindS ?? 0))} simulated seconds.`,
          ),
        `Side by side in one run, each watcher on a fresh copy of the same world and the same seeded timetable; time compressed ${options.compress}× (figures in simulated seconds), Slack's pace (a message per channel every 1.1 s, an edit every 3 s) kept in simulated time by every watcher. Delay: from a transition to the first Slack message, edit or thread reply showing the device in its new state. Reading the inventory once a minute costs ${inventoryOnce} SCC calls (${PAGE} a page). Lost: not shown while it was true, i.e. before the device changed again (or by ${GRACE_S} s after the last transition); a return of a flapping device counts as shown when the flap count fwbot shows goes up. The pollers post in the background, in order, at Slack's pace. Duplicated: announced by two top-level messages.`,
      ],
      headers: [
        'watcher',
        'delay p50 s',
        'delay p95 s',
        'SCC calls / min',
        '× inventory once a minute',
        'messages',
        'thread replies',
        'edits',
        'Redis MiB',
        'lost',
        'duplicated',
        'messages × fwbot',
      ],
      rows,
    },
  ];
}
