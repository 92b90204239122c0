// Remote-access VPN sessions and MFA events, as a responder reads them before acting: who is connected,
// through which headend, from which public address and place, for how long; and how a user's second
// factors went (a denied one from an unusual place is what to look at).
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { MfaEvent, RaVpnSession } from '../scc/generated/models.js';
import { code, counted, fieldBlocks, humanEnum, NONE, time, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

/** `Lagos, Nigeria`: the place SCC located a client in (city and country; the subdivision when no city). */
export function placeOf(
  location: { city?: string | null; subdivision?: string | null; country?: string | null } | null | undefined,
): string {
  const parts = [location?.city ?? location?.subdivision, location?.country].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  return parts.length > 0 ? parts.join(', ') : NONE;
}

/** `3 h 12 min`: how long a session had lasted at its last activity (SCC's own two times, not the clock). */
export function sessionLength(session: Pick<RaVpnSession, 'loginTime' | 'lastActiveTime'>): string {
  const from = Date.parse(session.loginTime ?? '');
  const to = Date.parse(session.lastActiveTime ?? '');
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return NONE;
  const minutes = Math.floor((to - from) / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  const rest = minutes % 60;
  return days > 0 ? `${days} d ${hours} h` : `${hours} h ${rest} min`;
}

/** `12.3 MB`: traffic counters people can compare at a glance. */
export function bytes(count: number | null | undefined): string {
  if (typeof count !== 'number') return NONE;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = count;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export interface SessionListSpec {
  sessions: readonly RaVpnSession[];
  /** Device names by UID (a headend missing here is shown by its UID). */
  deviceNames: ReadonlyMap<string, string>;
  page: PageInfo;
  /** What the list is filtered by, as typed (query, user, device). */
  filter: string | undefined;
}

export function renderSessionList(spec: SessionListSpec, meta: RenderMeta): View {
  const device = (uid: string) => spec.deviceNames.get(uid) ?? uid;
  return listView(
    {
      title: 'Remote-access VPN sessions',
      page: spec.page,
      query: spec.filter,
      columns: ['User', 'Device', 'Public address', 'Location', 'Connected', 'Status', 'Session'],
      widths: [40, undefined, undefined, undefined, undefined, undefined, 36],
      rows: spec.sessions.map((s) => [
        s.username,
        device(s.deviceUid),
        s.publicIp,
        placeOf(s.location),
        sessionLength(s),
        humanEnum(s.status),
        s.uid,
      ]),
      hint: '`/fw vpn session <session>` for one session, `/fw vpn mfa <user>` for the user’s sign-ins. Connected: from sign-in to the last activity SCC saw.',
      empty: 'no sessions.',
    },
    meta,
  );
}

export function renderSession(session: RaVpnSession, deviceName: string | undefined): View {
  const blocks: ViewBlock[] = [
    { kind: 'header', text: `VPN session of ${untrusted(truncate(session.username, 120))}` },
    ...fieldBlocks([
      ['User', session.username],
      ['Device', deviceName ?? session.deviceUid],
      ['Status', humanEnum(session.status)],
      ['Public address', session.publicIp],
      ['Location', placeOf(session.location)],
      ['Assigned address', [session.assignedIpV4, session.assignedIpV6].filter(Boolean).join(', ')],
      ['Signed in', time(session.loginTime)],
      ['Last active', time(session.lastActiveTime)],
      ['Connected', sessionLength(session)],
      ['Received / sent', `${bytes(session.bytesRx)} / ${bytes(session.bytesTx)}`],
      ['Client OS', [session.os?.type, session.os?.version].filter(Boolean).join(' ')],
      ['Audit session', session.auditSessionId],
      ['Session', session.uid],
    ]),
  ];
  return {
    summary: `VPN session of ${session.username}: ${humanEnum(session.status)}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export function renderMfaEvents(
  user: string,
  events: readonly MfaEvent[],
  page: PageInfo,
  meta: RenderMeta,
): View {
  const denied = events.filter((e) => e.result === 'DENIED').length;
  const places = new Set(events.map((e) => placeOf(e.clientDevice?.location)));
  const from = (e: MfaEvent) =>
    [e.clientDevice?.ipAddress, placeOf(e.clientDevice?.location)].filter((p) => p && p !== NONE).join(', ');
  const notes: string[] = [];
  if (denied > 0) notes.push(`${counted(denied, 'denied sign-in')} on this page.`);
  if (places.size > 1) notes.push(`Signed in from ${counted(places.size, 'place')}.`);
  return listView(
    {
      title: `MFA events of ${code(user)}`,
      page,
      columns: ['Time', 'User', 'Result', 'Reason', 'Second factor', 'From', 'Application'],
      widths: [undefined, 40, undefined, undefined, undefined, 40],
      rows: events.map((e) => [
        time(e.timestamp),
        e.username,
        humanEnum(e.result),
        e.reason,
        e.secondFactor,
        from(e) || NONE,
        e.application,
      ]),
      hint: [...notes, '`/fw vpn sessions --user <user>` for the user’s sessions.'].join(' '),
      empty: 'no MFA events.',
    },
    meta,
  );
}
