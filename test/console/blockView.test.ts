// The console reads Block Kit back into views (approval cards and their updates arrive through its
// stand-in Slack): native tables come back as tables, with every row the message carried, and a date
// Slack shows in each reader's zone comes back as one, which the console shows as its fallback.
import { describe, expect, it } from 'vitest';
import { fromMrkdwn, viewOfMessage } from '../../src/console/blockView.js';
import { PLAIN, renderMrkdwn } from '../../src/console/markup.js';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { escapeMrkdwn, mentionsAsText } from '../../src/render/mrkdwn.js';
import { renderTable, renderText } from '../../src/render/text.js';
import { viewerTime } from '../../src/render/viewerTime.js';

const rows = Array.from({ length: 40 }, (_, i) => [`asa-${i}`, String(i * 3), i % 2 ? 'ok' : '<x> & y']);

const view: View = {
  summary: 'Devices: 1–40 of 40',
  visibility: 'ephemeral',
  blocks: [
    { kind: 'text', text: '*Devices*: 1–40 of 40' },
    { kind: 'table', columns: ['Name', 'Count', 'Note'], rows, numeric: [1] },
    { kind: 'table', columns: ['Second'], rows: [['kept as text']] },
  ],
};

describe('viewOfMessage', () => {
  it('reads a native table back as a table with its header and every row', () => {
    const { text, blocks } = renderBlocks(view);
    expect(blocks.map((b) => b.type)).toEqual(['section', 'data_table', 'section']);
    const received = viewOfMessage(text, blocks);
    const table = received.blocks.find((b) => b.kind === 'table');
    expect(table).toEqual({
      kind: 'table',
      columns: ['Name', 'Count', 'Note'],
      rows,
      caption: 'Devices: 1–40 of 40',
    });
    const printed = renderText(received);
    expect(printed).toContain(renderTable(['Name', 'Count', 'Note'], rows));
    expect(printed).toContain('kept as text');
  });

  it('reads rich text cells by their text, and skips a table it cannot read', () => {
    const received = viewOfMessage('t', [
      {
        type: 'table',
        rows: [
          [{ type: 'raw_text', text: 'Who' }],
          [
            {
              type: 'rich_text',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'alice' }] }],
            },
          ],
        ],
      },
      { type: 'data_table', rows: 'not rows' },
    ]);
    expect(received.blocks).toEqual([{ kind: 'table', columns: ['Who'], rows: [['alice']] }]);
  });

  it('reads a reader-zone date back as one, and shows its fallback, not the token', () => {
    const when = viewerTime(
      Date.parse('2026-11-28T21:00:00Z'),
      Date.parse('2026-11-26T21:00:00Z'),
      'Europe/Berlin',
    );
    const sent = escapeMrkdwn(`Scheduled for ${when}; typed: <!date^1^{date}|x>`);
    const back = fromMrkdwn(sent);
    expect(escapeMrkdwn(back)).toBe(sent);
    const shown =
      'Scheduled for Sat 22:00 Europe/Berlin, in 2 days (your time: Sat 21:00 UTC); typed: <!date^1^{date}|x>';
    expect(mentionsAsText(back)).toBe(shown);
    expect(renderMrkdwn(escapeMrkdwn(back), PLAIN)).toBe(shown);
  });
});
