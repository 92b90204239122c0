// The Redis-backed services a running fwbot gives operations (src/catalogue/services.ts), kept in memory:
// an audit trail holding the records given, a watch registry, and alert subscriptions with an incident
// desk holding the incidents given. For tests of the operations that run on them (audit, vpn watch /
// unwatch, alerts) without the approvals service or the jobs.
import type { AccessRecord, AccessRecordStore } from '../../src/access/records.js';
import type { AlertService, AlertSubscription, OpenIncident } from '../../src/alerts/model.js';
import type {
  AuditRecord,
  ConfigSnapshot,
  ConfigSnapshots,
  OperationServices,
  ScheduledRun,
  ScheduledRuns,
  UpgradeWatch,
} from '../../src/catalogue/operation.js';
import { UserError } from '../../src/model/errors.js';

/** Subscriptions in a list (ids `sub001`, `sub002`…) and a desk over the incidents given. */
export function memoryAlerts(incidents: OpenIncident[] = []): AlertService {
  const subscriptions: AlertSubscription[] = [];
  const same = (a: Omit<AlertSubscription, 'id' | 'createdAt' | 'createdBy'>, b: typeof a) =>
    JSON.stringify([a.channelId, a.profile, [...a.kinds].sort(), a.devices, a.scope]) ===
    JSON.stringify([b.channelId, b.profile, [...b.kinds].sort(), b.devices, b.scope]);
  return {
    subscriptions: {
      async subscribe(wanted) {
        const known = subscriptions.find((s) => same(s, wanted));
        if (known) return { subscription: known, created: false };
        const id = `sub${String(subscriptions.length + 1).padStart(3, '0')}`;
        const subscription = { ...wanted, id, createdAt: '2026-11-26T10:00:00.000Z' };
        subscriptions.push(subscription);
        return { subscription, created: true };
      },
      async unsubscribe(channelId, id) {
        const at = subscriptions.findIndex((s) => s.id === id && s.channelId === channelId);
        return at >= 0 ? subscriptions.splice(at, 1)[0] : undefined;
      },
      async list(filter = {}) {
        return subscriptions.filter(
          (s) =>
            (filter.channelId === undefined || s.channelId === filter.channelId) &&
            (filter.profile === undefined || s.profile === filter.profile),
        );
      },
    },
    incidents: {
      async acknowledge(id, userId) {
        const incident = incidents.find((i) => i.id === id);
        if (incident) incident.acknowledgedBy ??= userId;
        return incident;
      },
      async mute() {},
      async openIncidents(channels) {
        return incidents.filter((i) => channels.includes(i.channelId));
      },
      async find(channels, id) {
        return incidents.find((i) => i.id === id && channels.includes(i.channelId));
      },
    },
    // Nothing is wrong when a subscription starts (its first read is tested through the surfaces).
    async startFromNow() {
      return { current: 0 };
    },
  };
}

export function memoryServices(
  audit: readonly AuditRecord[] = [],
  incidents: OpenIncident[] = [],
): OperationServices {
  const watches: UpgradeWatch[] = [];
  return {
    watches: {
      async watch(watch) {
        const known = watches.some((w) => w.channelId === watch.channelId && w.profile === watch.profile);
        if (!known) watches.push(watch);
        return { created: !known };
      },
      async unwatch(channelId, profile) {
        const at = watches.findIndex((w) => w.channelId === channelId && w.profile === profile);
        if (at >= 0) watches.splice(at, 1);
        return { removed: at >= 0 };
      },
      async list() {
        return watches;
      },
    },
    audit: { latest: async (count) => audit.slice(0, count) },
    alerts: memoryAlerts(incidents),
    accessRecords: memoryAccessRecords(),
  };
}

/** Access records in a list, numbered per profile as the Redis store (src/access/records.ts) does. */
export function memoryAccessRecords(): AccessRecordStore {
  const kept: AccessRecord[] = [];
  const store: AccessRecordStore = {
    async add(record) {
      const id = String(kept.filter((r) => r.profile === record.profile).length + 1);
      kept.push({ ...record, id });
      return { ...record, id };
    },
    get: async (profile, id) => kept.find((r) => r.profile === profile && r.id === id),
    find: async (profile, ref) =>
      kept.find((r) => r.profile === profile && (r.id === ref || r.ruleUid === ref)),
    async remove(profile, id) {
      const at = kept.findIndex((r) => r.profile === profile && r.id === id);
      if (at >= 0) kept.splice(at, 1);
      return at >= 0;
    },
    async update(profile, id, change) {
      const at = kept.findIndex((r) => r.profile === profile && r.id === id);
      const current = kept[at];
      if (!current) throw new UserError(`fwbot keeps no access rule ${id} in profile ${profile}.`);
      kept[at] = { ...current, ...change };
      return kept[at];
    },
    list: async (profile, filter = {}) =>
      kept.filter(
        (r) =>
          r.profile === profile &&
          (filter.deviceUid === undefined || r.deviceUid === filter.deviceUid) &&
          (filter.requester === undefined || r.requester === filter.requester) &&
          (filter.expiringBefore === undefined ||
            (r.expiresAt !== undefined && r.expiresAt < filter.expiringBefore)),
      ),
  };
  return store;
}

/** Configuration snapshots in a list, numbered per profile and device as the Redis store does. */
export function memorySnapshots(retentionDays = 30): ConfigSnapshots {
  const kept: (ConfigSnapshot & { profile: string })[] = [];
  return {
    retentionDays,
    async keep(profile, snapshot) {
      const id = String(
        kept.filter((s) => s.profile === profile && s.deviceUid === snapshot.deviceUid).length + 1,
      );
      kept.push({ ...snapshot, id, profile });
      return id;
    },
    async list(profile, deviceUid) {
      return kept
        .filter((s) => s.profile === profile && s.deviceUid === deviceUid)
        .map(({ text, profile: _profile, ...entry }) => ({ ...entry, bytes: Buffer.byteLength(text) }))
        .reverse();
    },
    async get(profile, deviceUid, id) {
      const found = kept.find((s) => s.profile === profile && s.deviceUid === deviceUid && s.id === id);
      if (!found) return undefined;
      const { profile: _profile, ...snapshot } = found;
      return snapshot;
    },
  };
}

/**
 * Held requests in a list, as the approvals keep them in Redis (src/approvals/scheduled.ts): a cancel by
 * the requester or an approver removes one; anyone else, or an unknown id, is refused in a sentence.
 */
export function memoryScheduled(runs: ScheduledRun[] = []): ScheduledRuns {
  const held = [...runs];
  return {
    async list(profile) {
      return held.filter((run) => run.profile === profile).sort((a, b) => a.runAt - b.runAt);
    },
    async cancel(id, profile, userId) {
      const at = held.findIndex((run) => run.id === id && run.profile === profile);
      const run = held[at];
      if (!run) throw new UserError(`No scheduled request ${id} is known.`);
      if (![run.requester, ...run.approvers].includes(userId))
        throw new UserError(`Only its requester or approvers may cancel request ${id}.`);
      held.splice(at, 1);
      return run;
    },
  };
}
