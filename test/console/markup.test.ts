// Slack mrkdwn as the console shows it: each construct with ANSI styles (a TTY) and as plain text (a pipe,
// or NO_COLOR), code taken verbatim, escaped text never read as markup, and every emoji code fwbot writes
// shown as an emoji.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANSI, EMOJI, PLAIN, renderMrkdwn, terminalStyle } from '../../src/console/markup.js';
import { escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';

const ansi = (text: string) => renderMrkdwn(text, ANSI);
const plain = (text: string) => renderMrkdwn(text, PLAIN);

describe('console markup', () => {
  it('shows *bold*, _italic_ and ~strike~ styled on a TTY, without their marks in plain text', () => {
    expect(ansi('a *bold* word')).toBe('a \x1b[1mbold\x1b[22m word');
    expect(ansi('an _italic_ word')).toBe('an \x1b[3mitalic\x1b[23m word');
    expect(ansi('a ~gone~ word')).toBe('a \x1b[9mgone\x1b[29m word');
    expect(plain('*bold*, _italic_ and ~gone~.')).toBe('bold, italic and gone.');
  });

  it('nests emphasis, and leaves marks inside words and lone marks alone', () => {
    expect(ansi('*bold _both_*')).toBe('\x1b[1mbold \x1b[3mboth\x1b[23m\x1b[22m');
    expect(plain('snake_case_name, 2*3*4, a * b * c, * not bold*')).toBe(
      'snake_case_name, 2*3*4, a * b * c, * not bold*',
    );
    expect(plain('(*in brackets*)')).toBe('(in brackets)');
    expect(ansi('*a* _b_')).toBe('\x1b[1ma\x1b[22m \x1b[3mb\x1b[23m');
    expect(plain('*one\ntwo*')).toBe('*one\ntwo*');
  });

  it('shows `code` styled, or without backticks, and reads nothing inside it', () => {
    expect(ansi('run `fw help` now')).toBe('run \x1b[36mfw help\x1b[39m now');
    expect(plain('`*not bold* _nor italic_ :x: <@U0ALICE> &lt;tag&gt;`')).toBe(
      '*not bold* _nor italic_ :x: <@U0ALICE> <tag>',
    );
  });

  it('sets ``` blocks on lines of their own, indented, their content verbatim', () => {
    const block =
      'Commands:```\nno interface Vlan20\n*keep* _this_ `as is` :x: <https://a.b|c> &amp;\n```done';
    expect(plain(block)).toBe(
      'Commands:\n    no interface Vlan20\n    *keep* _this_ `as is` :x: <https://a.b|c> &\ndone',
    );
    expect(ansi('```x```')).toBe('    \x1b[36mx\x1b[39m');
    // blocks.ts breaks a ``` inside code so the fence holds; the terminal shows it as written.
    expect(plain('```\na `\u200b`` b\n```')).toBe('    a ``` b');
  });

  it('shows links as their label and address', () => {
    expect(plain('see <https://example.com/a_b_c|the docs>')).toBe(
      'see the docs (https://example.com/a_b_c)',
    );
    expect(plain('<https://example.com/x_y_>')).toBe('https://example.com/x_y_');
    expect(plain('<mailto:noc@example.com|noc@example.com>')).toBe('noc@example.com');
    expect(ansi('<https://e.x|docs>')).toBe('\x1b[4mdocs\x1b[24m (https://e.x)');
  });

  it('shows mentions and specials as names', () => {
    expect(plain('<@U0ALICE> in <#C0OPS|netops> and <#C0OPS>, <!here>')).toBe(
      '@U0ALICE in #netops and #C0OPS, @here',
    );
    expect(plain(escapeMrkdwn(`${userMention('U0BOB')} asked`))).toBe('@U0BOB asked');
  });

  it('shows &amp;, &lt; and &gt; as typed, and escaped markup never as markup', () => {
    expect(plain('a &amp; b &lt; c &gt; d')).toBe('a & b < c > d');
    expect(plain(escapeMrkdwn('<@U0ATTACK> <https://evil.example|bank> &lt;'))).toBe(
      '<@U0ATTACK> <https://evil.example|bank> &lt;',
    );
  });

  it('shows emoji codes as emoji, and other colon words as they are', () => {
    expect(plain(':white_check_mark: Approved; :no_entry: refused')).toBe('✅ Approved; ⛔ refused');
    expect(plain('at 10:30:00, see :not_an_emoji:')).toBe('at 10:30:00, see :not_an_emoji:');
  });

  it('knows every emoji code fwbot writes', () => {
    const codes = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(/['"`\s(]:([a-z_]+):(?=[\s'"`])/g))
            codes.add(m[1] ?? '');
      }
    };
    walk('src');
    expect(codes.size).toBeGreaterThan(10);
    expect([...codes].filter((code) => EMOJI[code] === undefined)).toEqual([]);
  });

  it('styles only a TTY that allows colour', () => {
    expect(terminalStyle(true, {})).toBe(ANSI);
    expect(terminalStyle(false, {})).toBe(PLAIN);
    expect(terminalStyle(true, { NO_COLOR: '1' })).toBe(PLAIN);
    expect(terminalStyle(true, { NO_COLOR: '' })).toBe(ANSI);
    expect(terminalStyle(true, { TERM: 'dumb' })).toBe(PLAIN);
  });
});
