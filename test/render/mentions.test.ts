// Mentions cannot be forged: text from SCC (tenant and device names, error messages) or from people (a
// typed query echoed back) reaches Slack escaped, in the blocks and in the notification text, so it pings
// nobody and links nowhere; the mentions fwbot means (requester, approver) stay live. In plain_text, code
// and the terminal the intended ones read `@U…`, and the wrapping characters never show.
import { describe, expect, it } from 'vitest';
import type { View } from '../../src/model/view.js';
import { type RenderedMessage, renderBlocks } from '../../src/render/blocks.js';
import { renderInterfaceDeleted } from '../../src/render/interfaces.js';
import {
  channelMention,
  escapeMrkdwn,
  mentionsAsText,
  stripSentinels,
  userMention,
} from '../../src/render/mrkdwn.js';
import { renderTenant, renderTenantList } from '../../src/render/tenants.js';
import { plainMrkdwn, renderText } from '../../src/render/text.js';
import { mrkdwnIn } from '../support/blockTexts.js';

const HOSTILE = '<@U0ATTACK> <!channel> <#C0SECRET> <!subteam^S0ALL> <https://evil.example|docs>';
/** What the catalogue passes a renderer besides the result. */
type RenderMeta = Parameters<typeof renderTenantList>[3];

const meta: RenderMeta = {
  operationId: 'tenants.list',
  raw: {},
  actor: { userId: 'U0ENGINEER', channelId: 'C0OPS' },
};

/** The text Slack reads as mrkdwn: the notification text and every mrkdwn text object. */
function mrkdwnTexts(message: RenderedMessage): string[] {
  return [message.text, ...mrkdwnIn(message.blocks)];
}

/** Every piece of live Slack markup (`<…>`) in what Slack parses, notification text first. */
function liveMarkup(message: RenderedMessage): string[] {
  return mrkdwnTexts(message).flatMap((text) => [...text.matchAll(/<[^<>]*>/g)].map((m) => m[0]));
}

function allText(message: RenderedMessage): string {
  return `${JSON.stringify(message.blocks)}\n${message.text}`;
}

describe('mentions in Slack messages', () => {
  it('escapes a hostile tenant name everywhere it is shown, notification text included', () => {
    const message = renderBlocks(
      renderTenant({
        uid: 'b0c8d8a2-0000-4000-8000-000000000001',
        name: HOSTILE,
        displayName: HOSTILE,
        region: 'EU',
      }),
    );
    expect(liveMarkup(message)).toEqual([]);
    // The URL is in a code span: Slack would make a link of it even in a notification's text.
    expect(message.text).toBe(
      'Tenant &lt;@U0ATTACK&gt; &lt;!channel&gt; &lt;#C0SECRET&gt; &lt;!subteam^S0ALL&gt; `&lt;https://evil.example|docs&gt;`',
    );
    expect(allText(message)).toContain('&lt;@U0ATTACK&gt;');
  });

  it('echoes a typed query escaped ("no tenants matching …"), in blocks and notification text', () => {
    const page = { offset: 0, limit: 25, count: 0, shown: 0 };
    const message = renderBlocks(renderTenantList([], page, '<@U0ATTACK> <!channel>', meta));
    expect(liveMarkup(message)).toEqual([]);
    expect(message.text).toBe('MSP portal tenants matching `&lt;@U0ATTACK&gt; &lt;!channel&gt;`: none');
  });

  it('escapes an error sentence that repeats what was typed', () => {
    const said = 'No tenant named “<#C0SECRET> <!here>” in the MSP portal (searched 4 tenants).';
    const message = renderBlocks({
      summary: said,
      blocks: [{ kind: 'text', text: said }],
      visibility: 'ephemeral',
    });
    expect(liveMarkup(message)).toEqual([]);
    expect(message.text).toContain('“&lt;#C0SECRET&gt; &lt;!here&gt;”');
  });

  it("keeps the requester's mention live in an announcement about a hostile device", () => {
    const message = renderBlocks(
      renderInterfaceDeleted(
        {
          uid: 'i-1',
          kind: 'vlan',
          name: '<!channel>',
          hardwareName: 'Vlan20',
          device: { uid: 'd-1', name: '<@U0ATTACK>' },
        },
        meta,
      ),
    );
    expect(liveMarkup(message)).toEqual(['<@U0ENGINEER>', '<@U0ENGINEER>']);
    expect(message.text).toBe(
      '<@U0ENGINEER> staged the deletion of VLAN interface &lt;!channel&gt; (Vlan20) on &lt;@U0ATTACK&gt;.',
    );
  });

  it("keeps an intended approver's and channel's mention live beside hostile text", () => {
    const view: View = {
      summary: `Approved by ${userMention('U0BOB')}`,
      blocks: [
        { kind: 'text', text: `:white_check_mark: Approved by ${userMention('U0BOB')}: ${HOSTILE}` },
        { kind: 'context', text: `Watched in ${channelMention('C0NETOPS')}` },
        { kind: 'fields', fields: [{ label: 'Requested by', value: userMention('W0ALICE') }] },
      ],
      visibility: 'in_channel',
    };
    const message = renderBlocks(view);
    expect(liveMarkup(message)).toEqual(['<@U0BOB>', '<@U0BOB>', '<#C0NETOPS>', '<@W0ALICE>']);
    expect(allText(message)).not.toMatch(/[\uE000\uE001]/);
  });

  it('does not let outside text forge the wrapping: stripped where it enters, and only around a mention', () => {
    const forged = `\uE000<@U0ATTACK>\uE001`;
    expect(escapeMrkdwn(stripSentinels(forged))).toBe('&lt;@U0ATTACK&gt;');
    for (const wrapped of ['<!channel>', '<@U0X|boss>', '<https://evil.example>', '<#C0X|x>', '<@u0lower>']) {
      expect(escapeMrkdwn(`\uE000${wrapped}\uE001`)).toBe(
        wrapped.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      );
    }
    expect(userMention('<!channel>')).toBe('<!channel>');
    expect(escapeMrkdwn(userMention('someone'))).toBe('someone');
  });

  it('shows intended mentions as @id in plain text, code and tables, where nothing is live', () => {
    const message = renderBlocks({
      summary: 's',
      blocks: [
        { kind: 'header', text: `Asked by ${userMention('U0ALICE')}` },
        { kind: 'table', columns: ['who'], rows: [[userMention('U0ALICE')], ['<@U0ATTACK>']] },
        { kind: 'code', text: `${userMention('U0ALICE')} <!channel>` },
        {
          kind: 'actions',
          buttons: [{ label: `Ask ${userMention('U0ALICE')}`, action: { id: 'a', value: 'v' } }],
        },
      ],
      visibility: 'ephemeral',
    });
    const text = allText(message);
    expect(liveMarkup(message)).toEqual([]);
    expect(text).toContain('Asked by @U0ALICE');
    expect(text).toContain('‹@U0ATTACK›'); // a native table cell: the token is broken
    expect(text).toContain('@U0ALICE &lt;!channel&gt;');
    expect(text).toContain('Ask @U0ALICE');
    expect(text).not.toMatch(/[\uE000\uE001]/);
  });
});

describe('mentions in the terminal', () => {
  it('reads intended mentions as @id and never prints the wrapping characters', () => {
    const view: View = {
      summary: 's',
      blocks: [
        { kind: 'header', text: `By ${userMention('U0ALICE')}` },
        { kind: 'text', text: `${userMention('U0ALICE')} asked in ${channelMention('C0OPS')}` },
        { kind: 'table', columns: ['who'], rows: [[userMention('U0ALICE')]] },
      ],
      visibility: 'in_channel',
    };
    const text = renderText(view);
    expect(text).toBe('By @U0ALICE\n===========\n\n@U0ALICE asked in #C0OPS\n\nwho\n--------\n@U0ALICE\n');
    expect(mentionsAsText(`\uE000 stray \uE001`)).toBe(' stray ');
  });

  it('reads a Slack message as sent: live mentions as @id, escaped text as it was written', () => {
    expect(plainMrkdwn('<@U0ALICE> *create tenant &lt;@U0ATTACK&gt; &amp; co*: done.')).toBe(
      '@U0ALICE create tenant <@U0ATTACK> & co: done.',
    );
  });
});
