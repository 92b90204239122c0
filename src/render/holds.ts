// What `/fw holds` and `/fw holds release` show: the devices held for a change in progress (a deploy running),
// each with who holds it, why, since and until when at the latest; and a hold released by an admin. Pure:
// the view model from what the operation read.
import type { View, ViewBlock } from '../model/view.js';
import { code, counted, time } from './format.js';
import { userMention } from './mrkdwn.js';
import { untrusted } from './untrusted.js';

/** One held device as the list shows it (the catalogue's DeviceHold, its holder's kind in words). */
export interface HoldLine {
  device: string;
  /** `a deploy`. */
  holder: string;
  holderId: string;
  requesterId: string;
  reason: string;
  since: number;
  until: number;
}

/** Held devices shown in one message: two blocks each, well inside Slack's 50. */
export const HOLDS_SHOWN = 20;

const at = (ms: number) => time(new Date(ms).toISOString());

function holdLines(hold: HoldLine): string {
  return [
    `*${untrusted(hold.device)}* · held by ${hold.holder} (request ${code(hold.holderId)}, asked by ${userMention(hold.requesterId)})`,
    `Why: ${untrusted(hold.reason)}`,
    `Since ${at(hold.since)} · until it ends, at the latest ${at(hold.until)}`,
  ].join('\n');
}

export function renderHolds(holds: readonly HoldLine[], profile: string, device?: string): View {
  if (holds.length === 0)
    return {
      summary: 'No device is held',
      blocks: [
        {
          kind: 'text',
          text: `${device ? untrusted(device) : `No device of profile ${code(profile)}`} is held for a change in progress: changes to ${device ? 'it' : 'them'} are taken.`,
        },
      ],
      visibility: 'ephemeral',
    };
  const blocks: ViewBlock[] = [{ kind: 'header', text: `Held devices (${holds.length})` }];
  for (const hold of holds.slice(0, HOLDS_SHOWN)) blocks.push({ kind: 'text', text: holdLines(hold) });
  const more = holds.length - HOLDS_SHOWN;
  blocks.push({
    kind: 'context',
    text: [
      ...(more > 0 ? [`and ${counted(more, 'more held device')}`] : []),
      `profile ${profile}`,
      'a change to a held device is refused until the hold ends; an admin may end one early: `/fw holds release <device> --reason "…"`',
    ].join(' · '),
  });
  return { summary: counted(holds.length, 'held device'), blocks, visibility: 'ephemeral' };
}

export function renderHoldReleased(hold: HoldLine, reason: string, by: string): View {
  const text = `:unlock: ${userMention(by)} released the hold on ${untrusted(hold.device)} early: it was held by ${hold.holder} (request ${code(hold.holderId)}, asked by ${userMention(hold.requesterId)}) since ${at(hold.since)} for ${untrusted(hold.reason)}. Why: ${untrusted(reason)}. Changes to it are taken again; the work that held it was not stopped.`;
  return {
    summary: `Released the hold on ${hold.device}`,
    blocks: [{ kind: 'text', text }],
    visibility: 'in_channel',
  };
}
