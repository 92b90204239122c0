import { describe, expect, it } from 'vitest';
import type { View } from '../../src/model/view.js';
import { userMention } from '../../src/render/mrkdwn.js';
import { numberedButtons, plainMarkup, renderTable, renderText } from '../../src/render/text.js';

describe('text rendering', () => {
  it('aligns table columns on the widest cell, counting characters not bytes', () => {
    expect(
      renderTable(
        ['Name', 'Region'],
        [
          ['contoso-eu', 'EU'],
          ['zürich', '—'],
        ],
      ),
    ).toBe(['Name        Region', '----------  ------', 'contoso-eu  EU', 'zürich      —'].join('\n'));
  });

  it('numbers buttons across the whole view and shows where links go', () => {
    const view: View = {
      summary: 's',
      visibility: 'ephemeral',
      blocks: [
        { kind: 'actions', buttons: [{ label: 'Download a', url: 'https://x.example/a' }] },
        { kind: 'text', text: 'between' },
        {
          kind: 'actions',
          buttons: [
            { label: 'Next page', action: { id: 'fw.page', value: '{}' } },
            { label: 'Share in channel', action: { id: 'fw.share', value: 'devices' } },
          ],
        },
      ],
    };
    expect(renderText(view)).toBe(
      '[1] Download a (https://x.example/a)\n\nbetween\n\n[2] Next page  [3] Share in channel\n',
    );
    expect(numberedButtons(view).map((b) => b.label)).toEqual([
      'Download a',
      'Next page',
      'Share in channel',
    ]);
  });

  it('reads fields split for Slack as one aligned list', () => {
    const view: View = {
      summary: 's',
      visibility: 'ephemeral',
      blocks: [
        { kind: 'fields', fields: [{ label: 'Name', value: 'inside' }] },
        { kind: 'fields', fields: [{ label: 'Security level', value: '100' }] },
      ],
    };
    expect(renderText(view)).toBe('Name:           inside\nSecurity level: 100\n');
  });

  it('turns Slack markup into plain text', () => {
    expect(
      plainMarkup(
        '<@U123> asked to create tenant *acme-eu* in <#C9|netops>, see <https://x.example|the docs>',
      ),
    ).toBe('@U123 asked to create tenant acme-eu in #netops, see the docs (https://x.example)');
    expect(plainMarkup('keep a*b and `code`')).toBe('keep a*b and `code`');
  });

  it('indents code and underlines headers', () => {
    const view: View = {
      summary: 's',
      visibility: 'ephemeral',
      blocks: [
        { kind: 'header', text: 'Title' },
        { kind: 'code', text: '{\n  "a": 1\n}' },
      ],
    };
    expect(renderText(view)).toBe('Title\n=====\n\n    {\n      "a": 1\n    }\n');
  });

  it('falls back to the summary for a view without blocks', () => {
    expect(
      renderText({ summary: `${userMention('U01')} did it`, blocks: [], visibility: 'in_channel' }),
    ).toBe('@U01 did it\n');
  });
});
