// The alert scan: per profile that has subscriptions, a BullMQ job scheduler runs this every `tickMs`; each
// run reads the streams (kind × scope) that are due, compares with what Redis kept, and commits the new
// state together with the events it found (state.ts), then drains them to the incident desk. Due means:
// the kind's interval has passed since its last full read (stretched when the profile's budget of SCC
// calls per minute could not keep up), or, for devices in an open incident, `incidentsEveryMs` since they
// were last looked at (a read by uid). The first scan of a stream is a baseline and tells nothing; the
// first after a long gap marks what it finds as catch-up. Kinds the profile's token cannot read
// (getToken, each kind's tokenRoles) are said once and not scanned.
import type { Job, Processor } from 'bullmq';
import { Queue } from 'bullmq';
import { type AnyAlertKind, alertKindOf, type Finding } from '../../alerts/index.js';
import {
  ALERT_KINDS,
  type AlertEvent,
  type AlertKind,
  type AlertSubscription,
  type AlertSubscriptions,
} from '../../alerts/model.js';
import { QUEUE } from '../../redis/keys.js';
import type { SccClients } from '../../scc/client.js';
import { SccApiError } from '../../scc/errors.js';
import type { JobsCore } from '../core.js';
import { explainFindings, readByUid, readDeviceSet, readFull, type SourceRead } from './scanReads.js';
import { type ChannelScopeOf, eventsOf, scopeOf, subscribersOf, toldInChannel } from './scanRouting.js';
import { AlertScanStore, type StreamMeta, type StreamScope, streamField } from './state.js';

/** The queue the scan's jobs run on (one scheduler per profile, and one that keeps those in line). */
export const ALERT_SCAN_QUEUE = QUEUE.alertScan;
export const ALERT_RECONCILE_SCHEDULER = 'fwbot-alert-scan-reconcile';
const SCHEDULER_PREFIX = 'alert-scan~';

/** What the scan reports to Prometheus (src/observability/metrics.ts), if anything. */
export interface AlertScanMetrics {
  /** The factor every interval of a profile is stretched by to stay within its budget (1: on time). */
  stretch(profile: string, factor: number): void;
  calls(profile: string, kind: AlertKind, count: number): void;
  events(kind: AlertKind, phase: AlertEvent['phase'], count: number): void;
}

export interface AlertScanDeps {
  core: JobsCore;
  clients: SccClients;
  subscriptions: Pick<AlertSubscriptions, 'list'>;
  /** The incident desk's door (src/jobs/alerts/desk.ts deliverAlerts); takes each event once by its key. */
  deliver(events: AlertEvent[]): Promise<void>;
  metrics?: AlertScanMetrics;
  /** The time (tests: the simulator's clock). */
  now?: () => number;
  /**
   * A channel's scope as the profiles file binds it (src/config/scope.ts channelScopes): a customer channel
   * is told its tenant's own profile only (scanRouting.ts toldInChannel). Absent: no customer channels.
   */
  channelScope?: ChannelScopeOf;
}

/** What one scan of one profile did. */
export interface ProfileScan {
  profile: string;
  /** Streams read, as `<kind>:<scope>` with `(full)`, `(sooner)` or `(baseline)`. */
  read: string[];
  events: AlertEvent[];
  calls: number;
  stretch: number;
  /** Kinds not scanned because the token cannot read them. */
  unreadable: AlertKind[];
}

interface Stream {
  kind: AlertKind;
  spec: AnyAlertKind;
  scope: StreamScope;
  subscribers: AlertSubscription[];
}

/** Kinds a token with these roles cannot read. */
export function unreadableKinds(roles: readonly string[]): AlertKind[] {
  return ALERT_KINDS.filter((kind) => !alertKindOf(kind).tokenRoles.some((role) => roles.includes(role)));
}

const schedulerId = (profile: string) => `${SCHEDULER_PREFIX}${encodeURIComponent(profile)}`;

/**
 * A profile's scan every `tickMs`, the first at once (BullMQ runs an `every` scheduler's first job when it
 * is made): what reconcile keeps in line, and what a new subscription starts without waiting for it.
 */
export async function scheduleScans(queue: Queue, profile: string, tickMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    schedulerId(profile),
    { every: tickMs },
    { name: 'scan', data: { profile }, opts: { removeOnComplete: true, removeOnFail: 100 } },
  );
}

export function createAlertScanner(deps: AlertScanDeps) {
  const { core, clients } = deps;
  const { log } = core;
  const settings = core.schedule.alerts;
  const now = deps.now ?? Date.now;
  const store = new AlertScanStore(core.redis, core.prefix);
  /** Per profile: the kinds its token cannot read, and when that was read (getToken). */
  const tokens = new Map<string, { unreadable: AlertKind[]; at: number }>();
  /** What was said once (per profile): unreadable kinds, kinds with no list across tenants. */
  const said = new Map<string, string>();
  /** Streams SCC refused (401/403), by profile, kind and scope: not read again until then. */
  const refusedUntil = new Map<string, number>();

  const sayOnce = (profile: string, topic: string, sentence: string) => {
    const key = `${profile}\u0000${topic}`;
    if (said.get(key) === sentence) return;
    said.set(key, sentence);
    log.warn({ profile }, sentence);
  };

  const tokenLimits = async (profile: string): Promise<AlertKind[]> => {
    const known = tokens.get(profile);
    if (known && now() - known.at < settings.tokenRefreshMs) return known.unreadable;
    let unreadable: AlertKind[] = [];
    try {
      const { data } = await clients.get(profile).call('getToken', {});
      unreadable = unreadableKinds((data.roles ?? []).map(String));
    } catch (error) {
      // Without the token's roles, every kind is tried: one that is refused says so when it is read.
      log.debug({ err: error, profile }, 'alert scan: the token’s roles could not be read');
    }
    tokens.set(profile, { unreadable, at: now() });
    return unreadable;
  };

  /** The subscribed kinds the token cannot read, said once (as long as they stay the same). */
  const unreadableSubscribed = async (
    profile: string,
    subscriptions: readonly AlertSubscription[],
  ): Promise<AlertKind[]> => {
    if (subscriptions.length === 0) return [];
    const subscribed = new Set(subscriptions.flatMap((s) => s.kinds));
    const unreadable = (await tokenLimits(profile)).filter((kind) => subscribed.has(kind));
    if (unreadable.length > 0) {
      const needs = [...new Set(unreadable.flatMap((kind) => alertKindOf(kind).tokenRoles))].join(' or ');
      sayOnce(
        profile,
        'token',
        `alerts of ${unreadable.join(', ')} are not scanned on profile ${profile}: its SCC token lacks the role (${needs})`,
      );
    }
    return unreadable;
  };

  const streamsOf = (
    profile: string,
    subscriptions: readonly AlertSubscription[],
    unreadable: readonly AlertKind[],
  ) => {
    const streams: Stream[] = [];
    for (const kind of ALERT_KINDS) {
      if (unreadable.includes(kind)) continue;
      const spec = alertKindOf(kind);
      for (const scope of ['own', 'msp'] as const) {
        const subscribers = subscribersOf(subscriptions, kind, scope);
        if (subscribers.length === 0) continue;
        if (scope === 'msp' && !spec.acrossTenants) {
          sayOnce(
            profile,
            `msp:${kind}`,
            `alerts of ${kind} are not told across managed tenants: SCC has no such list (profile ${profile})`,
          );
          continue;
        }
        streams.push({ kind, spec, scope, subscribers });
      }
    }
    return streams;
  };

  /** Each interval's multiplier so the profile's streams stay within its SCC calls per minute. */
  const stretchFor = (streams: readonly Stream[], metas: ReadonlyMap<string, StreamMeta>): number => {
    let perMinute = 0;
    for (const stream of streams) {
      const meta = metas.get(streamField(stream.kind, stream.scope));
      perMinute += ((meta?.fullCalls ?? 1) * 60_000) / settings.intervals[stream.kind];
      if (stream.spec.sooner && meta?.soonerCalls)
        perMinute +=
          (meta.soonerCalls * 60_000) / Math.min(settings.incidentsEveryMs, settings.intervals[stream.kind]);
    }
    return Math.max(1, perMinute / settings.callsPerMinute);
  };

  /** Each subscription's `--devices` as uids: cached in Redis, listed again every deviceSetRefreshMs. */
  const deviceSets = async (profile: string, subscriptions: readonly AlertSubscription[]) => {
    const sets = new Map<string, Set<string>>();
    let calls = 0;
    for (const subscription of subscriptions) {
      if (subscription.devices === undefined) continue;
      const scope = scopeOf(subscription);
      let set = await store.deviceSet(profile, scope, subscription.devices);
      if (!set) {
        try {
          const read = await readDeviceSet(clients.get(profile), scope, subscription.devices);
          calls += read.calls;
          await store.saveDeviceSet(
            profile,
            scope,
            subscription.devices,
            read.uids,
            settings.deviceSetRefreshMs,
          );
          set = new Set(read.uids);
        } catch (error) {
          // This subscription hears of no device until its query can be listed again; the others go on.
          log.warn(
            { err: error, profile, subscription: subscription.id },
            'alert scan: a subscription’s device query could not be listed',
          );
          set = new Set();
        }
      }
      sets.set(subscription.id, set);
    }
    return { sets, calls };
  };

  const explain = (profile: string, stream: Stream, findings: Finding[]): Promise<number> =>
    stream.scope === 'own'
      ? explainFindings(clients.get(profile), stream.spec, findings, log)
      : Promise.resolve(0);

  const scanStream = async (
    profile: string,
    stream: Stream,
    stretch: number,
    sets: ReadonlyMap<string, ReadonlySet<string>>,
    report: ProfileScan,
  ): Promise<void> => {
    const { kind, spec, scope } = stream;
    const at = now();
    const streamKey = `${profile}\u0000${streamField(kind, scope)}`;
    if ((refusedUntil.get(streamKey) ?? 0) > at) return;
    const interval = settings.intervals[kind] * stretch;
    const read = await store.read(profile, kind, scope, spec.state);
    // What is due and whether this is the baseline come from the meta read with the state and its version,
    // not from the profile's metas read earlier: another scan may have committed or forgotten it since.
    const meta = read.meta;
    const fullDue = meta.lastFullAt === undefined || at - meta.lastFullAt >= interval;
    const soonerUids = spec.sooner
      ? [...read.state].filter(([, state]) => spec.sooner?.(state)).map(([uid]) => uid)
      : [];
    const lastLook = Math.max(meta.lastFullAt ?? 0, meta.lastSoonerAt ?? 0);
    const soonerDue =
      !fullDue &&
      soonerUids.length > 0 &&
      at - lastLook >= Math.min(settings.incidentsEveryMs * stretch, interval);
    if (!fullDue && !soonerDue) return;

    const scc = clients.get(profile);
    const ctx = { scc, scope, now: at, runsPerScan: settings.runsPerScan, previous: read.state };
    let source: SourceRead;
    try {
      source = fullDue ? await readFull(spec, ctx) : await readByUid(spec, ctx, soonerUids);
    } catch (error) {
      if (error instanceof SccApiError && (error.status === 403 || error.status === 401)) {
        // Said once, and not asked again for a while: a refusal is not a scan failing every tick. The
        // stream keeps its state, so its open incidents still close once it can be read again.
        refusedUntil.set(streamKey, at + settings.tokenRefreshMs);
        sayOnce(
          profile,
          `refused:${kind}:${scope}`,
          `alerts of ${kind} cannot be read on profile ${profile}: SCC refused (${error.status}); tried again in ${Math.round(settings.tokenRefreshMs / 60_000)} min`,
        );
        return;
      }
      throw error;
    }
    const baseline = meta.baselinedAt === undefined;
    const detected = spec.detect({
      profile,
      previous: read.state,
      items: source.items,
      covers: source.covers,
      now: at,
      settings: { stagedAfterMs: settings.stagedAfterMs },
    });
    let calls = source.calls;
    const findings = baseline ? [] : detected.findings;
    calls += await explain(profile, stream, findings);
    // A stream not read for much longer than it should have been (SCC, Redis or fwbot away) tells what it
    // finds as one catch-up summary, not as a flood of stale events.
    const lastLookAt = Math.max(meta.lastFullAt ?? 0, meta.lastSoonerAt ?? 0);
    const catchUp =
      !baseline && lastLookAt > 0 && at - lastLookAt > Math.max(settings.catchUpAfterMs, 3 * interval);
    const events = eventsOf(
      stream.kind,
      findings,
      profile,
      stream.subscribers,
      sets,
      catchUp ? { catchUp: true } : {},
    );
    const nextMeta: StreamMeta = {
      ...meta,
      ...(baseline ? { baselinedAt: at } : {}),
      ...(fullDue
        ? { lastFullAt: at, fullCalls: source.calls }
        : { lastSoonerAt: at, soonerCalls: source.calls }),
    };
    const committed = await store.commit(profile, kind, scope, read, detected.next, nextMeta, events);
    report.read.push(`${streamField(kind, scope)} (${baseline ? 'baseline' : fullDue ? 'full' : 'sooner'})`);
    report.calls += calls;
    deps.metrics?.calls(profile, kind, calls);
    if (!committed) {
      log.debug({ profile, kind, scope }, 'alert scan: another scan committed this stream first');
      return;
    }
    report.events.push(...events);
    for (const event of events) deps.metrics?.events(event.kind, event.phase, 1);
  };

  /** The subscriptions whose channels may be told them; the others are said once and not read for. */
  const toldSubscriptions = (profile: string, subscriptions: AlertSubscription[]): AlertSubscription[] => {
    const channelScope = deps.channelScope;
    if (channelScope === undefined) return subscriptions;
    const told: AlertSubscription[] = [];
    for (const subscription of subscriptions) {
      const scope = channelScope(subscription.channelId, subscription);
      if (toldInChannel(subscription, scope, clients.names())) told.push(subscription);
      else
        sayOnce(
          profile,
          `customer-channel:${subscription.id}`,
          `alert subscription ${subscription.id} is not told in ${subscription.channelId}: that channel is scoped to the tenant ${scope?.tenant ?? ''} (${scope?.bindingKey ?? ''}), so it hears only that tenant's own profile; unsubscribe it there`,
        );
    }
    return told;
  };

  /** One scan of a profile: every stream that is due, then the outbox to the desk. */
  const scanProfile = async (profile: string): Promise<ProfileScan> => {
    const report: ProfileScan = { profile, read: [], events: [], calls: 0, stretch: 1, unreadable: [] };
    // What an earlier scan committed and could not hand over (a crash, the desk's queue away) goes first.
    await store.drain(profile, deps.deliver);
    // The streams as kept, read before the subscriptions: a subscription made after this read is in the
    // list, or its first read committed after it and `forget` leaves that alone.
    const kept = await store.kept(profile);
    const subscriptions = toldSubscriptions(profile, await deps.subscriptions.list({ profile }));
    report.unreadable = await unreadableSubscribed(profile, subscriptions);
    const streams = streamsOf(profile, subscriptions, report.unreadable);
    const metas = new Map([...kept].map(([field, { meta }]) => [field, meta]));
    // A stream no subscription reads any more is forgotten: a later subscription starts from its own first read.
    const wanted = new Set(streams.map((stream) => streamField(stream.kind, stream.scope)));
    for (const [field, { version }] of kept) {
      if (wanted.has(field)) continue;
      await store.forget(profile, field, version);
      metas.delete(field);
    }
    if (streams.length === 0) return report;
    report.stretch = stretchFor(streams, metas);
    deps.metrics?.stretch(profile, report.stretch);
    const sets = await deviceSets(profile, subscriptions);
    report.calls += sets.calls;
    for (const stream of streams) {
      try {
        await scanStream(profile, stream, report.stretch, sets.sets, report);
      } catch (error) {
        // One stream's trouble (SCC down, a refused list) does not stop the others; the next tick retries it.
        log.warn(
          { err: error, profile, kind: stream.kind, scope: stream.scope },
          'alert scan: a stream could not be read',
        );
      }
    }
    await store.saveHealth(profile, {
      at: now(),
      stretch: report.stretch,
      callsPerMinute: settings.callsPerMinute,
      ...(report.unreadable.length > 0
        ? { unreadable: `${report.unreadable.join(', ')} not scanned (the token lacks the role)` }
        : {}),
    });
    await store.drain(profile, deps.deliver);
    return report;
  };

  const queue = new Queue(ALERT_SCAN_QUEUE, { connection: core.redis, prefix: core.prefix });
  core.redisHealth.absorb(`queue ${ALERT_SCAN_QUEUE}`, queue);

  /** One scheduler per configured profile that has subscriptions; the others' are removed. */
  const reconcile = async (): Promise<string[]> => {
    const configured = new Set(clients.names());
    const wanted = new Set(
      (await deps.subscriptions.list()).map((s) => s.profile).filter((profile) => configured.has(profile)),
    );
    for (const profile of wanted) await scheduleScans(queue, profile, settings.tickMs);
    for (const scheduler of await queue.getJobSchedulers()) {
      const id = scheduler.key;
      if (!id.startsWith(SCHEDULER_PREFIX)) continue;
      const profile = decodeURIComponent(id.slice(SCHEDULER_PREFIX.length));
      if (wanted.has(profile)) continue;
      // Read before the subscriptions are asked again: one made meanwhile keeps its scheduler and streams.
      const kept = await store.kept(profile);
      if (configured.has(profile) && (await deps.subscriptions.list({ profile })).length > 0) continue;
      await queue.removeJobScheduler(id);
      // Its streams are forgotten, so a later subscription starts from its own first read.
      for (const [field, { version }] of kept) await store.forget(profile, field, version);
    }
    return [...wanted].sort();
  };

  const processor: Processor = async (job: Job) => {
    if (job.name === 'reconcile') return { profiles: await reconcile() };
    const profile = typeof job.data?.profile === 'string' ? job.data.profile : undefined;
    if (!profile || !clients.names().includes(profile)) return { skipped: true };
    const scan = await scanProfile(profile);
    return { read: scan.read.length, events: scan.events.length, calls: scan.calls, stretch: scan.stretch };
  };

  return {
    store,
    queue,
    scanProfile,
    reconcile,
    processor,
    /** The scheduler that keeps the per-profile schedulers in line with the subscriptions; and a first pass. */
    async start(): Promise<void> {
      await queue.upsertJobScheduler(
        ALERT_RECONCILE_SCHEDULER,
        { every: settings.reconcileEveryMs },
        { name: 'reconcile', data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
      await reconcile();
    },
    close: () => queue.close(),
  };
}

export type AlertScanner = ReturnType<typeof createAlertScanner>;
