// A scheduled time reads in the window's zone for everyone and, in Slack, in each reader's own zone too:
// the `<!date^…>` token survives the Block Kit renderer live (in the blocks and the notification text),
// its fallback is what the console and the text renderers show, and text from outside
// cannot forge such a token.
import { describe, expect, it } from 'vitest';
import { PLAIN, renderMrkdwn } from '../../src/console/markup.js';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { escapeMrkdwn, localDate, mentionsAsText, stripSentinels } from '../../src/render/mrkdwn.js';
import { plainMrkdwn, renderText } from '../../src/render/text.js';
import { untrusted } from '../../src/render/untrusted.js';
import { viewerTime } from '../../src/render/viewerTime.js';
import { mrkdwnIn } from '../support/blockTexts.js';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-11-26T23:18:00Z');
/** Sat 28 Nov 2026 22:00 in Berlin (21:00 UTC). */
const RUN_AT = at('2026-11-28T21:00:00Z');
const TOKEN = `<!date^${RUN_AT / 1000}^{date_short_pretty} {time}|Sat 21:00 UTC>`;

function view(text: string): View {
  return { summary: `Scheduled for ${text}`, blocks: [{ kind: 'text', text }], visibility: 'in_channel' };
}

describe('viewerTime', () => {
  it('says the window zone for everyone and gives Slack a date token for the reader’s own zone', () => {
    const text = viewerTime(RUN_AT, NOW, 'Europe/Berlin');
    expect(escapeMrkdwn(text)).toBe(`Sat 22:00 Europe/Berlin, in 2 days (your time: ${TOKEN})`);
  });

  it('keeps the token live in the blocks and the notification text', () => {
    const message = renderBlocks(view(viewerTime(RUN_AT, NOW, 'Europe/Berlin')));
    expect(mrkdwnIn(message.blocks).join('\n')).toContain(TOKEN);
    expect(message.text).toContain(TOKEN);
  });

  it('shows the fallback where no reader’s clock is known: text, plain mrkdwn, the console’s twin', () => {
    const text = viewerTime(RUN_AT, NOW, 'Europe/Berlin');
    const words = 'Sat 22:00 Europe/Berlin, in 2 days (your time: Sat 21:00 UTC)';
    expect(mentionsAsText(text)).toBe(words);
    expect(renderText(view(text))).toContain(words);
    const slack = renderBlocks(view(text)).text;
    expect(plainMrkdwn(text)).toBe(words);
    expect(renderMrkdwn(slack, PLAIN)).toBe(`Scheduled for ${words}`);
  });

  it('gives the date when a week or more away, in both zones', () => {
    const far = at('2026-12-05T21:00:00Z');
    expect(mentionsAsText(viewerTime(far, NOW, 'Europe/Berlin'))).toBe(
      'Sat 2026-12-05 22:00 Europe/Berlin, in 9 days (your time: Sat 2026-12-05 21:00 UTC)',
    );
  });
});

describe('localDate', () => {
  it('cannot be forged by text from outside: a typed token is escaped, marks dropped where text enters', () => {
    const forged = `\uE000<!date^1^{date_short_pretty} {time}|x>\uE001 <!date^1^{date}|y>`;
    expect(escapeMrkdwn(stripSentinels(forged))).toBe(
      '&lt;!date^1^{date_short_pretty} {time}|x&gt; &lt;!date^1^{date}|y&gt;',
    );
    expect(escapeMrkdwn(untrusted(forged))).not.toContain('<!date');
  });

  it('drops from the fallback what would end the token', () => {
    expect(escapeMrkdwn(localDate(RUN_AT, 'a|b<c>&d\ne'))).toBe(
      `<!date^${RUN_AT / 1000}^{date_short_pretty} {time}|abcde>`,
    );
  });
});
