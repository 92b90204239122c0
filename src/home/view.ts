// One person's App Home as a View: pure, from HomeData. Each section has a cap; what does not fit is one
// "…and N more" line, so the whole Home stays within Slack's 100 blocks for a Home tab (and within the
// renderer's character budget) whatever Redis holds. The Approve / Reject / Cancel buttons are the
// approval card's own (same action ids and values), so a click here goes to the card's handlers.

import type { OpenIncident } from '../alerts/model.js';
import {
  APPROVE_ACTION,
  CANCEL_ACTION,
  clockTime,
  pendingButtons,
  REJECT_ACTION,
} from '../approvals/card.js';
import type { ApprovalRecord } from '../approvals/record.js';
import type { View, ViewBlock } from '../model/view.js';
import { code } from '../render/format.js';
import { channelMention, userMention } from '../render/mrkdwn.js';
import { commandButton } from '../render/paging.js';
import type { FollowedWork, HomeData, RecentCommand } from './model.js';

/** The App Home's *Request access* button: the typed line that opens the form (src/slack/actions/command.ts). */
const REQUEST_ACCESS = commandButton('Request access', 'access request', 'primary');

/** Slack's limit for a Home tab; the renderer keeps one block for its own "not shown" note. */
export const HOME_BLOCKS = 100;

/** Items shown per section; the rest is counted in one line. Sum of the worst case: see homeBlockBudget. */
export const HOME_CAPS = {
  toDecide: 6,
  myRequests: 5,
  followed: 10,
  staged: 5,
  watches: 10,
  incidents: 6,
  recent: 10,
} as const;

/** Longest line of one item (an SCC label, a typed command), so no section outgrows its share. */
const LINE = 200;

function cut(text: string, max = LINE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A typed command as code, cut to fit its line. */
const typed = (text: string) => code(cut(text, 150));

function more(hidden: number, what: string): ViewBlock[] {
  return hidden > 0 ? [{ kind: 'context', text: `…and ${hidden} more ${what}.` }] : [];
}

function section(title: string, empty: string, items: ViewBlock[][], hidden: number, what: string) {
  const body: ViewBlock[] =
    items.length === 0 ? [{ kind: 'context', text: empty }] : [...items.flat(), ...more(hidden, what)];
  return [{ kind: 'divider' } as const, { kind: 'header', text: title } as const, ...body];
}

function approvalLine(record: ApprovalRecord, now: number, mine: boolean): string {
  const { request } = record;
  const who = mine ? 'You asked' : `${userMention(request.requesterId)} asks`;
  return [
    `${who} to *${cut(request.target.description.action)}*`,
    `in ${channelMention(request.channelId)} · expires ${clockTime(request.expiresAt, now)} · profile ${cut(request.profile, 40)} · request ${request.id}`,
  ].join('\n');
}

function toDecide(record: ApprovalRecord, now: number): ViewBlock[] {
  const buttons = pendingButtons(record.request).filter(
    (button) => button.action?.id === APPROVE_ACTION || button.action?.id === REJECT_ACTION,
  );
  return [
    { kind: 'text', text: approvalLine(record, now, false) },
    { kind: 'actions', buttons },
  ];
}

function myRequest(record: ApprovalRecord, now: number): ViewBlock[] {
  const buttons = pendingButtons(record.request)
    .filter((button) => button.action?.id === CANCEL_ACTION)
    .map((button) => ({ ...button, label: 'Cancel request' }));
  return [
    { kind: 'text', text: approvalLine(record, now, true) },
    { kind: 'actions', buttons },
  ];
}

const STATE_ICON: Record<FollowedWork['state'], string> = {
  running: ':hourglass_flowing_sand:',
  succeeded: ':white_check_mark:',
  failed: ':x:',
  unknown: ':grey_question:',
  stopped: ':double_vertical_bar:',
};

function followedLine(work: FollowedWork, now: number): ViewBlock[] {
  const state = work.state === 'running' ? 'running' : work.state;
  const status = work.status ? ` · ${cut(work.status, 150)}` : '';
  return [
    {
      kind: 'text',
      text: `${STATE_ICON[work.state]} *${cut(work.label, 120)}* — ${state}${status}\nsince ${clockTime(work.since, now)} in ${channelMention(work.channelId)} · profile ${cut(work.profile, 40)}`,
    },
  ];
}

function stagedLine(work: FollowedWork, now: number): ViewBlock[] {
  const device = cut(work.device ?? work.label, 120);
  const command = cut(work.device ?? '', 60).replace(/`/g, "'");
  const next = command
    ? `\`/fw changes ${command}\` shows what a deploy would run, \`/fw deploy ${command}\` asks to run it`
    : '`/fw deploy` asks to run them';
  return [
    {
      kind: 'text',
      text: `:pencil2: *${device}*: changes of yours staged since ${clockTime(work.since, now)} in ${channelMention(work.channelId)}, not deployed yet (profile ${cut(work.profile, 40)}). ${next}.`,
    },
  ];
}

const OUTCOME_ICON: Record<RecentCommand['outcome'], string> = {
  ran: ':white_check_mark:',
  approval: ':raised_hand:',
  reveal: ':key:',
  queued: ':inbox_tray:',
  confirm: ':grey_question:',
  refused: ':no_entry:',
  failed: ':x:',
};

const OUTCOME_WORD: Record<RecentCommand['outcome'], string> = {
  ran: 'ran',
  approval: 'sent for approval',
  reveal: 'token offered',
  queued: 'queued',
  confirm: 'not run (needs confirmation)',
  refused: 'refused',
  failed: 'failed',
};

function recentLine(command: RecentCommand, now: number): string {
  const detail = command.detail ? `: ${cut(command.detail, 120)}` : '';
  return `${OUTCOME_ICON[command.outcome]} ${typed(command.text)} · ${clockTime(command.at, now)} · ${OUTCOME_WORD[command.outcome]}${detail}`;
}

/** Shown items and how many were left out. */
function capped<T>(items: readonly T[], cap: number): { shown: T[]; hidden: number } {
  return { shown: items.slice(0, cap), hidden: Math.max(0, items.length - cap) };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The worst case of homeView in blocks, before Block Kit: three at the top, and per section a divider, a
 * header, its items and one "more" line. A test checks it stays below HOME_BLOCKS.
 */
export function homeBlockBudget(): number {
  const c = HOME_CAPS;
  const sections = 7;
  const items = c.toDecide * 2 + c.myRequests * 2 + c.followed + c.staged + c.incidents * 2 + 1 + c.recent;
  return 3 + sections * 3 + items;
}

export function homeView(data: HomeData): View {
  const { now } = data;
  const decide = capped(data.toDecide, HOME_CAPS.toDecide);
  const mine = capped(data.myRequests, HOME_CAPS.myRequests);
  // A staged change (its entry names the device still to deploy) ends quietly once deployed (and is then
  // not read back), or with a reminder while the device still waits for a deploy: every one left is pending.
  const staged = data.followed.filter((work) => work.device !== undefined);
  const work = data.followed.filter((item) => item.device === undefined);
  const followed = capped(work, HOME_CAPS.followed);
  const stagedShown = capped(staged, HOME_CAPS.staged);
  const recent = capped(data.recent, HOME_CAPS.recent);

  const blocks: ViewBlock[] = [
    { kind: 'header', text: 'fwbot' },
    {
      kind: 'context',
      text: `For ${userMention(data.userId)} · updated ${clockTime(now, now)} · type \`/fw help\` in a channel for commands`,
    },
    // The *Request access* form, as `/fw access request` alone opens it; it asks which channel to ask in.
    { kind: 'actions', buttons: REQUEST_ACCESS ? [REQUEST_ACCESS] : [] },
    ...section(
      'Waiting for your decision',
      'No requests are waiting for you.',
      decide.shown.map((record) => toDecide(record, now)),
      decide.hidden,
      'requests (oldest expire first)',
    ),
    ...section(
      'Your requests',
      'You have no requests waiting for approval.',
      mine.shown.map((record) => myRequest(record, now)),
      mine.hidden,
      'of your requests',
    ),
    ...section(
      'Work you are following',
      'Nothing of yours is being followed.',
      followed.shown.map((item) => followedLine(item, now)),
      followed.hidden,
      'followed items',
    ),
    ...section(
      'Staged, not deployed',
      'No device has changes of yours waiting for a deploy.',
      stagedShown.shown.map((item) => stagedLine(item, now)),
      stagedShown.hidden,
      'devices',
    ),
    ...incidentSection(data),
    ...watchSection(data),
    ...section(
      'Your last commands',
      'No commands yet.',
      recent.shown.length > 0
        ? [[{ kind: 'text', text: recent.shown.map((command) => recentLine(command, now)).join('\n') }]]
        : [],
      recent.hidden,
      'commands',
    ),
  ];
  const summary = [
    `fwbot Home: ${plural(data.toDecide.length, 'request', 'requests')} waiting for your decision`,
    `${plural(data.myRequests.length, 'request', 'requests')} of yours pending`,
    `${plural(work.filter((item) => item.state === 'running').length, 'item', 'items')} running`,
  ].join(', ');
  return { summary, blocks, visibility: 'ephemeral' };
}

/**
 * Where Slack opens a message: its archives link, which Slack sends on to the reader's workspace (the
 * message's ts without its dot).
 */
export function messageLink(channelId: string, ts: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channelId)}/p${ts.replace('.', '')}`;
}

function incidentLine(incident: OpenIncident, now: number): ViewBlock[] {
  const facts = [
    `in ${channelMention(incident.channelId)}`,
    `since ${clockTime(Date.parse(incident.openedAt), now)}`,
    incident.kind,
    `profile ${cut(incident.profile, 40)}`,
    ...(incident.flaps > 0 ? [`flapped ${plural(incident.flaps, 'time', 'times')}`] : []),
    incident.acknowledgedBy ? `acknowledged by ${userMention(incident.acknowledgedBy)}` : 'not acknowledged',
  ];
  // The headline is the scan's mrkdwn line (its SCC values already shown as typed), cut to fit.
  const text = `:rotating_light: ${cut(incident.headline, 160)}\n${facts.join(' · ')}`;
  const open = incident.ts
    ? [
        {
          kind: 'actions' as const,
          buttons: [{ label: 'Open the message', url: messageLink(incident.channelId, incident.ts) }],
        },
      ]
    : [];
  return [{ kind: 'text', text }, ...open];
}

function incidentSection(data: HomeData): ViewBlock[] {
  if (data.incidents === undefined) {
    return section(
      'Open incidents in your channels',
      'fwbot could not read which channels you are in just now.',
      [],
      0,
      'incidents',
    );
  }
  const incidents = capped(data.incidents, HOME_CAPS.incidents);
  return section(
    'Open incidents in your channels',
    'No open incidents in your channels (`/fw alerts subscribe` tells a channel what happens in SCC).',
    incidents.shown.map((incident) => incidentLine(incident, data.now)),
    incidents.hidden,
    'open incidents (`/fw alerts` in a channel lists its own)',
  );
}

function watchSection(data: HomeData): ViewBlock[] {
  if (data.watches === undefined) {
    return section(
      'Upgrade watches in your channels',
      'fwbot could not read which channels you are in just now.',
      [],
      0,
      'watches',
    );
  }
  const watches = capped(data.watches, HOME_CAPS.watches);
  const lines = watches.shown.map(
    (watch) =>
      `:eyes: ${channelMention(watch.channelId)} hears when VPN client upgrade runs of \`${cut(watch.profile, 40)}\` end (set by ${userMention(watch.createdBy)})`,
  );
  return section(
    'Upgrade watches in your channels',
    'None of your channels watches upgrade runs (`/fw vpn watch` starts one).',
    lines.length > 0 ? [[{ kind: 'text', text: lines.join('\n') }]] : [],
    watches.hidden,
    'watches',
  );
}
