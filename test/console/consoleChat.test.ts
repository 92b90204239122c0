// The console's chat keeps what the workers and the approvals post in its channel as they sent it: a View
// stays the View (no Block Kit on the way: the console shows it with the text renderer, every row of its
// table), text stays text under the rule every outgoing message keeps. Its timestamps come from the wall
// clock, so a console started again (the demo restarted) never hands out a ts that an approval kept in
// Redis still points at, and a card of the earlier run shown again at its own ts is edited there. Beside
// real Slack, what is about the console's channel stays here and the rest goes to Slack's chat.
import { describe, expect, it } from 'vitest';
import { ConsoleChat, type ConsoleMessage } from '../../src/console/consoleChat.js';
import type { Chat, ChatMessage } from '../../src/model/message.js';
import type { View } from '../../src/model/view.js';
import { classifySlackError } from '../../src/slackApi/errors.js';

const rows = Array.from({ length: 140 }, (_, i) => [`asa-${i}`, String(i * 3), i % 2 ? 'ok' : '<x> & y']);
const devices: View = {
  summary: 'Devices: 1–140 of 140',
  visibility: 'in_channel',
  blocks: [
    { kind: 'text', text: '*Devices*: 1–140 of 140' },
    { kind: 'table', columns: ['Name', 'Count', 'Note'], rows, numeric: [1] },
    { kind: 'actions', buttons: [{ label: 'Next page', action: { id: 'fw.page', value: '{"p":2}' } }] },
  ],
};

describe('the console’s chat', () => {
  it('keeps a posted view as the View it is, and its edits, and tells the console of each', async () => {
    const chat = new ConsoleChat(['C0CONSOLE']);
    const told: ConsoleMessage[] = [];
    chat.on('posted', (m) => told.push(structuredClone(m)));
    chat.on('updated', (m) => told.push(structuredClone(m)));
    const { ts } = await chat.post('C0CONSOLE', { text: devices.summary, view: devices });
    expect(told[0]?.view).toEqual(devices);
    const closed: View = { ...devices, blocks: [{ kind: 'text', text: 'closed' }] };
    await chat.edit('C0CONSOLE', ts, { text: closed.summary, view: closed });
    expect(told[1]?.view).toEqual(closed);
    expect(chat.message('C0CONSOLE', ts)?.view).toEqual(closed);
  });

  it('keeps text under the door’s rule: hidden characters shown, no token but fwbot’s own', async () => {
    const chat = new ConsoleChat(['C0CONSOLE']);
    const { ts } = await chat.post('C0CONSOLE', { text: 'asa\u202Ehq <!channel> <@U0ALICE>' });
    expect(chat.message('C0CONSOLE', ts)?.text).toBe('asa\\u202Ehq &lt;!channel&gt; <@U0ALICE>');
  });

  it('reads a thread back with its metadata, and refuses an edit of a message it never had', async () => {
    const chat = new ConsoleChat(['C0CONSOLE']);
    const metadata = { event_type: 'fwbot_note', event_payload: { key: 'k1' } };
    const root = await chat.post('C0CONSOLE', { text: 'root' });
    const reply = await chat.post('C0CONSOLE', { text: 'reply', metadata }, root.ts);
    const read = await chat.read({ channel: 'C0CONSOLE', threadTs: root.ts, limit: 200 });
    expect(read.messages).toContainEqual({ ts: reply.ts, metadata });
    const refused = await chat.edit('C0CONSOLE', '1.000001', { text: 'x' }).catch((error) => error);
    expect(classifySlackError(refused)).toMatchObject({ kind: 'refused', reason: 'message_not_found' });
  });

  it('sends what is about another channel to Slack’s chat, beside it', async () => {
    const chat = new ConsoleChat(['C0CONSOLE']);
    const toSlack: [string, ChatMessage][] = [];
    const slack: Chat = {
      post: async (channel, message) => {
        toSlack.push([channel, message]);
        return { ts: '1700000000.000001', channel };
      },
      edit: async () => undefined,
      read: async () => ({ messages: [] }),
      upload: async () => undefined,
    };
    const routed = chat.beside(() => slack)({});
    await routed.post('C0SLACK001', { text: devices.summary, view: devices });
    const here = await routed.post('C0CONSOLE', { text: 'here' });
    expect(toSlack.map(([channel]) => channel)).toEqual(['C0SLACK001']);
    expect(chat.message('C0CONSOLE', here.ts)?.text).toBe('here');
  });

  it('gives Slack-shaped timestamps, strictly increasing, later than any of an earlier run', () => {
    let wall = Date.UTC(2026, 10, 25, 12, 0, 0);
    const first = new ConsoleChat(['C0CONSOLE'], () => wall);
    const a = first.printed('C0CONSOLE', 'one').ts;
    const b = first.printed('C0CONSOLE', 'two').ts; // same millisecond
    expect(a).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(b)).toBeGreaterThan(Number(a));
    const earlierCard = first.printed('C0CONSOLE', 'a card').ts;

    wall += 60_000; // restarted a minute later
    const second = new ConsoleChat(['C0CONSOLE'], () => wall);
    const fresh = [1, 2, 3].map((n) => second.printed('C0CONSOLE', `message ${n}`).ts);
    expect(fresh).not.toContain(earlierCard);
    expect(fresh.every((ts) => Number(ts) > Number(earlierCard))).toBe(true);
  });

  it('shows a message of an earlier run again at its own ts, and edits reach it', async () => {
    const chat = new ConsoleChat(['C0CONSOLE']);
    const posted: string[] = [];
    chat.on('posted', (m) => posted.push(m.ts));
    chat.restore({ channel: 'C0CONSOLE', ts: '1700000007.000100', text: 'Approval request' });
    expect(posted).toEqual(['1700000007.000100']);
    await chat.edit('C0CONSOLE', '1700000007.000100', { text: 'Approved' });
    expect(chat.message('C0CONSOLE', '1700000007.000100')?.text).toBe('Approved');
  });
});
