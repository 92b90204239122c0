// The fake Web API refuses table blocks and static selects as Slack does (blockKitRules.ts), so a test that
// sends a message or a view Slack would refuse fails there; what the renderer makes is accepted.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBlocks } from '../../src/render/blocks.js';
import { type FakeSlack, startFakeSlack } from './fakeSlack.js';

function dataTable(rows: number, cell = 'x'): Record<string, unknown> {
  return {
    type: 'data_table',
    caption: 'Devices',
    rows: [
      [{ type: 'raw_text', text: 'Name' }],
      ...Array.from({ length: rows }, () => [{ type: 'raw_text', text: cell }]),
    ],
  };
}

describe('the fake Slack Web API and table blocks', () => {
  let slack: FakeSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await startFakeSlack();
    client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });

  afterAll(async () => {
    await slack.stop();
  });

  async function refusal(blocks: Record<string, unknown>[]): Promise<Record<string, unknown>> {
    try {
      await client.chat.postMessage({ channel: 'C0OPS', text: 't', blocks: blocks as never });
    } catch (error) {
      return (error as { data: Record<string, unknown> }).data;
    }
    throw new Error('the fake accepted a message Slack would refuse');
  }

  it('accepts a rendered list with its native table and a second table as text', async () => {
    const { text, blocks } = renderBlocks({
      summary: 'Devices: 1–25 of 80',
      visibility: 'ephemeral',
      blocks: [
        {
          kind: 'table',
          columns: ['Name', 'Count'],
          rows: Array.from({ length: 25 }, (_, i) => [`asa-${i}`, String(i)]),
          numeric: [1],
        },
        { kind: 'table', columns: ['Other'], rows: [['x']] },
      ],
    });
    const answer = await client.chat.postMessage({ channel: 'C0OPS', text, blocks });
    expect(answer.ok).toBe(true);
  });

  it('refuses a second table in one message as Slack does', async () => {
    const data = await refusal([dataTable(1), { type: 'table', rows: [[{ type: 'raw_text', text: 'a' }]] }]);
    expect(data).toMatchObject({ ok: false, error: 'invalid_attachments' });
    expect(data.errors).toContain('only_one_table_allowed');
  });

  it('refuses tables past their row, column, cell and character limits', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [dataTable(101), /102 rows/],
      [dataTable(0), /1 rows/],
      [dataTable(40, 'y'.repeat(300)), /characters across its cells/],
      [{ ...dataTable(1), caption: '' }, /caption: required/],
      [{ ...dataTable(1), page_size: 0 }, /page_size/],
      [dataTable(1, ''), /at least 1 character/],
      [
        {
          type: 'data_table',
          caption: 'c',
          rows: [
            Array.from({ length: 21 }, () => ({ type: 'raw_text', text: 'h' })),
            Array.from({ length: 21 }, () => ({ type: 'raw_text', text: 'v' })),
          ],
        },
        /21 cells/,
      ],
      [
        {
          type: 'data_table',
          caption: 'c',
          rows: [
            [
              { type: 'raw_text', text: 'h' },
              { type: 'raw_text', text: 'h' },
            ],
            [{ type: 'raw_text', text: 'v' }],
          ],
        },
        /where the header has 2/,
      ],
      [
        {
          type: 'data_table',
          caption: 'c',
          rows: [[{ type: 'rich_text', elements: [] }], [{ type: 'raw_text', text: 'v' }]],
        },
        /header cell may not be rich_text/,
      ],
      [
        { type: 'table', rows: Array.from({ length: 101 }, () => [{ type: 'raw_text', text: 'a' }]) },
        /101 rows/,
      ],
      [{ type: 'table', rows: [[{ type: 'raw_number', value: 'seven', text: '7' }]] }, /numeric value/],
    ];
    for (const [block, problem] of cases) {
      const data = await refusal([block]);
      expect(data.error).toBe('invalid_blocks');
      expect((data.errors as string[]).join('\n')).toMatch(problem);
    }
  });

  it('refuses a table in a modal, and a bad table through a response_url', async () => {
    await expect(
      client.views.open({
        trigger_id: 't',
        view: { type: 'modal', title: { type: 'plain_text', text: 'm' }, blocks: [dataTable(1) as never] },
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    const res = await fetch(slack.responseUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 't', blocks: [dataTable(1), dataTable(1)] }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('invalid_attachments');
  });
});

describe('the fake Slack Web API and static selects', () => {
  let slack: FakeSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await startFakeSlack();
    client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });

  afterAll(async () => {
    await slack.stop();
  });

  const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
  const form = (element: Record<string, unknown>) => ({
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: 'm' },
    blocks: [
      { type: 'input', block_id: 'f.parent', label: { type: 'plain_text', text: 'Parent' }, element },
    ] as never,
  });

  it('refuses a select with no option, and one that offers a value twice, as Slack does', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'static_select', action_id: 'value', options: [] }, /needs at least one option/],
      [{ type: 'multi_static_select', action_id: 'value', options: [] }, /needs at least one option/],
      [
        { type: 'static_select', action_id: 'value', options: [option('a'), option('b'), option('a')] },
        /option values repeat in a static_select: a/,
      ],
      [
        {
          type: 'multi_static_select',
          action_id: 'value',
          option_groups: [
            { label: { type: 'plain_text', text: 'g1' }, options: [option('a')] },
            { label: { type: 'plain_text', text: 'g2' }, options: [option('a')] },
          ],
        },
        /option values repeat/,
      ],
    ];
    for (const [element, problem] of cases) {
      const refused = await client.views.open({ trigger_id: 't', view: form(element) }).then(
        () => undefined,
        (error: { data: Record<string, unknown> }) => error.data,
      );
      expect(refused?.error).toBe('invalid_arguments');
      expect(((refused?.errors ?? []) as string[]).join('\n')).toMatch(problem);
    }
  });

  it('accepts a select with distinct options, and an external select (its options come later)', async () => {
    const accepted = await client.views.open({
      trigger_id: 't',
      view: form({ type: 'static_select', action_id: 'value', options: [option('a'), option('b')] }),
    });
    expect(accepted.ok).toBe(true);
    const external = await client.views.open({
      trigger_id: 't',
      view: form({ type: 'external_select', action_id: 'value', min_query_length: 0 }),
    });
    expect(external.ok).toBe(true);
  });
});
