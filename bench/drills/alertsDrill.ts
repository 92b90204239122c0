// What the two alert drills (alertsKill.ts, alertsFailover.ts) share: the MSP world they watch, the
// subscription, the timetable of connectivity transitions (bench/events.ts's, injected on the wall clock
// while the drill kills things), a probe that says whether a scan is under way when something is killed,
// and the tally of what Slack showed, by the events benchmark's definitions (bench/events.ts `account`):
// a transition is lost when no message, edit or thread reply in the channel showed the device in its new
// state before its next transition; duplicated when two top-level messages announced it. On top of those,
// a post repeated under the same exactly-once key (a thread reply posted twice) counts as duplicated, and
// the burst must be told in at most BURST_MESSAGES top-level messages.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import type { AlertSubscription } from '../../src/alerts/model.js';
import { DeskRecord } from '../../src/jobs/alerts/deskRecord.js';
import { ALERT_SCAN_QUEUE } from '../../src/jobs/alerts/scan.js';
import { AlertScanStore, streamField } from '../../src/jobs/alerts/state.js';
import { RedisAlertSubscriptions } from '../../src/jobs/alerts/subscriptions.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import type { ScheduleOverrides } from '../../src/jobs/schedule.js';
import type { RedisTarget } from '../../src/redis/connection.js';
import { QUEUE } from '../../src/redis/keys.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import type { FakeSlack, RecordedCall } from '../../test/support/fakeSlack.js';
import { account, fwbotSchedule, type Shown, type Transition, timetable } from '../events.js';
import { stopChild } from '../support/processes.js';
import { median, percentile } from '../support/stats.js';
import { startWorkerProcess, type WorkerSpec } from '../support/workers.js';
import { DRILL_SCHEDULE, sleep, until } from './drill.js';

/** Simulated seconds per real second: the scan's intervals, the desk's windows and the timetable. */
export const COMPRESS = 10;
export const CHANNEL = 'C0ALERTS01';
export const PROFILE = 'default';
export const DEVICES = 1_000;
export const TENANTS = 20;
export const BURST = 300;
/** The most top-level messages the burst may take (issue 26). */
export const BURST_MESSAGES = 5;
/** The simulator's list of every managed tenant's devices: each full read and each look at open incidents. */
export const MSP_DEVICES_PATH = '/v1/msp/inventory/devices';

/**
 * The events benchmark's compressed schedule (alerts and desk), with the drills' millisecond Slack pace and
 * worker timings (drill.ts): a killed worker's jobs are rescued about 1.5 s later, its desk lock is free
 * 3 s later. Slack's pace is not what these drills measure; keeping it real would only make them longer.
 */
export function alertsSchedule(): ScheduleOverrides {
  return {
    ...fwbotSchedule(COMPRESS),
    slack: DRILL_SCHEDULE.slack,
    workers: DRILL_SCHEDULE.workers,
    maxTransientFailures: DRILL_SCHEDULE.maxTransientFailures ?? 8,
    transientBaseMs: DRILL_SCHEDULE.transientBaseMs ?? 50,
    transientCapMs: DRILL_SCHEDULE.transientCapMs ?? 1_000,
  };
}

/** The managed tenants' devices (the portal's own are not in the MSP list), by name. */
export function managedDevices(sim: SimulatorHandle): { uid: string; name: string }[] {
  return [...sim.state.devices.values()]
    .filter((record) => record.tenantUid !== sim.state.portalUid)
    .map((record) => ({ uid: record.device.uid, name: record.device.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The timetable: the burst, a few flapping devices and single devices (bench/events.ts, seeded). */
export function drillTimetable(sim: SimulatorHandle): Transition[] {
  return timetable(managedDevices(sim), {
    devices: DEVICES,
    tenants: TENANTS,
    transitions: 2 * BURST + 4 * 2 * 2 + 2 * 16,
    burst: BURST,
    flappers: 4,
    flapsEach: 2,
    compress: COMPRESS,
    seed: 26,
  });
}

/** A JobsCore on the drill's prefix (what the subscription, the probes and the baseline read go through). */
export function drillCore(redis: RedisTarget, prefix: string): JobsCore {
  return createJobsCore({
    redisUrl: redis,
    prefix,
    schedule: alertsSchedule(),
    logger: pino({ level: 'silent' }),
  });
}

/** One subscription: the channel hears connectivity across every managed tenant. */
export async function subscribe(core: JobsCore): Promise<AlertSubscription> {
  const subscription: Omit<AlertSubscription, 'id' | 'createdAt'> = {
    channelId: CHANNEL,
    profile: PROFILE,
    kinds: ['connectivity'],
    scope: { kind: 'all-tenants' },
    createdBy: 'U0DRILL001',
  };
  const { subscription: made } = await new RedisAlertSubscriptions(core).subscribe(subscription);
  return made;
}

/** Resolves with the time the connectivity stream's baseline was committed (or throws after `timeoutMs`). */
export async function untilBaseline(core: JobsCore, timeoutMs = 60_000): Promise<number> {
  const store = new AlertScanStore(core.redis, core.prefix);
  let at: number | undefined;
  const done = await until(
    async () => {
      at = (await store.metas(PROFILE)).get(streamField('connectivity', 'msp'))?.baselinedAt;
      return at !== undefined;
    },
    timeoutMs,
    100,
  );
  if (!done || at === undefined) throw new Error(`no baseline scan within ${timeoutMs / 1000} s`);
  return at;
}

/**
 * Sets the devices' connectivity at the times of the timetable, on the wall clock from `start()`, whatever
 * the drill is doing meanwhile. Each transition's time is rewritten to when it was made, so the tally
 * measures from the instant SCC changed. While no worker runs (`pause()` to `resume()`) the timetable
 * stands still and then goes on where it was: a transition undone before any worker could look is not
 * what these drills are about (that is the catch-up summary's), and a slow restart on a busy machine
 * would otherwise count as loss.
 */
export class Injector {
  readonly plan: Transition[];
  startedAt = 0;
  /** Real ms the timetable was paused for so far, and since when it is paused now. */
  private pausedMs = 0;
  private pausedAt: number | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sim: SimulatorHandle,
    plan: readonly Transition[],
  ) {
    this.plan = plan.map((t) => ({ ...t }));
  }

  /** Real ms since the epoch at which a transition at simulated second `atS` is due (pauses included). */
  due(atS: number): number {
    const paused = this.pausedMs + (this.pausedAt === undefined ? 0 : Date.now() - this.pausedAt);
    return this.startedAt + paused + (atS * 1000) / COMPRESS;
  }

  pause(): void {
    this.pausedAt ??= Date.now();
  }

  resume(): void {
    if (this.pausedAt === undefined) return;
    this.pausedMs += Date.now() - this.pausedAt;
    this.pausedAt = undefined;
  }

  start(): void {
    this.startedAt = Date.now();
    this.running = (async () => {
      for (const t of this.plan) {
        await this.at(t.atS);
        const record = this.sim.state.devices.get(t.uid);
        if (record) record.device.connectivityState = t.to;
        t.atS = ((Date.now() - this.startedAt) * COMPRESS) / 1000;
      }
    })();
  }

  /** Resolves at the instant the timetable's `atS` is due (simulated seconds), waiting out pauses. */
  async at(atS: number): Promise<void> {
    for (;;) {
      const wait = this.due(atS) - Date.now();
      if (wait <= 0 && this.pausedAt === undefined) return;
      await sleep(Math.max(10, Math.min(wait, 100)));
    }
  }

  /** Real seconds the timetable stood still while no worker ran. */
  pausedSeconds(): number {
    return this.pausedMs / 1000;
  }

  done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** The time (simulated s) of the burst's going offline and coming back. */
  burstTimes(): { offS: number; backS: number } {
    const burst = this.plan.filter((t) => t.why === 'burst');
    const off = burst.find((t) => t.to === 'UNREACHABLE');
    const back = burst.find((t) => t.to === 'ONLINE');
    if (!off || !back) throw new Error('the timetable has no burst');
    return { offS: off.atS, backS: back.atS };
  }

  lastS(): number {
    return this.plan.at(-1)?.atS ?? 0;
  }

  describe(): string {
    const count = (why: Transition['why']) => this.plan.filter((t) => t.why === why).length;
    const devices = (why: Transition['why']) =>
      new Set(this.plan.filter((t) => t.why === why).map((t) => t.uid)).size;
    const { offS, backS } = this.burstTimes();
    return `${this.plan.length} transitions over ${(this.lastS() / COMPRESS).toFixed(0)} s: ${BURST} devices offline at once (at ${(offS / COMPRESS).toFixed(0)} s) and back together (at ${(backS / COMPRESS).toFixed(0)} s), ${devices('flap')} devices flapping (${count('flap')} transitions), ${devices('single')} single devices offline and back (${count('single')})`;
  }
}

/**
 * Whether a scan is under way: the SCC list requests the simulator holds (a latency fault on the MSP
 * device list, counted from its arrivals less its answers), and the active jobs of the scan and desk queues.
 */
export class ScanProbe {
  private readonly scanQueue: Queue;
  private readonly deskQueue: Queue;
  private fault: string | undefined;

  constructor(
    private readonly sim: SimulatorHandle,
    core: JobsCore,
  ) {
    this.scanQueue = new Queue(ALERT_SCAN_QUEUE, { connection: core.redis, prefix: core.prefix });
    this.deskQueue = new Queue(QUEUE.alerts, { connection: core.redis, prefix: core.prefix });
  }

  /** Every read of the MSP device list answers `latencyMs` later (none with 0). */
  slowLists(latencyMs: number): void {
    if (this.fault) this.sim.faults.remove(this.fault);
    this.fault = undefined;
    if (latencyMs > 0)
      this.fault = this.sim.faults.add({ path: MSP_DEVICES_PATH, method: 'GET', latencyMs }).id;
  }

  /** The device list requests answered under the latency fault, oldest first. */
  private answered() {
    const id = this.fault;
    if (!id) return [];
    return this.sim.requestLog
      .list({ path: MSP_DEVICES_PATH })
      .filter((entry) => entry.fault?.split(',').includes(id));
  }

  /** List requests that arrived and are not answered yet (0 without a latency fault). */
  listsInFlight(): number {
    const id = this.fault;
    const rule = this.sim.faults.list().find((r) => r.id === id);
    return (rule?.injected ?? 0) - this.answered().length;
  }

  /** Resolves once the simulator holds a device list request (true), or at the bound (false). */
  async untilHeld(timeoutMs: number): Promise<boolean> {
    return until(() => this.listsInFlight() > 0, timeoutMs, 5);
  }

  /**
   * Resolves once a device list request is answered from now on, with how long ago (ms) it was answered,
   * or undefined at the bound: the scan that read it is then comparing, committing or handing over.
   */
  async untilAnswered(timeoutMs: number): Promise<number | undefined> {
    const before = this.answered().length;
    let at: number | undefined;
    await until(
      () => {
        const answered = this.answered();
        if (answered.length > before) at = Date.parse(answered.at(-1)?.realTime ?? '');
        return at !== undefined;
      },
      timeoutMs,
      5,
    );
    return at === undefined ? undefined : Date.now() - at;
  }

  async active(): Promise<{ scans: number; desk: number }> {
    const [scans, desk] = await Promise.all([
      this.scanQueue.getActiveCount(),
      this.deskQueue.getActiveCount(),
    ]);
    return { scans, desk };
  }

  /** Jobs of the scan and desk queues that failed for good, with their reasons (one line). */
  async failures(): Promise<string> {
    const describe = async (name: string, queue: Queue) => {
      const failed = await queue.getFailed(0, 100);
      const reasons = [...new Set(failed.map((job) => job.failedReason.slice(0, 100)))];
      return `${name} ${failed.length}${reasons.length > 0 ? ` (${reasons.join(' / ')})` : ''}`;
    };
    return `${await describe('scan', this.scanQueue)}, ${await describe('desk', this.deskQueue)}`;
  }

  async close(): Promise<void> {
    this.slowLists(0);
    await this.scanQueue.close();
    await this.deskQueue.close();
  }
}

/** Accepted top-level posts and edits in the drill's channel. */
function channelCalls(slack: FakeSlack): RecordedCall[] {
  return slack.calls.filter((call) => call.args.channel === CHANNEL && call.status === 200);
}

const isPost = (call: RecordedCall) => call.method === 'chat.postMessage';
const isTopLevel = (call: RecordedCall) => isPost(call) && call.args.thread_ts === undefined;

/** Resolves once Slack has recorded a new `method` call in the channel after `since` (index), or at the bound. */
export async function untilCall(
  slack: FakeSlack,
  method: string,
  since: number,
  timeoutMs: number,
): Promise<RecordedCall | undefined> {
  let found: RecordedCall | undefined;
  await until(
    () => {
      found = slack.calls
        .slice(since)
        .find((call) => call.method === method && call.args.channel === CHANNEL);
      return found !== undefined;
    },
    timeoutMs,
    20,
  );
  return found;
}

/** The first words of what a call showed, for the report. */
export function gist(call: RecordedCall | undefined): string {
  const text = String(call?.args.text ?? '').replace(/\s+/g, ' ');
  return text.length > 70 ? `${text.slice(0, 70)}…` : text;
}

export interface AlertsTally {
  shown: Shown;
  /** Posts repeated under one exactly-once key (metadata event_payload.key) in one place. */
  repeatedPosts: number;
  burstMessages: number;
  posts: number;
  threadReplies: number;
  edits: number;
}

export function tally(slack: FakeSlack, injector: Injector): AlertsTally {
  const calls = channelCalls(slack);
  const shown = account(injector.plan, slack.calls, CHANNEL, injector.startedAt, COMPRESS);
  const byKey = new Map<string, number>();
  for (const call of calls.filter(isPost)) {
    const metadata = call.args.metadata as { event_payload?: { key?: unknown } } | undefined;
    const key = metadata?.event_payload?.key;
    if (typeof key !== 'string') continue;
    const place = `${String(call.args.thread_ts ?? '')}\u0000${key}`;
    byKey.set(place, (byKey.get(place) ?? 0) + 1);
  }
  const repeatedPosts = [...byKey.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const burstNames = [...new Set(injector.plan.filter((t) => t.why === 'burst').map((t) => t.name))];
  const burstMessages = calls.filter(isTopLevel).filter((call) => {
    const text = JSON.stringify([call.args.text, call.args.blocks]);
    return burstNames.some((name) => text.includes(name));
  }).length;
  return {
    shown,
    repeatedPosts,
    burstMessages,
    posts: calls.filter(isTopLevel).length,
    threadReplies: calls.filter((call) => isPost(call) && call.args.thread_ts !== undefined).length,
    edits: calls.filter((call) => call.method === 'chat.update').length,
  };
}

/**
 * What the incident desk holds (its records in Redis), apart from how Slack renders it: every device the
 * timetable took offline should have exactly one incident in the channel (a flap reopens the same one),
 * closed at the end (every device is back online by then).
 */
export async function deskCheck(
  core: JobsCore,
  injector: Injector,
): Promise<{
  missing: string[];
  extra: number;
  stillOpen: string[];
  summaries: number;
  untouched: string[];
}> {
  const incidents = new Map<string, number>();
  const names = new Map<string, string>();
  const open = new Set<string>();
  let summaries = 0;
  let cursor = '0';
  do {
    const [next, keys] = await core.redis.scan(cursor, 'MATCH', core.keys.incident('*'), 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const parsed = DeskRecord.safeParse(JSON.parse((await core.redis.get(key)) ?? 'null'));
      if (!parsed.success || parsed.data.channelId !== CHANNEL) continue;
      const record = parsed.data;
      if (record.type !== 'incident') {
        summaries += 1;
        continue;
      }
      if (record.subject.type !== 'device') continue;
      const { uid, name } = record.subject;
      incidents.set(uid, (incidents.get(uid) ?? 0) + 1);
      names.set(uid, name);
      if (record.open) open.add(uid);
    }
  } while (cursor !== '0');
  const devices = new Map(injector.plan.map((t) => [t.uid, t.name]));
  const missing: string[] = [];
  let extra = 0;
  for (const [uid, name] of devices) {
    const count = incidents.get(uid) ?? 0;
    if (count === 0) missing.push(name);
    extra += Math.max(0, count - 1);
  }
  // An incident of a device the drill never changed tells a transition that did not happen.
  const untouched = [...incidents.keys()]
    .filter((uid) => !devices.has(uid))
    .map((uid) => names.get(uid) ?? uid);
  const stillOpen = [...open].filter((uid) => devices.has(uid)).map((uid) => devices.get(uid) ?? uid);
  return { missing, extra, stillOpen, summaries, untouched };
}

/** Waits for every transition to be shown (or the bound), then a little longer for a duplicate to show. */
export async function settle(slack: FakeSlack, injector: Injector, boundMs: number): Promise<boolean> {
  await injector.done();
  const complete = await until(() => tally(slack, injector).shown.lost === 0, boundMs, 250);
  await sleep(3_000);
  return complete;
}

/** The report's lines about what Slack showed, and the loss and duplication the drill returns. */
export async function verdict(
  slack: FakeSlack,
  core: JobsCore,
  injector: Injector,
  complete: boolean,
): Promise<{ did: string; findings: string[]; lost: number; duplicated: number; failed: boolean }> {
  const t = tally(slack, injector);
  const desk = await deskCheck(core, injector);
  const devices = new Set(injector.plan.map((t) => t.uid)).size;
  const shownText = slack.calls
    .filter((call) => call.args.channel === CHANNEL && call.status === 200)
    .map((call) => JSON.stringify([call.args.text, call.args.blocks]))
    .join('\n');
  const unnamed = [...new Set(injector.plan.map((t) => t.name))].filter((name) => !shownText.includes(name));
  const truncated = slack.calls.filter(
    (call) =>
      call.args.channel === CHANNEL &&
      call.status === 200 &&
      JSON.stringify(call.args.blocks ?? '').includes('Not shown:'),
  ).length;
  const { delaysS, lost, duplicated } = t.shown;
  const shownCount = delaysS.length;
  const did = `${shownCount} of ${injector.plan.length} transitions shown in ${CHANNEL}${complete ? '' : ' (bound reached)'}: ${t.posts} messages, ${t.threadReplies} thread replies, ${t.edits} edits; the burst of ${BURST} in ${t.burstMessages} message${t.burstMessages === 1 ? '' : 's'}`;
  const findings = [
    `delay from a transition to Slack, in simulated seconds (${COMPRESS}× compressed): p50 ${median(delaysS).toFixed(1)}, p95 ${percentile(delaysS, 95).toFixed(1)}`,
    `lost ${lost} and duplicated ${duplicated} by the events benchmark's definitions; posts repeated under one exactly-once key: ${t.repeatedPosts}`,
    `the burst in ${t.burstMessages} top-level messages (at most ${BURST_MESSAGES}): ${t.burstMessages <= BURST_MESSAGES ? 'ok' : 'TOO MANY'}`,
    `devices Slack never named (in no message, edit or thread reply): ${unnamed.length} of ${devices}; Slack calls whose table left rows out ("Not shown: … more rows"): ${truncated}`,
    `the desk's records in Redis: ${devices - desk.missing.length} of ${devices} devices that went offline have an incident (missing ${named(desk.missing)}, incidents beyond one per device ${desk.extra}, still open at the end ${named(desk.stillOpen)}; ${desk.summaries} summaries); incidents of devices the drill never changed: ${named(desk.untouched)}`,
  ];
  return {
    did,
    findings,
    lost,
    duplicated: duplicated + t.repeatedPosts,
    failed:
      t.burstMessages > BURST_MESSAGES ||
      desk.missing.length + desk.extra + desk.stillOpen.length + desk.untouched.length > 0,
  };
}

/** A count, and the first few names. */
function named(names: readonly string[]): string {
  if (names.length === 0) return '0';
  const shown = names.slice(0, 5).join(', ');
  return `${names.length} (${shown}${names.length > 5 ? ', …' : ''})`;
}

/** SIGKILLs a worker and says what was under way at that instant. */
export async function killWorker(
  worker: ChildProcess,
  probe: ScanProbe,
): Promise<{ scans: number; desk: number; lists: number }> {
  const lists = probe.listsInFlight();
  const active = await probe.active();
  await stopChild(worker, 'SIGKILL');
  return { ...active, lists };
}

export function underWay(at: { scans: number; desk: number; lists: number }): string {
  const parts = [
    `${at.scans} scan job${at.scans === 1 ? '' : 's'} active`,
    `${at.lists} device list request${at.lists === 1 ? '' : 's'} unanswered`,
    `${at.desk} desk job${at.desk === 1 ? '' : 's'} active`,
  ];
  return parts.join(', ');
}

export function startDrillWorker(
  world: Parameters<typeof startWorkerProcess>[0],
  spec: Omit<WorkerSpec, 'schedule' | 'compiled'>,
): Promise<ChildProcess> {
  return startWorkerProcess(world, { ...spec, schedule: alertsSchedule(), compiled: true });
}

/**
 * With ALERTS_DRILL_DUMP=<file>, writes what the drill saw for a post-mortem: the timetable, the channel's
 * Slack calls and the simulator's device list requests, times in real ms since the injection began.
 */
export function dump(
  slack: FakeSlack,
  sim: SimulatorHandle,
  injector: Injector,
  marks: readonly string[],
): void {
  const file = process.env.ALERTS_DRILL_DUMP;
  if (!file) return;
  const since = (ms: number) => ms - injector.startedAt;
  const out = {
    marks,
    plan: injector.plan.map((t) => ({
      ms: Math.round((t.atS * 1000) / COMPRESS),
      name: t.name,
      to: t.to,
      why: t.why,
    })),
    calls: slack.calls
      .filter((call) => call.args.channel === CHANNEL)
      .map((call) => ({ ms: since(call.at), method: call.method, status: call.status, args: call.args })),
    requests: sim.requestLog.list().map((entry) => ({
      ms: since(Date.parse(entry.realTime)),
      method: entry.method,
      path: entry.path,
      status: entry.status,
      query: entry.query,
      fault: entry.fault,
    })),
  };
  writeFileSync(file, JSON.stringify(out, null, 1));
}
