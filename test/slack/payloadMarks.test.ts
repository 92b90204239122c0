// fwbot's mark characters (render/mrkdwn.ts: U+E000–U+E00F wrap its live mentions and the values it
// shows as typed) never survive what Slack sends: the router drops them from every string of an
// interaction's payload before any listener reads it (payloads.ts stripPayloadMarks).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, userMention } from '../../src/render/mrkdwn.js';
import { stripPayloadMarks } from '../../src/slack/payloads.js';

const MARKS = /[\uE000-\uE00F]/;
const text = fc.string({
  unit: fc.constantFrom('\uE000', '\uE001', '\uE004', '\uE005', '\uE00F', '<', '@', 'U', '1', '>', ' ', 'é'),
  maxLength: 30,
});

describe('fwbot’s mark characters in input', () => {
  it('never survive a Slack payload, however deep (generated payloads)', () => {
    const payload = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), payload, { maxKeys: 6 }), (body) => {
        stripPayloadMarks(body);
        expect(JSON.stringify(body) ?? '').not.toMatch(MARKS);
      }),
      { numRuns: 300 },
    );
  });

  it('cannot make a live mention from typed text, but fwbot’s own mentions stay live', () => {
    const typed = { text: `\uE000<@U0VICTIM>\uE001 hi`, actions: [{ value: '\uE000<#C0SECRET>\uE001' }] };
    stripPayloadMarks(typed);
    expect(escapeMrkdwn(`${userMention('U0BOB')}: ${typed.text} ${typed.actions[0]?.value}`)).toBe(
      '<@U0BOB>: &lt;@U0VICTIM&gt; hi &lt;#C0SECRET&gt;',
    );
  });
});
