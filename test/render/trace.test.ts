// The verdict card on its own: what the device printed (access-list lines, NAT lines, interface names, the
// drop reason) reaches Slack as the characters it holds, never as a mention, link or markup; an answer
// without a verdict is said to be one; the question's buttons carry their command lines.
import { describe, expect, it } from 'vitest';
import { renderBlocks } from '../../src/render/blocks.js';
import { parsePacketTracer } from '../../src/render/packetTracer.js';
import { renderText } from '../../src/render/text.js';
import { renderTrace, renderTraceQuestion, type TraceAnswer } from '../../src/render/trace.js';
import { mrkdwnIn } from '../support/blockTexts.js';

const HOSTILE_OUTPUT = `Phase: 1
Type: ACCESS-LIST
Subtype: log
Result: DROP
Config:
access-group <!channel> in interface <@U0ATTACK>
access-list <!channel> extended deny tcp any any eq *www* <https://evil.example|click>
Additional Information:
Untranslate <!here>/443 to 10.0.0.1/443

Result:
input-interface: <@U0ATTACK>
output-interface: *dmz* :fire:
Action: drop
Drop-reason: (acl-drop) <!everyone> *denied* :fire:
`;

function answer(output: string): TraceAnswer {
  return {
    kind: 'verdict',
    device: { uid: 'd1', name: 'asa-<!here>' },
    script: 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443',
    input: 'outside',
    inferred: false,
    verdict: parsePacketTracer(output),
    output,
  };
}

describe('the verdict card', () => {
  it('shows what the device printed as the characters it holds', () => {
    const message = renderBlocks(renderTrace(answer(HOSTILE_OUTPUT)));
    const live = [message.text, ...mrkdwnIn(message.blocks)].flatMap((t) => [...t.matchAll(/<[^<>]*>/g)]);
    expect(live).toEqual([]);
    const text = renderText(renderTrace(answer(HOSTILE_OUTPUT)));
    expect(text).toContain(
      'access-list <!channel> extended deny tcp any any eq *www* <https://evil.example|click>',
    );
    expect(text).toContain('(acl-drop) <!everyone> *denied* :fire:');
    // Markup Slack would read (bold, an emoji code) stays literal: each value is a code span.
    const mrkdwn = mrkdwnIn(message.blocks).join('\n');
    expect(mrkdwn).toContain('`*dmz* :fire:`');
    expect(mrkdwn).toContain('`(acl-drop) &lt;!everyone&gt; *denied* :fire:`');
  });

  it('says an answer without an Action line gives no verdict', () => {
    const view = renderTrace(answer('ERROR: % Invalid input detected at marker.'));
    expect(view.summary).toMatch(/no verdict/);
    expect(renderText(view)).toContain('cannot say whether the packet passes');
  });

  it('asks with one button per interface, each carrying its command line', () => {
    const view = renderTraceQuestion({
      kind: 'question',
      device: { uid: 'd1', name: 'asa-hq-01' },
      source: '198.51.100.7',
      choices: ['dmz', 'outside'].map((nameif) => ({
        nameif,
        commandText: `trace asa-hq-01 tcp 1.2.3.4 5.6.7.8 443 --in ${nameif}`,
      })),
    });
    const buttons = view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []));
    expect(buttons.map((b) => [b.label, b.action?.value])).toEqual([
      ['dmz', 'trace asa-hq-01 tcp 1.2.3.4 5.6.7.8 443 --in dmz'],
      ['outside', 'trace asa-hq-01 tcp 1.2.3.4 5.6.7.8 443 --in outside'],
    ]);
  });
});
