import { describe, expect, it } from 'vitest';
import type { RenderMeta } from '../../src/catalogue/operation.js';
import { UserError } from '../../src/model/errors.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { listView, pageInfo } from '../../src/render/list.js';
import {
  decodePageState,
  encodePageState,
  MAX_ACTION_VALUE,
  PAGE_SIZE,
  pageButtons,
  pageRange,
} from '../../src/render/paging.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';

const meta = (raw: RenderMeta['raw']): RenderMeta => ({
  operationId: 'tenants.users',
  raw,
  actor: { userId: 'U1', channelId: 'C1' },
});

describe('page state in button values', () => {
  it('round-trips the operation, its raw arguments and the offset', () => {
    const value = encodePageState(
      'tenants.users',
      { tenant: 'contoso', query: 'a b', offset: '25', x: undefined },
      50,
    );
    expect(value).toBe('{"v":1,"o":"tenants.users","a":{"tenant":"contoso","query":"a b"},"n":50}');
    expect(decodePageState(value ?? '')).toEqual({
      operationId: 'tenants.users',
      raw: { tenant: 'contoso', query: 'a b', offset: '50' },
      offset: 50,
    });
  });

  it('gives no value when the arguments would not fit in a button', () => {
    expect(encodePageState('devices', { query: 'x'.repeat(MAX_ACTION_VALUE) }, 25)).toBeUndefined();
  });

  it('refuses a value it did not make', () => {
    for (const value of ['', 'not json', '{"v":2,"o":"x","a":{},"n":1}', '{"v":1,"o":"x","a":{},"n":-1}']) {
      expect(() => decodePageState(value)).toThrow(UserError);
    }
  });
});

describe('paging buttons', () => {
  it('offers Previous and Next only where there is a page', () => {
    const first = pageButtons(meta({ tenant: 'c' }), { offset: 0, limit: 25, count: 60, shown: 25 });
    expect(first.map((b) => b.label)).toEqual(['Next page']);
    const middle = pageButtons(meta({ tenant: 'c' }), { offset: 25, limit: 25, count: 60, shown: 25 });
    expect(middle.map((b) => [b.label, decodePageState(b.action?.value ?? '').offset])).toEqual([
      ['Previous page', 0],
      ['Next page', 50],
    ]);
    const last = pageButtons(meta({ tenant: 'c' }), { offset: 50, limit: 25, count: 60, shown: 10 });
    expect(last.map((b) => b.label)).toEqual(['Previous page']);
  });

  it('says which items a page shows', () => {
    expect(pageRange({ offset: 25, limit: 25, count: 60, shown: 25 })).toBe('26–50 of 60');
    expect(pageRange({ offset: 0, limit: 25, count: 0, shown: 0 })).toBe('none');
    expect(pageRange({ offset: 75, limit: 25, count: 60, shown: 0 })).toBe('none after 75');
  });

  it('fills what a page leaves out from what was asked', () => {
    expect(pageInfo({ items: [{}, {}] }, { offset: 10, limit: 25 })).toEqual({
      offset: 10,
      limit: 25,
      count: 12,
      shown: 2,
    });
  });

  it('cuts long cells with an ellipsis and keeps UUIDs whole', () => {
    const view = listView(
      {
        title: 'T',
        page: { offset: 0, limit: 25, count: 1, shown: 1 },
        columns: ['Name', 'UUID'],
        rows: [['x'.repeat(50), '3fa85f64-5717-4562-b3fc-2c963f66afa6']],
        empty: 'none',
      },
      meta({}),
    );
    const table = view.blocks.find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.rows[0]).toEqual([
      `${'x'.repeat(35)}…`,
      '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    ]);
  });
});

describe('a full list page in Slack', () => {
  it('fits whole in one native table, with its paging buttons, even at its widest', () => {
    // The widest list (upgrade runs across tenants: 8 columns), every cell as long as a list cell gets.
    const columns = ['Name', 'Version', 'Status', 'Done', 'Tenants', 'Devices', 'Submitted', 'UUID'];
    const rows = Array.from({ length: PAGE_SIZE }, (_, r) =>
      columns.map((_, c) => `${r}-${c}-`.padEnd(60, 'x')),
    );
    const view = listView(
      {
        title: 'Secure Client upgrade runs across tenants',
        page: { offset: PAGE_SIZE, limit: PAGE_SIZE, count: 500, shown: PAGE_SIZE },
        query: 'upgradeRunStatus:DONE*',
        columns,
        rows,
        numeric: [4, 5],
        hint: 'hint',
        empty: 'none',
      },
      meta({ query: 'upgradeRunStatus:DONE*' }),
    );
    const message = renderBlocks(view);
    const table = message.blocks.find((b) => b.type === 'data_table');
    expect(table?.type === 'data_table' && table.rows.length).toBe(PAGE_SIZE + 1);
    expect(table?.type === 'data_table' && table.page_size).toBe(10);
    const buttons = message.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    expect(buttons.map((b) => (b.type === 'button' ? b.text.text : ''))).toEqual([
      'Previous page',
      'Next page',
    ]);
    expect(message.blocks.some((b) => b.type === 'context' && JSON.stringify(b).includes('Not shown'))).toBe(
      false,
    );
    assertWithinSlackLimits(message, 'message');
  });
});
