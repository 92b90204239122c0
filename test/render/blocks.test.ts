import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Button, View, ViewBlock } from '../../src/model/view.js';
import { type RenderedMessage, renderBlocks, SLACK_LIMITS } from '../../src/render/blocks.js';
import { channelMention, escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';
import { blockKitProblems } from '../support/blockKitRules.js';

function table(rows: number, columns = 3): ViewBlock {
  return {
    kind: 'table',
    columns: Array.from({ length: columns }, (_, i) => `col${i}`),
    rows: Array.from({ length: rows }, (_, r) => Array.from({ length: columns }, (_, c) => `r${r}c${c}`)),
  };
}

function pageButtons(): Button[] {
  return [
    { label: 'Previous', action: { id: 'fw.page', value: 'prev-state' } },
    { label: 'Next', action: { id: 'fw.page', value: 'next-state' } },
  ];
}

function sectionTexts(message: RenderedMessage): string[] {
  return message.blocks.flatMap((block: KnownBlock) =>
    block.type === 'section' && block.text ? [block.text.text] : [],
  );
}

/** The data rows of the message's native table (its header left out), as the texts Slack shows. */
function nativeRows(message: RenderedMessage): string[][] {
  const block = message.blocks.find((b) => b.type === 'data_table');
  if (block?.type !== 'data_table') return [];
  return block.rows.slice(1).map((row) => row.map((cell) => ('text' in cell ? cell.text : '')));
}

function contextTexts(message: RenderedMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'context' ? block.elements.map((e) => ('text' in e ? e.text : '')) : [],
  );
}

describe('renderBlocks', () => {
  it('escapes &, < and > in data but keeps the mentions renderers made', () => {
    const view: View = {
      summary: 'a <b> & c',
      blocks: [
        {
          kind: 'text',
          text: `${userMention('U012ABC')} asked: <!channel> <https://evil.example|click> & ${channelMention('C0OPS')} <@U0DATA>`,
        },
      ],
      visibility: 'ephemeral',
    };
    const message = renderBlocks(view);
    expect(sectionTexts(message)).toEqual([
      '<@U012ABC> asked: &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; <#C0OPS> &lt;@U0DATA&gt;',
    ]);
    expect(message.text).toBe('a &lt;b&gt; &amp; c');
    assertWithinSlackLimits(message, 'message');
  });

  it('escapes mentions too inside monospace tables and code, where nothing should be live', () => {
    expect(escapeMrkdwn(userMention('U012ABC'))).toBe('<@U012ABC>');
    expect(escapeMrkdwn('<@U012ABC>')).toBe('&lt;@U012ABC&gt;');
    const message = renderBlocks(
      {
        summary: 's',
        blocks: [
          { kind: 'table', columns: ['name'], rows: [['<@U012ABC> & co']] },
          { kind: 'code', text: '{"a": "<x>"}' },
        ],
        visibility: 'ephemeral',
      },
      { surface: 'modal' },
    );
    const texts = sectionTexts(message).join('\n');
    expect(texts).toContain('&lt;@U012ABC&gt; &amp; co');
    expect(texts).toContain('{"a": "&lt;x&gt;"}');
  });

  it('splits a long table across sections in a modal, repeats the header, and never cuts a row in two', () => {
    const message = renderBlocks(
      { summary: 's', blocks: [table(150)], visibility: 'ephemeral' },
      { surface: 'modal' },
    );
    expect(message.blocks.some((b) => b.type === 'data_table')).toBe(false);
    const sections = sectionTexts(message);
    expect(sections.length).toBeGreaterThan(1);
    const rowLines = sections.flatMap((text) => text.split('\n').filter((line) => line.startsWith('r')));
    expect(rowLines).toHaveLength(150);
    for (const [i, line] of rowLines.entries())
      expect(line).toMatch(new RegExp(`^r${i}c0 +r${i}c1 +r${i}c2$`));
    for (const text of sections) expect(text.split('\n')[1]).toMatch(/^col0/);
    assertWithinSlackLimits(message, 'modal');
  });

  it('says how many rows it could not show, and keeps the paging buttons', () => {
    for (const surface of ['message', 'modal'] as const) {
      const message = renderBlocks(
        {
          summary: 's',
          blocks: [table(5000), { kind: 'actions', buttons: pageButtons() }],
          visibility: 'ephemeral',
        },
        { surface },
      );
      const monospace = sectionTexts(message).flatMap((t) => t.split('\n').filter((l) => l.startsWith('r')));
      const shown = monospace.length + nativeRows(message).length;
      if (surface === 'message') expect(nativeRows(message)).toHaveLength(100);
      const note = contextTexts(message).find((t) => t.includes('Not shown'));
      expect(note).toBe(`:warning: Not shown: ${5000 - shown} more rows (too long for one Slack message).`);
      const actions = message.blocks.filter((b) => b.type === 'actions');
      expect(actions).toHaveLength(1);
      assertWithinSlackLimits(message, surface);
    }
  });

  describe('native tables', () => {
    it('shows the first table of a message as a data_table: header, caption, pages of ten, numbers as numbers', () => {
      const message = renderBlocks({
        summary: 'Tenants: 1–3 of 3',
        blocks: [
          {
            kind: 'table',
            columns: ['Name', 'Devices'],
            rows: [
              ['acme', '3'],
              ['globex', '—'],
              ['initech', '12'],
            ],
            numeric: [1],
          },
        ],
        visibility: 'ephemeral',
      });
      expect(message.blocks).toEqual([
        {
          type: 'data_table',
          caption: 'Tenants: 1–3 of 3',
          rows: [
            [
              { type: 'raw_text', text: 'Name' },
              { type: 'raw_text', text: 'Devices' },
            ],
            [
              { type: 'raw_text', text: 'acme' },
              { type: 'raw_number', value: 3, text: '3' },
            ],
            [
              { type: 'raw_text', text: 'globex' },
              { type: 'raw_text', text: '—' },
            ],
            [
              { type: 'raw_text', text: 'initech' },
              { type: 'raw_number', value: 12, text: '12' },
            ],
          ],
          page_size: 10,
          row_header_column_index: 0,
        },
      ]);
      assertWithinSlackLimits(message, 'message');
    });

    it('names the table by its own caption when it has one, and fills empty cells', () => {
      const message = renderBlocks({
        summary: 'Upgrade run r1',
        blocks: [
          { kind: 'table', columns: ['Device', ''], rows: [['', '  ']], caption: 'Devices of run r1' },
        ],
        visibility: 'ephemeral',
      });
      const block = message.blocks[0];
      expect(block?.type === 'data_table' && block.caption).toBe('Devices of run r1');
      expect(nativeRows(message)).toEqual([['—', '—']]);
      assertWithinSlackLimits(message, 'message');
    });

    it('shows mentions in cells as text, and breaks Slack tokens from data: a raw cell pings nobody', () => {
      const message = renderBlocks({
        summary: 's',
        blocks: [
          {
            kind: 'table',
            columns: ['By', 'Note'],
            rows: [[`${userMention('U012ABC')} & <!channel>`, '<https://evil.example|docs> if a < b > c']],
          },
        ],
        visibility: 'ephemeral',
      });
      // Not left to raw_text being literal: Slack's tokens from data are broken (‹ ›), other angles kept.
      expect(nativeRows(message)).toEqual([
        ['@U012ABC & ‹!channel›', '‹https://evil.example|docs› if a < b > c'],
      ]);
      expect(message.text).toBe('s — @U012ABC &amp; ‹!channel›');
    });

    it('keeps one table per message: the second is monospace text, and Slack would accept the message', () => {
      const message = renderBlocks({
        summary: 's',
        blocks: [table(3), { kind: 'text', text: 'Devices' }, table(2, 2)],
        visibility: 'ephemeral',
      });
      expect(message.blocks.map((b) => b.type)).toEqual(['data_table', 'section', 'section']);
      expect(nativeRows(message)).toHaveLength(3);
      expect(sectionTexts(message)[1]).toBe('```\ncol0  col1\n----  ----\nr0c0  r0c1\nr1c0  r1c1\n```');
      expect(blockKitProblems(message.blocks, 'message')).toEqual([]);
      assertWithinSlackLimits(message, 'message');
    });

    it('never makes a table in a modal, where Slack has none', () => {
      const message = renderBlocks(
        { summary: 's', blocks: [table(3)], visibility: 'ephemeral' },
        { surface: 'modal' },
      );
      expect(message.blocks.map((b) => b.type)).toEqual(['section']);
      expect(blockKitProblems(message.blocks, 'modal')).toEqual([]);
    });

    it('keeps all cells within 10,000 characters and counts the rows left out', () => {
      const wide: ViewBlock = {
        kind: 'table',
        columns: ['a', 'b', 'c'],
        rows: Array.from({ length: 60 }, (_, r) => [`row${r}`, 'x'.repeat(200), 'y'.repeat(200)]),
      };
      const message = renderBlocks({ summary: 's', blocks: [wide], visibility: 'ephemeral' });
      const rows = nativeRows(message);
      const chars = [['a', 'b', 'c'], ...rows].flat().join('').length + 1;
      expect(chars).toBeLessThanOrEqual(10_000);
      expect(rows.length).toBeGreaterThan(20);
      expect(rows.length).toBeLessThan(60);
      expect(contextTexts(message)).toContain(
        `:warning: Not shown: ${60 - rows.length} more rows (too long for one Slack message).`,
      );
      assertWithinSlackLimits(message, 'message');
    });

    it('cuts the table to the room other blocks leave, rather than dropping it', () => {
      const message = renderBlocks({
        summary: 's',
        blocks: [
          {
            kind: 'fields',
            fields: Array.from({ length: 10 }, (_, i) => ({ label: `f${i}`, value: 'v'.repeat(900) })),
          },
          {
            kind: 'table',
            columns: ['id', 'text'],
            rows: Array.from({ length: 90 }, (_, r) => [`#${r}`, 'z'.repeat(60)]),
          },
        ],
        visibility: 'ephemeral',
      });
      const rows = nativeRows(message);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThan(90);
      expect(contextTexts(message)).toContain(
        `:warning: Not shown: ${90 - rows.length} more rows (too long for one Slack message).`,
      );
      assertWithinSlackLimits(message, 'message');
    });

    it('shows a table of more than 20 columns as monospace text, where every column fits', () => {
      const message = renderBlocks({ summary: 's', blocks: [table(2, 21)], visibility: 'ephemeral' });
      expect(message.blocks.map((b) => b.type)).toEqual(['section']);
      expect(sectionTexts(message)[0]).toContain('col20');
      assertWithinSlackLimits(message, 'message');
    });
  });

  describe('fallback text', () => {
    it('is the summary, then the names of the rows shown: what mobile notifications read', () => {
      const message = renderBlocks({
        summary: 'Tenants: 1–3 of 3',
        blocks: [table(3)],
        visibility: 'ephemeral',
      });
      expect(message.text).toBe('Tenants: 1–3 of 3 — r0c0, r1c0, r2c0');
    });

    it('says how many rows it does not name, within the fallback limit', () => {
      const message = renderBlocks({
        summary: 'Devices: 1–100 of 400',
        blocks: [table(150)],
        visibility: 'ephemeral',
      });
      expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
      const match = /^Devices: 1–100 of 400 — r0c0, r1c0, (?:r\d+c0, )*… \((\d+) more\)$/.exec(message.text);
      expect(match).not.toBeNull();
      const named = message.text.split(', ').filter((part) => /r\d+c0$/.test(part)).length;
      expect(named + Number(match?.[1])).toBe(150);
    });

    it('is the summary alone when the message has no native table', () => {
      const modal = renderBlocks(
        { summary: 'a <b>', blocks: [table(3)], visibility: 'ephemeral' },
        { surface: 'modal' },
      );
      expect(modal.text).toBe('a &lt;b&gt;');
      const plain = renderBlocks({
        summary: 'a',
        blocks: [{ kind: 'text', text: 'x' }],
        visibility: 'ephemeral',
      });
      expect(plain.text).toBe('a');
    });
  });

  it('turns code too long for a message into a file, with a preview and a note', () => {
    const body = JSON.stringify(
      Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`key${i}`, 'v'.repeat(30)])),
      null,
      2,
    );
    const message = renderBlocks(
      {
        summary: 's',
        blocks: [{ kind: 'code', text: body, filename: 'response.json' }],
        visibility: 'ephemeral',
      },
      { fileNote: () => 'in your direct messages' },
    );
    expect(message.files).toEqual([{ filename: 'response.json', title: 'response.json', content: body }]);
    expect(contextTexts(message)[0]).toMatch(
      /^Full output \(402 lines, \d+ KB\) attached as `response.json` in your direct messages\.$/,
    );
    assertWithinSlackLimits(message, 'message');
  });

  it('previews long code by the lines its producer picked, saying what they are, in a message and a modal', () => {
    const body = Array.from({ length: 300 }, (_, i) => `counter ${i} ${'x'.repeat(20)}`).join('\n');
    const block = {
      kind: 'code' as const,
      text: body,
      filename: 'show-failover.txt',
      preview: {
        lines: ['This host: Primary - Active', 'Other host: Secondary - Standby Ready'],
        what: 'the state',
      },
    };
    const message = renderBlocks(
      { summary: 's', blocks: [block], visibility: 'ephemeral' },
      { fileNote: () => 'in your direct messages' },
    );
    expect(sectionTexts(message)).toEqual([
      '```\nThis host: Primary - Active\nOther host: Secondary - Standby Ready\n```',
    ]);
    expect(contextTexts(message)[0]).toMatch(
      /^Above: the state\. Full output \(300 lines, \d+ KB\) attached as `show-failover.txt` in your direct messages\.$/,
    );
    expect(message.files[0]?.content).toBe(body);
    const modal = renderBlocks(
      { summary: 's', blocks: [block], visibility: 'ephemeral' },
      { surface: 'modal' },
    );
    expect(contextTexts(modal)[0]).toMatch(
      /^Only the state is shown \(the whole output is 300 lines, \d+ KB\)\.$/,
    );
  });

  it('keeps short code inline and attaches nothing', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [{ kind: 'code', text: 'ok' }],
      visibility: 'ephemeral',
    });
    expect(message.files).toEqual([]);
    expect(sectionTexts(message)).toEqual(['```\nok\n```']);
  });

  it('gives every button a unique action id that keeps its action name', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [
        { kind: 'actions', buttons: [...pageButtons(), { label: 'Report', url: 'https://x.example/r' }] },
      ],
      visibility: 'ephemeral',
    });
    const block = message.blocks[0];
    expect(block?.type).toBe('actions');
    const ids =
      block?.type === 'actions' ? block.elements.map((e) => ('action_id' in e ? e.action_id : '')) : [];
    expect(ids).toEqual(['fw.page:0', 'fw.page:1', 'fw.url:2']);
  });

  it('leaves out a button whose state is longer than Slack allows, and says so', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [
        { kind: 'actions', buttons: [{ label: 'Next', action: { id: 'fw.page', value: 'x'.repeat(2001) } }] },
      ],
      visibility: 'ephemeral',
    });
    expect(message.blocks.filter((b) => b.type === 'actions')).toHaveLength(0);
    expect(contextTexts(message)).toContain(
      ':warning: Not shown: 1 more button (too long for one Slack message).',
    );
  });

  it('allows 100 blocks in a modal and 50 in a message', () => {
    const many: View = {
      summary: 's',
      blocks: Array.from({ length: 120 }, () => ({ kind: 'divider' }) as const),
      visibility: 'ephemeral',
    };
    expect(renderBlocks(many).blocks).toHaveLength(SLACK_LIMITS.messageBlocks);
    expect(renderBlocks(many, { surface: 'modal' }).blocks).toHaveLength(SLACK_LIMITS.modalBlocks);
  });
});
