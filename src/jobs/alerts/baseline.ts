// A new subscription's first read, made when it is made (`/fw alerts subscribe`), with the requester's SCC
// client: the subscription starts from that moment, not from whenever the scan's first run gets to it. A
// stream (profile × kind × scope) no other subscription reads is committed as of now (a new one, or one
// kept from a subscription since ended), so what goes wrong from now on is a difference the next scan finds
// and tells as an incident; a stream the scan reads for others goes on from its own state. What is already wrong now (AlertKindSpec.current: a read from nothing, so a device offline
// since long before is found too) is handed to the incident desk in one batch for the subscription's
// channel only, marked `current`: one "right now" summary there, each incident in its thread with its
// buttons, as a new Alertmanager receiver gets what is already firing. Then the profile's scan is
// scheduled at once, without waiting for the reconcile pass.
import type { Logger } from 'pino';
import { type AnyAlertKind, alertKindOf } from '../../alerts/index.js';
import type {
  AlertEvent,
  AlertSubscription,
  AlertSubscriptions,
  SubscriptionStart,
} from '../../alerts/model.js';
import type { SccClient } from '../../scc/client.js';
import { SccApiError } from '../../scc/errors.js';
import type { JobsCore } from '../core.js';
import { explainFindings, readDeviceSet, readFull } from './scanReads.js';
import { eventsOf, scopeOf, subscribersOf } from './scanRouting.js';
import { AlertScanStore, type StreamScope } from './state.js';

/** A first read that another scan committed first is read again, this many times at most. */
const ATTEMPTS = 3;

export interface SubscriptionBaselineDeps {
  core: JobsCore;
  subscriptions: Pick<AlertSubscriptions, 'list'>;
  /** The incident desk's door (deliverAlerts): one batch, so the channel gets one summary. */
  deliver(events: AlertEvent[]): Promise<void>;
  /** Starts the profile's scans (scan.ts scheduleScans). */
  schedule(profile: string): Promise<void>;
  /** Whether a subscription is told in its channel (a customer channel hears its tenant only); default yes. */
  told?: (subscription: AlertSubscription) => boolean;
  /** The time (tests: the simulator's clock). */
  now?: () => number;
  log?: Logger;
}

export class SubscriptionBaseline {
  readonly #deps: SubscriptionBaselineDeps;
  readonly #store: AlertScanStore;
  readonly #now: () => number;
  readonly #log: Logger;

  constructor(deps: SubscriptionBaselineDeps) {
    this.#deps = deps;
    this.#store = new AlertScanStore(deps.core.redis, deps.core.prefix);
    this.#now = deps.now ?? Date.now;
    this.#log = deps.log ?? deps.core.log;
  }

  /** Reads what the subscription hears, as of now, and tells its channel what is already wrong. */
  async start(subscription: AlertSubscription, scc: SccClient): Promise<SubscriptionStart> {
    // A channel that may not hear it (scanRouting.ts toldInChannel) is not read for: the scan says why.
    if (this.#deps.told?.(subscription) === false) return { current: 0 };
    const scope = scopeOf(subscription);
    const sets = await this.#deviceSets(subscription, scc, scope);
    const others = (await this.#deps.subscriptions.list({ profile: subscription.profile })).filter(
      (other) => other.id !== subscription.id && this.#deps.told?.(other) !== false,
    );
    const events: AlertEvent[] = [];
    for (const kind of subscription.kinds) {
      const spec = alertKindOf(kind);
      // As the scan: SCC has no such list across managed tenants (subscribe leaves such kinds out).
      if (scope === 'msp' && !spec.acrossTenants) continue;
      const shared = subscribersOf(others, kind, scope).length > 0;
      try {
        events.push(...(await this.#stream(subscription, spec, { scope, shared }, scc, sets)));
      } catch (error) {
        // A list SCC refuses this token is not this subscription's failure: the scan says so once, and
        // reads it from its own first run once SCC lets it.
        if (!(error instanceof SccApiError && (error.status === 401 || error.status === 403))) throw error;
        this.#log.warn(
          { kind, profile: subscription.profile },
          'alert subscription: SCC refused a first read',
        );
      }
    }
    if (events.length > 0) await this.#deps.deliver(events);
    await this.#deps.schedule(subscription.profile);
    return { current: events.length };
  }

  /** The subscription's `--devices` as uids, read now and kept where the scan looks for them. */
  async #deviceSets(
    subscription: AlertSubscription,
    scc: SccClient,
    scope: StreamScope,
  ): Promise<Map<string, Set<string>>> {
    const query = subscription.devices;
    if (query === undefined) return new Map();
    const { profile } = subscription;
    const kept = await this.#store.deviceSet(profile, scope, query);
    if (kept) return new Map([[subscription.id, kept]]);
    const read = await readDeviceSet(scc, scope, query);
    const refreshMs = this.#deps.core.schedule.alerts.deviceSetRefreshMs;
    await this.#store.saveDeviceSet(profile, scope, query, read.uids, refreshMs);
    return new Map([[subscription.id, new Set(read.uids)]]);
  }

  /**
   * One stream read now, and what is wrong now. Committed as of now unless another subscription's scan
   * reads it already (`shared`) and has begun (a scan that commits it meanwhile wins, and this read is then
   * only what the subscription is told).
   */
  async #stream(
    subscription: AlertSubscription,
    spec: AnyAlertKind,
    stream: { scope: StreamScope; shared: boolean },
    scc: SccClient,
    sets: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<AlertEvent[]> {
    const { profile } = subscription;
    const { kind } = spec;
    const { scope } = stream;
    const settings = this.#deps.core.schedule.alerts;
    for (let attempt = 1; ; attempt += 1) {
      const at = this.#now();
      const read = await this.#store.read(profile, kind, scope, spec.state);
      const fresh = !stream.shared || read.meta.baselinedAt === undefined;
      // From nothing when it starts afresh (the audit log then from an hour back, not from a mark kept long ago).
      const previous = fresh ? new Map<string, unknown>() : read.state;
      const source = await readFull(spec, {
        scc,
        scope,
        now: at,
        runsPerScan: settings.runsPerScan,
        previous,
      });
      const fromNothing = spec.detect({
        profile,
        previous: new Map(),
        items: source.items,
        covers: source.covers,
        now: at,
        settings: { stagedAfterMs: settings.stagedAfterMs },
      });
      if (fresh) {
        const meta = { baselinedAt: at, lastFullAt: at, fullCalls: source.calls };
        if (!(await this.#store.commit(profile, kind, scope, read, fromNothing.next, meta, []))) {
          if (attempt < ATTEMPTS) continue;
          throw new Error(`alert subscription: the first read of ${kind} was overtaken ${ATTEMPTS} times`);
        }
      }
      const wrongNow = fromNothing.findings.filter((finding) => spec.current(finding));
      if (scope === 'own') await explainFindings(scc, spec, wrongNow, this.#log);
      return eventsOf(
        kind,
        wrongNow,
        profile,
        [subscription],
        sets,
        { current: true },
        `current|${subscription.id}|`,
      );
    }
  }
}
