// Audit: security-relevant events of SCC's audit log (users added to or removed from the tenant, roles
// changed, and the same for Active Directory groups), each told once. Read: the audit log since the newest
// event already seen, every minute. Only a token with an admin role may read it (its tokenRoles), and
// SCC has no audit log across managed tenants: this kind is the profile's own tenant only.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import type { AuditLog } from '../../scc/generated/models.js';
import { alreadyOver, defineAlertKind, type Finding, incidentKeyOf, transitionKey } from './kind.js';

/** The audit events told, and how each reads after the user's (or group's) name. */
export const AUDIT_EVENTS: Readonly<Record<string, string>> = {
  USER_ADDED_TO_TENANT: 'was added to the tenant',
  USER_REMOVED_FROM_TENANT: 'was removed from the tenant',
  USER_ROLE_CHANGED: 'had their role changed',
  AD_GROUP_ADDED: '(Active Directory group) was added to the tenant',
  AD_GROUP_DELETED: '(Active Directory group) was removed from the tenant',
  AD_GROUP_ROLE_CHANGED: '(Active Directory group) had its role changed',
};

/** The one subject the audit stream keeps: how far the log has been read. */
export const AUDIT_MARK = 'log';

const State = z.object({
  /** eventTime of the newest event seen. */
  time: z.string(),
  /** The events seen at exactly that time (the next read starts at it, inclusive). */
  uids: z.array(z.string()),
});
type State = z.infer<typeof State>;

/** Where the next read starts: the newest event seen, else an hour back on the first read. */
export function auditSince(previous: ReadonlyMap<string, State>, now: number): string {
  return previous.get(AUDIT_MARK)?.time ?? new Date(now - 3_600_000).toISOString();
}

function timeOf(log: AuditLog): number {
  return Date.parse(log.eventTime ?? '');
}

export const audit = defineAlertKind({
  kind: 'audit',
  summary: 'users added to or removed from a tenant, roles changed (SCC audit log)',
  // The audit log is an administrator's to read.
  tokenRoles: ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN'],
  words: {
    opened: 'audit event',
    closed: 'over',
    noun: 'event',
    notice: 'audit event',
    now: ['audit event', 'audit events'],
  },
  source: {
    from: 'auditLogs',
    q: (since) => `eventType:(${Object.keys(AUDIT_EVENTS).join(' OR ')}) AND eventTime:[${since} TO *]`,
  },
  acrossTenants: false,
  intervalMs: 60_000,
  state: State,
  current: alreadyOver,
  detect({ previous, items, profile }) {
    const mark = previous.get(AUDIT_MARK);
    const markTime = mark ? Date.parse(mark.time) : Number.NEGATIVE_INFINITY;
    const seenAtMark = new Set(mark?.uids ?? []);
    const fresh = items
      .filter((log) => Number.isFinite(timeOf(log)) && log.eventType && log.eventType in AUDIT_EVENTS)
      .filter((log) => timeOf(log) > markTime || (timeOf(log) === markTime && !seenAtMark.has(log.uid)))
      .sort((a, b) => timeOf(a) - timeOf(b));
    const findings: Finding[] = fresh.map((log) => {
      const type = log.eventType ?? '';
      const who = log.username || 'someone';
      const at = new Date(timeOf(log)).toISOString();
      const roles =
        (log.roles ?? []).length > 0 ? [`Roles: ${(log.roles ?? []).map(untrusted).join(', ')}`] : [];
      return {
        key: transitionKey('audit', log.uid, type, undefined, undefined, at),
        subject: { type: 'user', uid: who, name: who },
        incidentKey: incidentKeyOf('audit', profile, log.uid),
        phase: 'notice',
        state: type,
        headline: `${untrusted(who)} ${AUDIT_EVENTS[type] ?? untrusted(type)}`,
        details: [
          ...(log.eventDescription ? [`SCC says: ${untrusted(log.eventDescription)}`] : []),
          ...roles,
        ],
        at,
        actions: [],
        deviceUids: [],
      };
    });
    const newest = fresh.at(-1);
    const next = new Map(previous);
    if (newest) {
      const time = timeOf(newest);
      const atNewest = fresh.filter((log) => timeOf(log) === time).map((log) => log.uid);
      const kept = time === markTime ? [...seenAtMark, ...atNewest] : atNewest;
      next.set(AUDIT_MARK, { time: new Date(time).toISOString(), uids: kept });
    }
    return { next, findings };
  },
});
