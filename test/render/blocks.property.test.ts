// Property-style: hundreds of generated views, big and hostile (huge and wide tables, several tables,
// empty and long cells, long lines, markup in data, too many buttons, surrogate pairs), each rendered for
// a message (native table) and for a modal (monospace) and checked against Slack's limits, the table
// blocks' own included (test/support/blockKitRules.ts). Seeded, so a failure names the seed that reproduces it.
import { describe, expect, it } from 'vitest';
import type { Button, View, ViewBlock } from '../../src/model/view.js';
import { type RenderedMessage, renderBlocks, SLACK_LIMITS } from '../../src/render/blocks.js';
import { channelMention, userMention } from '../../src/render/mrkdwn.js';
import { notificationText } from '../../src/render/untrusted.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';
import { blockTexts, mrkdwnIn } from '../support/blockTexts.js';

/** mulberry32: small, deterministic, good enough to spread test cases. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// \uE000 and \uE001 wrap the mentions renderers mean; in data they must never make one.
const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '&',
  '<',
  '>',
  '*',
  '`',
  '\n',
  'é',
  '😀',
  '|',
  '@',
  '#',
  '-',
  '"',
  '\uE000',
  '\uE001',
];
const INTENDED = ['<@U012ABC>', '<#C0OPS>'];

function generator(seed: number) {
  const next = random(seed);
  const int = (max: number) => Math.floor(next() * (max + 1));
  const pick = <T>(items: readonly T[]): T => items[int(items.length - 1)] as T;
  const size = () => pick([0, 1, 5, 40, 200, 2500, 9000]);
  // A random run of up to 64 characters, repeated: hostile characters everywhere, cheap to make.
  const text = (max = size()) => {
    const length = int(max);
    const run = Array.from({ length: Math.min(length, 1 + int(63)) }, () => pick(ALPHABET)).join('');
    return run === '' ? '' : run.repeat(Math.ceil(length / run.length)).slice(0, length);
  };
  const mention = () =>
    pick([
      userMention('U012ABC'),
      channelMention('C0OPS'),
      '<@U0DATA>',
      '<#C0OPS|ops>',
      '<!channel>',
      '<https://x|y>',
      '\uE000<!here>\uE001',
      '',
    ]);

  const button = (): Button => {
    const kind = int(3);
    const base = { label: text(pick([3, 80])), style: pick(['primary', 'danger', undefined] as const) };
    const confirm =
      int(3) === 0
        ? { title: text(150), text: text(500), confirm: text(40), deny: text(40), danger: true }
        : undefined;
    if (kind === 0) return { ...base, url: `https://example.com/${'p'.repeat(int(3100))}`, confirm };
    return {
      ...base,
      action: { id: pick(['fw.page', 'fw.share', 'fw.reveal']), value: text(2100) },
      confirm,
    };
  };

  const block = (): ViewBlock => {
    switch (int(7)) {
      case 0:
        return { kind: 'header', text: text(200) };
      case 1:
        return { kind: 'text', text: `${mention()}${text()}${mention()}` };
      case 2:
        return {
          kind: 'fields',
          fields: Array.from({ length: int(25) }, () => ({ label: text(60), value: text(pick([10, 2500])) })),
        };
      case 3: {
        // Up to 24 columns: past Slack's 20 a table stays monospace text.
        const columns = Array.from({ length: 1 + int(int(3) === 0 ? 23 : 12) }, () => text(20));
        const numeric = columns.flatMap((_, i) => (int(2) === 0 ? [i] : []));
        const rows = Array.from({ length: int(19) === 0 ? 3000 : pick([0, 1, 3, 60, 101, 400]) }, () =>
          columns.map((_, i) =>
            numeric.includes(i) && int(1) === 0 ? String(int(99999) - 500) : text(pick([0, 4, 12, 90, 400])),
          ),
        );
        const caption = int(2) === 0 ? text(pick([0, 30, 600])) : undefined;
        return { kind: 'table', columns, rows, numeric, ...(caption === undefined ? {} : { caption }) };
      }
      case 4:
        return { kind: 'code', text: text(pick([50, 4000, 40000])), filename: 'out.json' };
      case 5:
        return { kind: 'context', text: text(pick([20, 4000])) };
      case 6:
        return { kind: 'actions', buttons: Array.from({ length: int(60) }, button) };
      default:
        return { kind: 'divider' };
    }
  };

  return (): View => ({
    summary: text(pick([0, 50, 5000])),
    blocks: Array.from({ length: pick([0, 1, 4, 20, 60]) }, block),
    visibility: 'ephemeral',
  });
}

/** The text Slack reads as mrkdwn: every mrkdwn text object, and the notification text. */
function mrkdwnTexts(message: RenderedMessage): string[] {
  return [message.text, ...mrkdwnIn(message.blocks)];
}

/** Everything people read: every text object (plain_text and mrkdwn), the notification text, files. */
function shownTexts(message: RenderedMessage): string[] {
  return [message.text, ...message.files.map((file) => file.content), ...blockTexts(message.blocks)];
}

describe('renderBlocks on generated views', () => {
  it('keeps 250 generated views within every Slack limit, in messages and in modals', {
    timeout: 240_000,
  }, () => {
    for (let seed = 1; seed <= 250; seed += 1) {
      const view = generator(seed)();
      try {
        assertWithinSlackLimits(renderBlocks(view), 'message');
        assertWithinSlackLimits(renderBlocks(view, { surface: 'modal' }), 'modal');
      } catch (error) {
        throw new Error(`seed ${seed}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  });

  // CPU-bound like the first (150 views, hostile text on every cell): a generous bound, not a speed check.
  it('leaves live only the mentions renderers made, and never sends the wrapping characters', {
    timeout: 240_000,
  }, () => {
    for (let seed = 2000; seed < 2150; seed += 1) {
      const view = generator(seed)();
      for (const message of [renderBlocks(view), renderBlocks(view, { surface: 'modal' })]) {
        for (const text of mrkdwnTexts(message)) {
          const live = [...text.matchAll(/<[^<>]*>?/g)].map((m) => m[0]);
          for (const markup of live) expect(INTENDED, `seed ${seed}: ${markup}`).toContain(markup);
        }
        const wrapped = shownTexts(message).filter((text) => /[\uE000-\uE00F]/.test(text));
        expect(wrapped.length, `seed ${seed}: ${wrapped[0]?.slice(0, 200)}`).toBe(0);
      }
    }
  });

  it('accounts for every table row: shown (natively or as text), or counted in the note', () => {
    for (let seed = 1000; seed < 1080; seed += 1) {
      const next = random(seed);
      const counts = [Math.floor(next() * 4000), Math.floor(next() * 300)];
      const view: View = {
        summary: 'rows',
        blocks: [
          { kind: 'text', text: 'x'.repeat(Math.floor(next() * 5000)) },
          ...counts.map(
            (count, t): ViewBlock => ({
              kind: 'table',
              columns: ['id', 'name'],
              rows: Array.from({ length: count }, (_, i) => [`#${t}.${i}`, `tenant-${'n'.repeat(i % 90)}`]),
            }),
          ),
        ],
        visibility: 'ephemeral',
      };
      for (const surface of ['message', 'modal'] as const) {
        const message = renderBlocks(view, { surface });
        const monospace = message.blocks
          .flatMap((b) => (b.type === 'section' && b.text ? b.text.text.split('\n') : []))
          .filter((line) => line.startsWith('#')).length;
        const native = message.blocks
          .flatMap((b) => (b.type === 'data_table' ? b.rows.slice(1) : []))
          .filter((row) => row[0] && 'text' in row[0] && row[0].text.startsWith('#')).length;
        const note = message.blocks
          .flatMap((b) => (b.type === 'context' ? b.elements.map((e) => ('text' in e ? e.text : '')) : []))
          .join(' ');
        const missing = Number(/(\d+) more rows?/.exec(note)?.[1] ?? '0');
        expect(monospace + native + missing, `seed ${seed} (${surface})`).toBe(
          counts.reduce((a, b) => a + b, 0),
        );
        expect(message.blocks.filter((b) => b.type === 'data_table').length).toBeLessThanOrEqual(
          surface === 'message' ? 1 : 0,
        );
      }
    }
  });

  it('starts the fallback text with the summary, then names the first row the native table shows', {
    timeout: 240_000,
  }, () => {
    for (let seed = 3000; seed < 3100; seed += 1) {
      const message = renderBlocks({ ...generator(seed)(), summary: 'Summary' });
      expect(message.text.length, `seed ${seed}`).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
      const table = message.blocks.find((b) => b.type === 'data_table');
      if (table?.type !== 'data_table') {
        expect(message.text, `seed ${seed}`).toBe('Summary');
        continue;
      }
      const first = table.rows[1]?.[0];
      // Named by the notification rule: escaped, and a word Slack would read as markup in a code span.
      const name = notificationText(first && 'text' in first ? first.text : '');
      if (name.length <= 200) expect(message.text.startsWith(`Summary — ${name}`), `seed ${seed}`).toBe(true);
      else expect(message.text, `seed ${seed}`).toBe('Summary');
    }
  });
});
