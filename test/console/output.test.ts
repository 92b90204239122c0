// What the console prints for a view (its own answers, and what the workers and approvals post in its
// channel, which reach it as Views): its markup rendered, mentions as the console's names, text from SCC
// that looks like markup left as text, and ANSI styles only when styled.
import { describe, expect, it } from 'vitest';
import { ANSI, PLAIN } from '../../src/console/markup.js';
import { ConsoleWriter } from '../../src/console/output.js';
import type { View } from '../../src/model/view.js';
import { userMention } from '../../src/render/mrkdwn.js';

const users = [{ name: 'alice', id: 'U0ALICE', roles: 'operator' }];

const card: View = {
  summary: `${userMention('U0ALICE')} asks to delete interface iot`,
  visibility: 'in_channel',
  blocks: [
    { kind: 'header', text: 'Approval needed' },
    {
      kind: 'text',
      text: `${userMention('U0ALICE')} asks to *delete \`iot (Vlan20)\` on asa-hq-01*. SCC says: <@U0ATTACK> & <https://evil.example|bank>`,
    },
    { kind: 'fields', fields: [{ label: 'Device', value: '`asa-hq-01`' }] },
    { kind: 'code', text: 'no interface Vlan20\n*not bold* <@U0X>' },
    { kind: 'context', text: ':white_check_mark: Command: `/fw interfaces delete asa-hq-01 Vlan20`' },
    { kind: 'actions', buttons: [{ label: 'Approve', action: { id: 'fw.approval.approve', value: '{}' } }] },
  ],
};

describe('console output', () => {
  it('renders a view as plain text: no marks, code verbatim, outside text left as text', () => {
    expect(new ConsoleWriter(users, PLAIN).view(card)).toBe(
      [
        'Approval needed',
        '===============',
        '',
        '@alice asks to delete iot (Vlan20) on asa-hq-01. SCC says: <@U0ATTACK> & <https://evil.example|bank>',
        '',
        'Device: asa-hq-01',
        '',
        '    no interface Vlan20',
        '    *not bold* <@U0X>',
        '',
        '✅ Command: /fw interfaces delete asa-hq-01 Vlan20',
        '',
        '[1] Approve',
      ].join('\n'),
    );
  });

  it('styles with ANSI only when asked to', () => {
    const styled = new ConsoleWriter(users, ANSI).view(card);
    expect(styled).toContain('\x1b[1mdelete \x1b[36miot (Vlan20)\x1b[39m on asa-hq-01\x1b[22m');
    expect(styled).toContain('    \x1b[36mno interface Vlan20\x1b[39m');
    expect(new ConsoleWriter(users, PLAIN).view(card)).not.toContain('\x1b[');
  });

  it('keeps Slack text as received apart from text fwbot wrote', () => {
    const writer = new ConsoleWriter(users, PLAIN);
    expect(writer.received('<@U0ALICE> said &lt;@U0OTHER&gt; &amp; `x`')).toBe('@alice said <@U0OTHER> & x');
    expect(writer.text(`${userMention('U0ALICE')} typed <@U0OTHER> &amp;`)).toBe(
      '@alice typed <@U0OTHER> &amp;',
    );
    expect(writer.plain(':warning: `as typed` *here*')).toBe('⚠️ `as typed` *here*');
  });
});
