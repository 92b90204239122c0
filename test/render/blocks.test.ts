import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { type RenderedMessage, renderBlocks, SLACK_LIMITS } from '../../src/render/blocks.js';
import { channelMention, escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';
import type { Button, View, ViewBlock } from '../../src/render/view.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';

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

  it('escapes mentions too inside tables and code, where nothing should be live', () => {
    expect(escapeMrkdwn(userMention('U012ABC'))).toBe('<@U012ABC>');
    expect(escapeMrkdwn('<@U012ABC>')).toBe('&lt;@U012ABC&gt;');
    const message = renderBlocks({
      summary: 's',
      blocks: [
        { kind: 'table', columns: ['name'], rows: [['<@U012ABC> & co']] },
        { kind: 'code', text: '{"a": "<x>"}' },
      ],
      visibility: 'ephemeral',
    });
    const texts = sectionTexts(message).join('\n');
    expect(texts).toContain('&lt;@U012ABC&gt; &amp; co');
    expect(texts).toContain('{"a": "&lt;x&gt;"}');
  });

  it('splits a long table across sections, repeats the header, and never cuts a row in two', () => {
    const message = renderBlocks({ summary: 's', blocks: [table(150)], visibility: 'ephemeral' });
    const sections = sectionTexts(message);
    expect(sections.length).toBeGreaterThan(1);
    const rowLines = sections.flatMap((text) => text.split('\n').filter((line) => line.startsWith('r')));
    expect(rowLines).toHaveLength(150);
    for (const [i, line] of rowLines.entries())
      expect(line).toMatch(new RegExp(`^r${i}c0 +r${i}c1 +r${i}c2$`));
    for (const text of sections) expect(text.split('\n')[1]).toMatch(/^col0/);
    assertWithinSlackLimits(message, 'message');
  });

  it('says how many rows it could not show, and keeps the paging buttons', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [table(5000), { kind: 'actions', buttons: pageButtons() }],
      visibility: 'ephemeral',
    });
    const shown = sectionTexts(message).flatMap((t) => t.split('\n').filter((l) => l.startsWith('r'))).length;
    const note = contextTexts(message).find((t) => t.includes('Not shown'));
    expect(note).toBe(`:warning: Not shown: ${5000 - shown} more rows (too long for one Slack message).`);
    const actions = message.blocks.filter((b) => b.type === 'actions');
    expect(actions).toHaveLength(1);
    assertWithinSlackLimits(message, 'message');
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
