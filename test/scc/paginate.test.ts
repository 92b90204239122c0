// paginate(): every item of every page, fetched with limit/offset, ending where the server says the list
// ends, and refusing to loop with a server that does not page.
import { afterEach, describe, expect, it } from 'vitest';
import { SccResponseError } from '../../src/scc/errors.js';
import { type SccOperationId, sccOperations } from '../../src/scc/operationTypes.js';
import { successResponses } from '../../src/scc/responseSchemas.js';
import { clientOf, type FakeScc, type RecordedRequest, startFakeScc } from './fakeScc.js';

const devices = Array.from({ length: 7 }, (_, i) => ({
  uid: `uid-${i}`,
  name: `fw-${i}`,
  deviceType: 'ASA',
}));

/** A server that pages `devices` honestly, optionally without `count`. */
function pagingServer({ withCount = true } = {}) {
  return (request: RecordedRequest) => {
    const limit = Number(request.query.get('limit') ?? 50);
    const offset = Number(request.query.get('offset') ?? 0);
    const items = devices.slice(offset, offset + limit);
    return { status: 200, body: { ...(withCount ? { count: devices.length } : {}), limit, offset, items } };
  };
}

let fake: FakeScc | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('paged operations', () => {
  // paginate() reads `count`, `offset` and `items` from any operation that takes `offset`.
  it('answer a page of items: every operation that takes offset has a page model for 200', () => {
    const paged = (Object.keys(sccOperations) as SccOperationId[]).filter((id) =>
      sccOperations[id].query.some((param) => param.name === 'offset'),
    );

    expect(paged).toContain('getDevices');
    for (const id of paged) {
      const page = successResponses(id)[200];
      expect(page?.safeParse({ count: 0, limit: 50, offset: 0, items: [] }).success, id).toBe(true);
      expect(page?.safeParse({ items: 'not a list' }).success, id).toBe(false);
      expect(page?.safeParse({ offset: 'zero' }).success, id).toBe(false);
    }
  });
});

describe('paginate', () => {
  it('yields every item across pages and stops at count', async () => {
    fake = await startFakeScc(pagingServer());
    const { client } = clientOf(fake);

    const names = (await collect(client.paginate('getDevices', {}, { pageSize: 3 }))).map((d) => d.name);

    expect(names).toEqual(['fw-0', 'fw-1', 'fw-2', 'fw-3', 'fw-4', 'fw-5', 'fw-6']);
    expect(fake.requests.map((r) => r.rawQuery)).toEqual([
      'limit=3&offset=0',
      'limit=3&offset=3',
      'limit=3&offset=6',
    ]);
    await client.close();
  });

  it('stops at a short page when the server gives no count', async () => {
    fake = await startFakeScc(pagingServer({ withCount: false }));
    const { client } = clientOf(fake);

    const items = await collect(client.paginate('getDevices', {}, { pageSize: 4 }));

    expect(items).toHaveLength(7);
    expect(fake.requests).toHaveLength(2);
    await client.close();
  });

  it('stops at an empty page', async () => {
    fake = await startFakeScc(pagingServer({ withCount: false }));
    const { client } = clientOf(fake);

    const items = await collect(client.paginate('getDevices', {}, { pageSize: 7 }));

    expect(items).toHaveLength(7);
    expect(fake.requests.map((r) => r.query.get('offset'))).toEqual(['0', '7']);
    await client.close();
  });

  it('keeps the query and sort on every page, and starts at the offset given', async () => {
    fake = await startFakeScc(pagingServer());
    const { client } = clientOf(fake);

    const items = await collect(client.devices.iterate({ q: 'deviceType:ASA', sort: ['name:ASC'] }));
    const fromFive = await collect(client.paginate('getDevices', { query: { offset: 5, limit: 200 } }));

    expect(items).toHaveLength(7);
    expect(fake.requests[0]?.rawQuery).toBe('limit=200&offset=0&q=deviceType%3AASA&sort=name%3AASC');
    expect(fromFive.map((d) => d.name)).toEqual(['fw-5', 'fw-6']);
    await client.close();
  });

  it('pages the tenants of the MSP portal through the area method', async () => {
    const tenants = [{ uid: 't1', name: 'a', displayName: 'A', region: 'US' }];
    fake = await startFakeScc(() => ({
      status: 200,
      body: { count: 1, limit: 200, offset: 0, items: tenants },
    }));
    const { client } = clientOf(fake);

    await expect(collect(client.tenants.iterate())).resolves.toEqual(tenants);
    await client.close();
  });

  it('refuses to go on with a server that ignores offset and echoes offset 0', async () => {
    fake = await startFakeScc(() => ({
      status: 200,
      body: { limit: 3, offset: 0, items: devices.slice(0, 3) },
    }));
    const { client } = clientOf(fake);

    const seen: string[] = [];
    const error = await (async () => {
      for await (const device of client.paginate('getDevices', {}, { pageSize: 3 })) seen.push(device.name);
    })().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SccResponseError);
    expect((error as Error).message).toBe(
      'getDevices: response paging stopped: asked for offset 3, the server answered offset 0',
    );
    expect(seen).toEqual(['fw-0', 'fw-1', 'fw-2']);
    expect(fake.requests).toHaveLength(2);
    await client.close();
  });

  it('refuses to go on with a server that sends the same page again without saying its offset', async () => {
    fake = await startFakeScc(() => ({ status: 200, body: { items: devices.slice(0, 3) } }));
    const { client } = clientOf(fake);

    await expect(collect(client.paginate('getDevices', {}, { pageSize: 3 }))).rejects.toThrow(
      'paging stopped: the server sent the same page again at offset 3',
    );
    expect(fake.requests).toHaveLength(2);
    await client.close();
  });

  it('gives up after maxPages against a server that never ends', async () => {
    let next = 0;
    fake = await startFakeScc(() => {
      next += 1;
      return { status: 200, body: { items: [{ uid: `u${next}`, name: `fw-${next}`, deviceType: 'ASA' }] } };
    });
    const { client } = clientOf(fake);

    await expect(collect(client.paginate('getDevices', {}, { pageSize: 1, maxPages: 5 }))).rejects.toThrow(
      'paging stopped: more than 5 pages',
    );
    expect(fake.requests).toHaveLength(5);
    await client.close();
  });
});
