// Slack's side of the chat port (src/slack/chat.ts), against the fake Web API: a View becomes exactly the
// Block Kit the renderer makes of it, through the one door; text stays text. An approval card's output too
// long for a message goes as a file into the card's own thread, once (an edit names it, it does not post it
// again); any other message's such output is cut, and the log says the file was not posted.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { SlackApprovalNotifier } from '../../src/slack/approvalNotifier.js';
import { SlackChat } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { outgoingMessage } from '../../src/slackApi/outgoing.js';
import { blockTexts } from '../support/blockTexts.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';

const CHANNEL = 'C0CHAT0001';
const longCommands = Array.from({ length: 400 }, (_, i) => `no access-list outside_in line ${i + 1}`).join(
  '\n',
);
const card: View = {
  summary: 'Approve the access-list change on asa-hq-01?',
  visibility: 'in_channel',
  blocks: [
    { kind: 'text', text: 'asks to *remove 400 access-list lines on asa-hq-01*.' },
    { kind: 'code', text: longCommands, filename: 'ap-0001.txt' },
    { kind: 'actions', buttons: [{ label: 'Approve', action: { id: 'fw.approval.approve', value: '{}' } }] },
  ],
};

class Lines extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(chunk.toString());
    done();
  }
}

describe('Slack’s chat', () => {
  let slack: FakeSlack;
  let logged: Lines;
  let chat: SlackChat;
  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => {
    slack.reset();
    logged = new Lines();
    chat = new SlackChat(createWorkerSlackClient('xoxb-test', slack.apiUrl), pino({ level: 'warn' }, logged));
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('posts a view as the Block Kit the renderer makes of it, and text as text', async () => {
    const view: View = {
      summary: 'Tenants: 1–2 of 2',
      visibility: 'in_channel',
      blocks: [
        {
          kind: 'table',
          columns: ['Name', 'Devices'],
          rows: [
            ['acme', '3'],
            ['globex', '12'],
          ],
        },
      ],
    };
    await chat.post(CHANNEL, { text: view.summary, view });
    await chat.post(CHANNEL, { text: '*done*' });
    const [withView, withText] = slack.callsTo('chat.postMessage');
    const expected = outgoingMessage(renderBlocks(view));
    expect(withView?.args.blocks).toEqual(expected.blocks);
    expect(withView?.args.text).toBe(expected.text);
    expect(withText?.args.blocks).toBeUndefined();
    expect(withText?.args.text).toBe('*done*');
  });

  it('attaches a card’s long output in the card’s own thread, once', async () => {
    const notifier = new SlackApprovalNotifier(
      createWorkerSlackClient('xoxb-test', slack.apiUrl),
      pino({ level: 'silent' }),
    );
    const posted = await notifier.postCard(CHANNEL, card);
    await notifier.updateCard(posted, { ...card, blocks: card.blocks.filter((b) => b.kind !== 'actions') });

    const uploads = slack.callsTo('files.completeUploadExternal');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.args).toMatchObject({ channel_id: CHANNEL, thread_ts: posted.ts });
    for (const call of [...slack.callsTo('chat.postMessage'), ...slack.callsTo('chat.update')])
      expect(blockTexts(call.args.blocks).join('\n')).toMatch(
        /attached as `ap-0001\.txt` in this card’s thread/,
      );
  });

  it('cuts any other message’s long output and says in the log that its file was not posted', async () => {
    await chat.post(CHANNEL, { text: card.summary, view: card }, '1700000000.000100');
    expect(slack.callsTo('files.completeUploadExternal')).toHaveLength(0);
    expect(logged.lines.join('')).toContain('a message had attachments that were not posted');
  });
});
