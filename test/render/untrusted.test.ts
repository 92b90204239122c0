// Untrusted values stay inside their own field (render/untrusted.ts): whatever SCC or a person puts in a
// name, Slack and the terminal show it as the characters it holds, on its own line's worth of space, with
// what a reader cannot see shown escaped and flagged. Ordinary names look exactly as they did.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { cellText, code } from '../../src/render/format.js';
import { escapeMrkdwn, SLACK_READS, stripSentinels } from '../../src/render/mrkdwn.js';
import { plainMarkup, renderText } from '../../src/render/text.js';
import { codeAsLiteral, HIDDEN_NOTE, revealInvisible, untrusted } from '../../src/render/untrusted.js';
import { blockTexts, mrkdwnIn } from '../support/blockTexts.js';

/** Line breaks, controls, bidirectional controls, zero-width characters: what must never reach a reader raw. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const MARKS = /[\uE000-\uE00F]/;

/** Characters that attack a field: layout, markup, mentions, fwbot's own marks, and ordinary ones around them. */
const HOSTILE = [
  ...['\n', '\r', '\t', '\u2028', '\u202E', '\u202A', '\u2066', '\u2069', '\u200E', '\u200F', '\u061C'],
  ...['\u200B', '\u200D', '\u2060', '\uFEFF', '\u0000', '\u001B', '\u0085'],
  ...['*', '_', '~', '`', '>', '<', '&', ':', '@', '!', '#', '|', '/'],
  ...['\uE000', '\uE001', '\uE004', '\uE005', '\uE006', '\uE007'],
  ...['a', 'Z', '0', ' ', 'é', '😀', 'white_check_mark', 'here', 'U0VICTIM', 'https://x'],
];
const hostile = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HOSTILE), maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    'asa-lab-99\n*Device:* asa-lab-99 (harmless)',
    'contoso-eu\nTenant: sandbox-test',
    'evil\u202Eeulav',
    ':white_check_mark: *Already approved* — nothing to do',
    '> quoted',
    '\uE000<@U0VICTIM>\uE001',
    '<!channel> <https://evil.example|Approve>',
    '@here look',
  ),
);

function fieldView(value: string): View {
  return {
    summary: 's',
    blocks: [{ kind: 'fields', fields: [{ label: 'Device', value }] }],
    visibility: 'ephemeral',
  };
}

/** The value part of the one field Slack gets (`*Device*\n<value>`). */
function slackFieldValue(value: string): string {
  const message = renderBlocks(fieldView(value));
  const [text = ''] = mrkdwnIn(message.blocks);
  return text.slice(text.indexOf('\n') + 1);
}

/** What is left of mrkdwn once its code spans are taken out: the part Slack reads as markup. */
function outsideCode(mrkdwn: string): string {
  return mrkdwn.replace(/`[^`]*`/g, '');
}

describe('untrusted values', () => {
  it('leaves ordinary names exactly as they were, in Slack and in the terminal', () => {
    for (const name of [
      'GigabitEthernet0/1',
      'contoso-eu',
      'outside_vlan',
      'uplink (Port-channel1)',
      '2001:db8:200::1/64',
      '00:1a:2b:3c:4d:5e',
      'Globex Asia Pacific',
      'ana@contoso.example',
      '10.2.0.1/24',
    ]) {
      expect(untrusted(name)).toBe(name);
      expect(slackFieldValue(untrusted(name))).toBe(name);
      expect(plainMarkup(untrusted(name))).toBe(name);
      expect(code(name)).toBe(`\`${name}\``);
    }
  });

  it('keeps a forged second line inside its field, escaped and flagged', () => {
    const forged = 'asa-hq-01\n*Device:* asa-lab-99 (harmless)';

    expect(slackFieldValue(untrusted(forged))).toBe(
      `\`asa-hq-01\\n*Device:* asa-lab-99 (harmless)\` ${HIDDEN_NOTE}`,
    );
    expect(renderText(fieldView(untrusted(forged)))).toBe(
      `Device: asa-hq-01\\n*Device:* asa-lab-99 (harmless) ${HIDDEN_NOTE}\n`,
    );
  });

  it('shows a right-to-left override and zero-width characters as escapes', () => {
    expect(untrusted('asa-\u202E10-qh\u200B')).toBe(`asa-\\u202E10-qh\\u200B ${HIDDEN_NOTE}`);
    expect(untrusted('tag\u{E0041}')).toBe(`tag\\u{E0041} ${HIDDEN_NOTE}`);
  });

  it('shows an emoji code, bold and a quote as typed: in Slack inside a code span, in the terminal as is', () => {
    const dressed = ':white_check_mark: *Already approved* — nothing to do';

    expect(slackFieldValue(untrusted(dressed))).toBe(`\`${dressed}\``);
    expect(plainMarkup(`Users: ${untrusted(dressed)}`)).toBe(`Users: ${dressed}`);
    expect(slackFieldValue(untrusted('> quoted'))).toBe('`&gt; quoted`');
  });

  it('cannot be closed from inside: a backtick in a value or a code span shows as ˋ', () => {
    expect(slackFieldValue(untrusted('a` *b* `c'))).toBe('`aˋ *b* ˋc`');
    expect(code('x`\n*y*')).toBe(`\`xˋ\\n*y*\` ${HIDDEN_NOTE}`);
  });

  it('reads a sentence with code spans plainly, the spans’ content still as typed', () => {
    const action = `delete the VLAN interface ${code('iot (Vlan20)')} on ${code('*asa*')}`;
    const plain = codeAsLiteral(action);

    expect(escapeMrkdwn(plain)).toBe('delete the VLAN interface iot (Vlan20) on `*asa*`');
    expect(plainMarkup(plain)).toBe('delete the VLAN interface iot (Vlan20) on *asa*');
  });

  it('keeps a stray mark from joining the halves of a mention once the marks are gone', () => {
    // Found by the property below (seed -2027214966, path "360:2:0:3"): `@`, a stray literal mark, `here`.
    for (const raw of ['@\uE004here', '@\uE004channel\uE005', 'x @\uE004everyone', '*\uE004x\uE005*']) {
      const outside = outsideCode(slackFieldValue(untrusted(raw)));
      expect(SLACK_READS.test(outside), outside).toBe(false);
      expect(plainMarkup(untrusted(raw))).toBe(stripSentinels(raw));
    }
  });

  it('never lets a field value make a line, a hidden character or markup (generated values)', () => {
    fc.assert(
      fc.property(hostile, (raw) => {
        const shown = untrusted(raw);
        const slack = slackFieldValue(shown);
        expect(slack).not.toMatch(INVISIBLE);
        expect(slack).not.toMatch(MARKS);
        expect(slack).not.toContain('<');
        const outside = outsideCode(slack);
        expect(outside.includes('`'), slack).toBe(false);
        expect(SLACK_READS.test(outside), slack).toBe(false);
        // The terminal: one line; a value as it comes from outside (no marks: they are dropped where
        // text enters) reads as typed, what cannot be seen escaped.
        expect(renderText(fieldView(shown)).trimEnd().split('\n')).toHaveLength(1);
        const typed = stripSentinels(raw);
        const { text, hidden } = revealInvisible(typed);
        expect(plainMarkup(untrusted(typed))).toBe(hidden ? `${text} ${HIDDEN_NOTE}` : text);
        // untrusted() of its own output changes nothing.
        expect(untrusted(shown)).toBe(shown);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps code spans whole and table cells on one line (generated values)', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 3, max: 60 }), (raw, max) => {
        expect(code(raw)).toMatch(/^`[^`\n]*`(?: ⚠ \(contains hidden or control characters\))?$/);
        expect(code(raw)).not.toMatch(INVISIBLE);
        const cell = cellText(raw, max);
        expect(cell).not.toMatch(INVISIBLE);
        expect([...cell].length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 400 },
    );
  });

  it('never lets a native table cell carry a Slack token (generated values)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 5 }), (cells) => {
        const message = renderBlocks({
          summary: 's',
          blocks: [{ kind: 'table', columns: ['Name'], rows: cells.map((c) => [`${c}<@U0VICTIM>${c}`]) }],
          visibility: 'ephemeral',
        });
        const table = message.blocks.find((b) => b.type === 'data_table');
        for (const text of blockTexts(table)) {
          expect(text).not.toMatch(/<[@#!]|<[a-z][a-z0-9+.-]*:/i);
          expect(text).not.toMatch(INVISIBLE);
          expect(text).not.toMatch(MARKS);
        }
        expect(message.text).not.toMatch(/<[@#!]/);
      }),
      { numRuns: 200 },
    );
  });
});
