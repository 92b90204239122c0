// How the incident desk's messages read (pure: plain data in, a View out, src/render/blocks.ts makes the
// Block Kit): one incident's message as it evolves and closes with its duration, a burst's summary with
// its table ("212 of 300 back online"), a catch-up summary ("While fwbot could not watch …"), the thread
// replies with each transition's details, and the buttons every incident carries (Acknowledge, Mute 1 h /
// 8 h / 24 h, and the event's own), which run command lines (COMMAND_ACTION) as the person who clicks.
// Each kind's words ("went offline", "back online", "device") are its own (AlertKindSpec.words).
// Headlines and details arrive as mrkdwn whose SCC values the scan already passed through untrusted();
// every other value from SCC (names, states, tenants) goes through it here.
import type { View, ViewBlock } from '../model/view.js';
import { view } from '../model/view.js';
import { counted, time } from '../render/format.js';
import { userMention } from '../render/mrkdwn.js';
import { commandButton } from '../render/paging.js';
import { untrusted } from '../render/untrusted.js';
import { ALERT_KINDS, type AlertKind, type AlertWords, alertKindOf } from './index.js';
import type { AlertAction, AlertSubject } from './vocabulary.js';

/** Who acknowledged, and when (ISO). */
export interface Acknowledgement {
  userId: string;
  at: string;
}

/** One incident's message as the desk knows it now. */
export interface IncidentMessage {
  id: string;
  kind: AlertKind;
  profile: string;
  tenant?: { uid: string; name: string } | undefined;
  subject: AlertSubject;
  /** The latest transition's headline (mrkdwn, values already untrusted()). */
  headline: string;
  /** The opening's details when short enough to show in the message (INLINE_DETAILS); else in the thread. */
  details?: readonly string[] | undefined;
  state: string;
  open: boolean;
  /** A notice: told once, over from the start. */
  notice: boolean;
  openedAt: string;
  closedAt?: string | undefined;
  flaps: number;
  acknowledged?: Acknowledgement | undefined;
  actions: readonly AlertAction[];
}

/** One member of a burst or catch-up summary: a row of its table. */
export interface SummaryMember {
  /** Its kind: a "right now" summary holds several. */
  kind?: AlertKind | undefined;
  /** A notice (a certificate about to expire): told, never "back to normal". */
  notice?: boolean | undefined;
  subject: AlertSubject;
  state: string;
  tenant?: string | undefined;
  open: boolean;
  /** When it opened (ISO). */
  since: string;
  /** How many times it opened again within the flapping window, as an incident of its own would say. */
  flaps?: number | undefined;
}

export interface SummaryMessage {
  id: string;
  /**
   * `notices`: more notices of one kind than a channel should get one by one, told together. `current`:
   * what was already wrong when the channel subscribed, each member a message of its own in its thread.
   */
  type: 'burst' | 'catch-up' | 'notices' | 'current';
  kind: AlertKind;
  profile: string;
  openedAt: string;
  closedAt?: string | undefined;
  open: boolean;
  members: readonly SummaryMember[];
  /** Catch-up only: what happened while fwbot could not watch. */
  counts?: { opened: number; closed: number; other: number } | undefined;
  /** Catch-up only: the earliest change found (ISO). */
  since?: string | undefined;
  acknowledged?: Acknowledgement | undefined;
}

/** At most this many lines of an opening's details are shown in its message; more go in its thread. */
export const INLINE_DETAILS = 5;

/** How long mutes last, as the buttons offer them. */
export const MUTE_CHOICES = ['1h', '8h', '24h'] as const;

/** How a kind's messages read: each kind declares its words (AlertKindSpec.words). */
function wordsOf(kind: AlertKind): AlertWords {
  return alertKindOf(kind).words;
}

/** A burst as one line (the Home, `/fw alerts`): `*300 devices* went offline at once`. */
export function burstHeadline(kind: AlertKind, members: number): string {
  const words = wordsOf(kind);
  return `*${counted(members, words.noun)}* ${words.opened} at once`;
}

/** `12 min`, `2 h 5 min`, `3 d 4 h`, `under a minute`. */
export function duration(fromIso: string, toIso: string): string {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 60_000) return 'under a minute';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

function acknowledgedLine(ack: Acknowledgement | undefined): ViewBlock[] {
  return ack
    ? [{ kind: 'context', text: `:eyes: Acknowledged by ${userMention(ack.userId)} at ${time(ack.at)}` }]
    : [];
}

function where(profile: string, tenant: string | undefined): string {
  return tenant ? `${untrusted(tenant)} (profile ${untrusted(profile)})` : `profile ${untrusted(profile)}`;
}

/** Acknowledge, Mute 1 h/8 h/24 h (devices), then the event's own buttons, while there is something to do. */
function incidentButtons(message: IncidentMessage): ViewBlock[] {
  if (!message.open && !message.notice) return [];
  const buttons = [
    message.acknowledged ? undefined : commandButton('Acknowledge', `alerts ack ${message.id}`, 'primary'),
    ...(message.subject.type === 'device'
      ? MUTE_CHOICES.map((span) =>
          // By the incident's id, which names its profile: a customer channel refuses `--profile`.
          commandButton(`Mute ${span.replace('h', ' h')}`, `alerts mute ${message.id} ${span}`),
        )
      : []),
    ...message.actions.map((action) => commandButton(action.label, action.command, action.style)),
  ].filter((button) => button !== undefined);
  return buttons.length > 0 ? [{ kind: 'actions', buttons }] : [];
}

/** The one message of an incident (or a notice), as it is now. */
export function renderIncident(message: IncidentMessage): View {
  const name = untrusted(message.subject.name);
  const words = wordsOf(message.kind);
  const flapped = message.flaps > 0 ? ` · flapped ${counted(message.flaps, 'time')}` : '';
  let status: string;
  let summary: string;
  if (message.notice) {
    status = `:bell: ${message.headline}`;
    summary = `${message.subject.name}: ${message.kind}`;
  } else if (message.open) {
    status = `:red_circle: ${message.headline}`;
    summary = `${message.subject.name} ${words.opened}`;
  } else {
    const took = duration(message.openedAt, message.closedAt ?? message.openedAt);
    status = `:white_check_mark: *${name}* ${words.closed} after ${took}`;
    summary = `${message.subject.name} ${words.closed} after ${took}`;
  }
  const facts = [
    `${message.kind}`,
    where(message.profile, message.tenant?.name),
    `state ${untrusted(message.state)}`,
    message.notice ? `at ${time(message.openedAt)}` : `since ${time(message.openedAt)}`,
  ];
  if (!message.open && !message.notice) {
    facts[3] = `${time(message.openedAt)} → ${time(message.closedAt)}`;
  }
  const blocks: ViewBlock[] = [
    { kind: 'text', text: status },
    ...(!message.open && !message.notice ? [{ kind: 'context' as const, text: message.headline }] : []),
    ...((message.open || message.notice) && message.details && message.details.length > 0
      ? [{ kind: 'text' as const, text: message.details.slice(0, INLINE_DETAILS).join('\n') }]
      : []),
    { kind: 'context', text: `${facts.join(' · ')}${flapped}` },
    ...acknowledgedLine(message.acknowledged),
    ...incidentButtons(message),
  ];
  return view(summary, blocks, 'in_channel');
}

/** `2 devices offline, 1 conflict`: what a "right now" summary's members are, by kind in ALERT_KINDS order. */
function wrongNow(members: readonly SummaryMember[], fallback: AlertKind): string {
  const counts = new Map<AlertKind, number>();
  for (const member of members) {
    const kind = member.kind ?? fallback;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return ALERT_KINDS.filter((kind) => counts.has(kind))
    .map((kind) => {
      const [one, many] = wordsOf(kind).now;
      return counted(counts.get(kind) ?? 0, one, many);
    })
    .join(', ');
}

/**
 * What was already wrong when the channel subscribed, edited as its incidents end ("1 of 3 back to
 * normal"); each member is a message of its own in the thread, with its buttons (nothing to press here).
 */
function renderCurrent(message: SummaryMessage): View {
  const what = wrongNow(message.members, message.kind);
  const incidents = message.members.filter((member) => !member.notice);
  const ended = incidents.filter((member) => !member.open).length;
  let headline: string;
  if (incidents.length > 0 && ended === incidents.length) {
    const took = duration(message.openedAt, message.closedAt ?? message.openedAt);
    headline = `:white_check_mark: *All ${counted(incidents.length, 'incident')} back to normal* after ${took} (when this channel subscribed: ${what})`;
  } else if (ended > 0) {
    headline = `:large_orange_circle: *Right now:* ${what} · ${ended} of ${incidents.length} back to normal`;
  } else {
    headline = `:clipboard: *Right now:* ${what}`;
  }
  const rows = summaryRows(message);
  const caption = stripMarks(headline);
  const blocks: ViewBlock[] = [
    { kind: 'text', text: headline },
    {
      kind: 'context',
      text: `Already wrong when this channel subscribed, ${time(message.openedAt)} · profile ${untrusted(message.profile)} · each is in the thread, with its buttons`,
    },
    summaryTable(message, rows.slice(0, SUMMARY_ROWS), caption),
    ...(summaryPageCount(message) > 1
      ? [
          {
            kind: 'context' as const,
            text: `The first ${SUMMARY_ROWS} of ${rows.length}; the other ${rows.length - SUMMARY_ROWS} are in the thread (${SUMMARY_ROWS} a message).`,
          },
        ]
      : []),
  ];
  return view(caption, blocks, 'in_channel');
}

/** A burst's or a catch-up's summary message with its table, edited as its members close. */
export function renderSummary(message: SummaryMessage): View {
  if (message.type === 'current') return renderCurrent(message);
  const words = wordsOf(message.kind);
  const total = message.members.length;
  const closed = message.members.filter((member) => !member.open).length;
  const nouns = (count: number) => counted(count, words.noun);
  let headline: string;
  if (message.type === 'notices') {
    headline = `:bell: *${counted(total, words.notice)}*, each in the thread`;
  } else if (message.type === 'catch-up') {
    const counts = message.counts ?? { opened: 0, closed: 0, other: 0 };
    const parts = [
      `${nouns(counts.opened)} ${words.opened}`,
      `${counts.closed} ${words.closed === 'back online' ? 'came back' : words.closed}`,
      ...(counts.other > 0 ? [counted(counts.other, 'other event')] : []),
    ];
    const since = message.since ? ` (changes since ${time(message.since)})` : '';
    headline = `:hourglass: *While fwbot could not watch${since}:* ${parts.join(', ')}`;
  } else if (closed === 0) {
    headline = `:rotating_light: *${nouns(total)} ${words.opened}* at once`;
  } else if (closed < total) {
    headline = `:large_orange_circle: *${closed} of ${nouns(total)} ${words.closed}*, ${total - closed} still open`;
  } else {
    const took = duration(message.openedAt, message.closedAt ?? message.openedAt);
    headline = `:white_check_mark: *All ${nouns(total)} ${words.closed}* after ${took}`;
  }
  const summary = stripMarks(headline);
  const rows = summaryRows(message);
  const pages = summaryPageCount(message);
  const blocks: ViewBlock[] = [
    { kind: 'text', text: headline },
    { kind: 'context', text: `${message.kind} · profile ${untrusted(message.profile)}` },
    ...(rows.length > 0 ? [summaryTable(message, rows.slice(0, SUMMARY_ROWS), summary)] : []),
    ...(pages > 1
      ? [
          {
            kind: 'context' as const,
            text: `The first ${SUMMARY_ROWS} of ${rows.length}; the other ${rows.length - SUMMARY_ROWS} are in the thread (${SUMMARY_ROWS} a message).`,
          },
        ]
      : []),
    ...acknowledgedLine(message.acknowledged),
  ];
  const ack =
    message.open && !message.acknowledged
      ? commandButton('Acknowledge', `alerts ack ${message.id}`, 'primary')
      : undefined;
  if (ack) blocks.push({ kind: 'actions', buttons: [ack] });
  return view(summary, blocks, 'in_channel');
}

/** Rows a summary message shows (Slack's table holds 100); the rest are pages in its thread. */
export const SUMMARY_ROWS = 100;

/** A summary's rows in the order every page shows them: still open first, then by when each opened. */
function summaryRows(message: SummaryMessage): string[][] {
  const ordered = [...message.members].sort(
    (a, b) => Number(b.open) - Number(a.open) || Date.parse(a.since) - Date.parse(b.since),
  );
  return ordered.map((member) => [
    member.subject.name,
    ...(message.type === 'current' ? [member.kind ?? message.kind] : []),
    // A closed row shows the state it came back to (ONLINE), so the column is always SCC's word; a row
    // that flapped says how often, since a state that lasted between two edits is never shown.
    (member.flaps ?? 0) > 0
      ? `${member.state} · flapped ${counted(member.flaps ?? 0, 'time')}`
      : member.state,
    member.tenant ?? '—',
    time(member.since),
  ]);
}

function summaryTable(message: SummaryMessage, rows: string[][], caption: string): ViewBlock {
  const words = wordsOf(message.kind);
  if (message.type === 'current')
    return { kind: 'table', columns: ['About', 'Alert', 'State', 'Tenant', 'Since'], rows, caption };
  return {
    kind: 'table',
    columns: [
      message.type === 'notices' ? 'About' : capitalised(words.noun),
      'State',
      'Tenant',
      message.type === 'notices' ? 'At' : 'Since',
    ],
    rows,
    caption,
  };
}

/** How many messages a summary's rows take: the summary itself and the pages in its thread. */
export function summaryPageCount(message: SummaryMessage): number {
  return Math.max(1, Math.ceil(message.members.length / SUMMARY_ROWS));
}

/**
 * Page `page` (1-based, from 2) of a summary's rows, a message of its own in the summary's thread, edited
 * with the summary: every member of a burst of 300 is in Slack, not only the first 100.
 */
export function renderSummaryPage(message: SummaryMessage, page: number): View {
  const rows = summaryRows(message);
  const first = (page - 1) * SUMMARY_ROWS;
  const shown = rows.slice(first, first + SUMMARY_ROWS);
  const words = wordsOf(message.kind);
  const noun = message.type === 'current' ? 'Alerts' : `${capitalised(words.noun)}s`;
  const caption = `${noun} ${first + 1}–${first + shown.length} of ${rows.length}`;
  return view(
    caption,
    [{ kind: 'context', text: caption }, summaryTable(message, shown, caption)],
    'in_channel',
  );
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** A transition as a thread reply: its headline and details (mrkdwn, values already untrusted()). */
export function renderTransitionReply(transition: {
  phase: 'open' | 'update' | 'close' | 'notice' | 'reopen';
  headline: string;
  details: readonly string[];
  at: string;
}): View {
  const lead = transition.phase === 'reopen' ? `Again: ${transition.headline}` : transition.headline;
  const blocks: ViewBlock[] = [
    { kind: 'text', text: lead },
    { kind: 'context', text: time(transition.at) },
    ...linesAsBlocks(transition.details),
  ];
  return view(stripMarks(lead), blocks, 'in_channel');
}

/** Most lines a thread reply lists before saying how many more there were. */
export const MAX_REPLY_LINES = 40;

/** A summary's thread reply (catch-up, notices): what was found, one line each. */
export function renderCatchUpReply(lines: readonly string[]): View {
  const shown = lines.slice(0, MAX_REPLY_LINES);
  const more = lines.length - shown.length;
  const all = [...shown, ...(more > 0 ? [`… and ${more} more`] : [])];
  return view(`What happened: ${counted(lines.length, 'change')}`, linesAsBlocks(all), 'in_channel');
}

/** Lines as text blocks of at most ten lines each (a section holds 3000 characters). */
function linesAsBlocks(lines: readonly string[]): ViewBlock[] {
  const blocks: ViewBlock[] = [];
  for (let i = 0; i < lines.length; i += 10)
    blocks.push({ kind: 'text', text: lines.slice(i, i + 10).join('\n') });
  return blocks;
}

/** A summary line without its emoji and bold marks (notifications read only this). */
function stripMarks(text: string): string {
  return text.replace(/^:[a-z_]+: /, '').replace(/\*/g, '');
}
