// What `/fw deployments scheduled` and `/fw deployments cancel` show (issue 28): approved requests held
// until their time (a change window, or `--at`), each with when it runs, who asked, who approved, its
// ticket, why it waits and any break-glass reason, and a Cancel button that runs `deployments cancel <id>`
// as whoever clicks. Pure: the view model from what the operation read.
import type { Button, View, ViewBlock } from '../model/view.js';
import { code, counted } from './format.js';
import { userMention } from './mrkdwn.js';
import { commandButton } from './paging.js';
import { untrusted } from './untrusted.js';

/** One held request as the list shows it (the catalogue's ScheduledRun). */
export interface ScheduledLine {
  id: string;
  what: string;
  commandText: string;
  when: string;
  reason: 'explicit' | 'window';
  requester: string;
  approvers: readonly string[];
  ticket?: string | undefined;
  breakGlass?: string | undefined;
}

/** Rows shown in one message: each takes two blocks, well inside Slack's 50. */
export const SCHEDULED_SHOWN = 20;

function cancelButton(run: ScheduledLine): Button[] {
  const button = commandButton('Cancel…', `deployments cancel ${run.id}`, 'danger');
  if (!button) return [];
  return [
    {
      ...button,
      confirm: {
        title: 'Cancel the scheduled run?',
        text: `It will not run: ${untrusted(run.what)}. Only its requester and approvers may cancel it.`,
        confirm: 'Cancel it',
        deny: 'Keep it',
        danger: true,
      },
    },
  ];
}

/** Who, what, when and why of one held request, in a few lines. */
export function scheduledLines(run: ScheduledLine): string {
  const who = run.approvers.length > 0 ? run.approvers.map(userMention).join(', ') : 'nobody recorded';
  return [
    `*${untrusted(run.what)}* · request ${code(run.id)}`,
    // `when` says why it waits too: "(the time asked for)" or "when the change window opens (…)".
    `Runs ${run.when}.`,
    `Asked by ${userMention(run.requester)} · approved by ${who}${run.ticket ? ` · ticket ${code(run.ticket)}` : ''}`,
    ...(run.breakGlass ? [`:rotating_light: Break-glass: ${untrusted(run.breakGlass)}`] : []),
    `Command: ${code(run.commandText)}`,
  ].join('\n');
}

export function renderScheduledList(runs: readonly ScheduledLine[], profile: string): View {
  if (runs.length === 0)
    return {
      summary: 'No deploy is scheduled',
      blocks: [
        {
          kind: 'text',
          text: `No approved request of profile ${code(profile)} is waiting for its time. A deploy approved outside its change window, or asked for \`--at\` a later time, is listed here until it runs.`,
        },
      ],
      visibility: 'ephemeral',
    };
  const blocks: ViewBlock[] = [{ kind: 'header', text: `Scheduled (${runs.length})` }];
  for (const run of runs.slice(0, SCHEDULED_SHOWN)) {
    blocks.push({ kind: 'text', text: scheduledLines(run) });
    const buttons = cancelButton(run);
    if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
  }
  const more = runs.length - SCHEDULED_SHOWN;
  blocks.push({
    kind: 'context',
    text: [
      ...(more > 0 ? [`and ${counted(more, 'more request')}, later ones`] : []),
      `profile ${profile}`,
      'its requester and approvers may cancel each (`/fw deployments cancel <request>`)',
    ].join(' · '),
  });
  return { summary: `${counted(runs.length, 'scheduled request')}`, blocks, visibility: 'ephemeral' };
}

export function renderScheduledCancelled(run: ScheduledLine): View {
  const text = `:heavy_multiplication_x: Cancelled the scheduled run of request ${code(run.id)} (${untrusted(run.what)}, ${run.when}): nothing was run. Its card and thread say so.`;
  // Said where it was asked, like any change: the channel learns that a scheduled change will not happen.
  return {
    summary: `Cancelled scheduled request ${run.id}`,
    blocks: [{ kind: 'text', text }],
    visibility: 'in_channel',
  };
}
