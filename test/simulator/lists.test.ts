// The one list engine behind every list route: limit / offset validation, `q` in SCC's Lucene subset
// (terms, wildcards, ranges with open ends, dates, AND / OR / NOT, parentheses), 400 for unsearchable
// fields listing the searchable ones, repeated sort keys, and `count` as the total before paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLucene } from '../../src/scc/luceneSyntax.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, items, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeAll(async () => {
  ({ sim, api } = await simulator());
});
afterAll(async () => {
  await sim.stop();
});

const devices = (query: CallOptions['query']) => api('GET', '/v1/inventory/devices', { query });
const names = async (query: CallOptions['query']) => {
  const response = await devices(query);
  expect(response.status, response.text).toBe(200);
  return items(response).map((d) => d.name);
};
const tenants = async (query: CallOptions['query']) =>
  items(await api('GET', '/v1/msp/tenants', { query })).map((t) => t.name);

describe('paging', () => {
  it('defaults to limit 50, offset 0, and counts every match', async () => {
    const page = obj(await devices({}));
    expect(page).toMatchObject({ count: 7, limit: 50, offset: 0 });
    expect(page.items).toHaveLength(7);
  });

  it('slices with limit and offset while count stays the total', async () => {
    const page = obj(await devices({ limit: 2, offset: 3 }));
    expect(page).toMatchObject({ count: 7, limit: 2, offset: 3 });
    expect((page.items as { name: string }[]).map((d) => d.name)).toEqual(['ftd-edge-01', 'ftd-edge-02']);
    expect(obj(await devices({ limit: 0 }))).toMatchObject({ count: 7, items: [] });
    expect(obj(await devices({ offset: 100 }))).toMatchObject({ count: 7, items: [] });
    expect(obj(await devices({ limit: 200 })).items).toHaveLength(7);
  });

  it.each([
    ['limit', '201'],
    ['limit', '-1'],
    ['limit', 'ten'],
    ['limit', '1.5'],
    ['offset', '-1'],
    ['offset', 'x'],
  ])('answers 400 INVALID_INPUT naming %s for %j', async (name, value) => {
    const response = await devices({ [name]: value });
    expect(response.status).toBe(400);
    expect(obj(response)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { [name]: { value } } });
  });

  it('pages every list route the same way (tenants, runs, reports, interfaces)', async () => {
    const routes = [
      '/v1/msp/tenants',
      '/v1/inventory/devices/secure-client/upgrades/runs',
      '/v1/events/reports',
      `/v1/inventory/devices/asas/${sim.deviceUid('asa-hq-01')}/physicalinterfaces`,
    ];
    for (const route of routes) {
      const page = obj(await api('GET', route, { query: { limit: 1, offset: 1 } }));
      expect(page.limit).toBe(1);
      expect(page.offset).toBe(1);
      expect((page.items as unknown[]).length).toBeLessThanOrEqual(1);
      expect(Number(page.count)).toBeGreaterThan(1);
      expect((await api('GET', route, { query: { limit: 500 } })).status).toBe(400);
    }
  });
});

describe('q', () => {
  it('matches field:value, case-insensitively on text', async () => {
    expect(await names({ q: 'deviceType:ASA' })).toEqual(['asa-hq-01', 'asa-branch-02', 'asa-dc-03']);
    expect(await names({ q: 'name:ASA-HQ-01' })).toEqual(['asa-hq-01']);
    expect(await names({ q: 'name:"ftd-lab-03"' })).toEqual(['ftd-lab-03']);
  });

  it('matches * and ? wildcards', async () => {
    expect(await names({ q: 'name:ftd-*' })).toEqual(['ftd-edge-01', 'ftd-edge-02', 'ftd-lab-03']);
    expect(await names({ q: 'name:*-0?' })).toHaveLength(6);
    expect(await names({ q: 'name:*edge*' })).toEqual(['ftd-edge-01', 'ftd-edge-02']);
  });

  it('combines terms with AND, OR, NOT, a leading "-", juxtaposition and parentheses', async () => {
    expect(await names({ q: 'deviceType:ASA AND softwareVersion:9.2*' })).toEqual(['asa-hq-01']);
    expect(await names({ q: 'name:asa-hq-01 OR name:cdfmc-acme' })).toEqual(['asa-hq-01', 'cdfmc-acme']);
    expect(await names({ q: 'deviceType:ASA NOT name:asa-hq-01' })).toEqual(['asa-branch-02', 'asa-dc-03']);
    expect(await names({ q: 'deviceType:ASA -name:asa-hq-01' })).toEqual(['asa-branch-02', 'asa-dc-03']);
    expect(await names({ q: '(name:asa-hq-01 OR name:asa-dc-03) deviceType:ASA' })).toEqual([
      'asa-hq-01',
      'asa-dc-03',
    ]);
    expect(await names({ q: 'deviceType:CDFMC_MANAGED_FTD AND (name:*01 OR name:*03)' })).toEqual([
      'ftd-edge-01',
      'ftd-lab-03',
    ]);
  });

  it('matches any element of a list field', async () => {
    expect(await names({ q: 'deviceRoles:FTD_RA_VPN_HEADEND' })).toEqual(['ftd-edge-01', 'ftd-edge-02']);
  });

  it('takes numeric ranges, inclusive and exclusive, with open ends', async () => {
    const asa = sim.deviceUid('asa-hq-01');
    const vlans = async (q: string) =>
      items(await api('GET', `/v1/inventory/devices/asas/${asa}/subinterfaces`, { query: { q } })).map(
        (s) => s.vlanPrimaryId,
      );
    expect(await vlans('vlanPrimaryId:[100 TO 200]')).toEqual([100, 200]);
    expect(await vlans('vlanPrimaryId:{100 TO 200]')).toEqual([200]);
    expect(await vlans('vlanPrimaryId:[100 TO 200}')).toEqual([100]);
    expect(await vlans('vlanPrimaryId:[250 TO *]')).toEqual([300]);
    expect(await vlans('vlanPrimaryId:[* TO 100]')).toEqual([100]);
  });

  it('takes date ranges, with whole days for date-only bounds', async () => {
    const runs = async (q: string) =>
      items(await api('GET', '/v1/inventory/devices/secure-client/upgrades/runs', { query: { q } })).map(
        (r) => r.name,
      );
    const day = (daysAgo: number) =>
      new Date(sim.clock.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    expect(await runs(`submissionTime:[${day(10)} TO *]`)).toEqual(['ftd-canary', 'ftd-vpn-5-1']);
    expect(await runs(`submissionTime:[* TO ${day(20)}]`)).toEqual([
      'branch-rollout',
      'quarterly-vpn-refresh',
    ]);
    const exact = new Date(sim.clock.now() - 50 * 86_400_000).toISOString();
    expect(
      await runs(`submissionTime:{${exact} TO ${new Date(sim.clock.now()).toISOString()}}`),
    ).toHaveLength(4);
  });

  it('answers 400 listing the searchable fields for an unsearchable one', async () => {
    const response = await devices({ q: 'color:blue' });
    expect(response.status).toBe(400);
    const body = obj(response);
    expect(str(body.errorMsg)).toContain(
      "Field 'color' is not searchable. Searchable fields: uid, name, deviceType",
    );
    expect(body.details).toMatchObject({
      q: { field: 'color', searchableFields: expect.arrayContaining(['name', 'deviceType']) },
    });
    expect((await api('GET', '/v1/msp/tenants', { query: { q: 'name:x OR secret:y' } })).status).toBe(400);
  });

  it.each(['name:', 'name:(a', '(name:a', 'just-a-word', 'name:[a TO', 'name:"open'])(
    'answers 400 for the malformed query %j',
    async (q) => {
      const response = await devices({ q });
      expect(response.status).toBe(400);
      expect(obj(response).details).toHaveProperty('q');
    },
  );

  it('answers 400 for values a field cannot hold', async () => {
    const asa = sim.deviceUid('asa-hq-01');
    expect(
      (await api('GET', `/v1/inventory/devices/asas/${asa}/subinterfaces`, { query: { q: 'mtu:big' } }))
        .status,
    ).toBe(400);
    expect(
      (await api('GET', '/v1/events/reports', { query: { q: 'createdDate:[yesterday TO *]' } })).status,
    ).toBe(400);
  });

  it('counts matches before paging', async () => {
    expect(obj(await devices({ q: 'deviceType:ASA', limit: 1 }))).toMatchObject({
      count: 3,
      items: [expect.objectContaining({ name: 'asa-hq-01' })],
    });
  });
});

describe('sort', () => {
  it('orders by a field ascending or descending', async () => {
    expect(await names({ sort: 'name:ASC', q: 'deviceType:ASA' })).toEqual([
      'asa-branch-02',
      'asa-dc-03',
      'asa-hq-01',
    ]);
    expect(await names({ sort: 'name:DESC', q: 'deviceType:ASA' })).toEqual([
      'asa-hq-01',
      'asa-dc-03',
      'asa-branch-02',
    ]);
  });

  it('applies repeated sort keys in order', async () => {
    expect(await tenants({ sort: ['region:ASC', 'name:DESC'] })).toEqual([
      'globex-apj',
      'initech-aus',
      'contoso-eu',
      'failing-labs-in',
      'hooli-uae',
      'northwind-us',
    ]);
    expect(await tenants({ sort: ['tenantPayType:ASC', 'name:ASC'] })).toEqual([
      'failing-labs-in',
      'initech-aus',
      'contoso-eu',
      'hooli-uae',
      'northwind-us',
      'globex-apj',
    ]);
  });

  it('sorts numbers as numbers', async () => {
    const asa = sim.deviceUid('asa-hq-01');
    const list = items(
      await api('GET', `/v1/inventory/devices/asas/${asa}/subinterfaces`, {
        query: { sort: 'vlanPrimaryId:DESC' },
      }),
    );
    expect(list.map((s) => s.vlanPrimaryId)).toEqual([300, 200, 100]);
  });

  it('answers 400 for an unknown field or a malformed key', async () => {
    const unknown = await devices({ sort: 'color:ASC' });
    expect(unknown.status).toBe(400);
    expect(obj(unknown).details).toMatchObject({ sort: { field: 'color' } });
    expect((await devices({ sort: 'name:UP' })).status).toBe(400);
  });
});

describe('the Lucene parser', () => {
  it('builds AND / OR / NOT trees with OR binding loosest', () => {
    expect(parseLucene('a:1 OR b:2 AND c:3')).toEqual({
      kind: 'or',
      left: { kind: 'term', field: 'a', value: { kind: 'exact', text: '1', quoted: false } },
      right: {
        kind: 'and',
        left: { kind: 'term', field: 'b', value: { kind: 'exact', text: '2', quoted: false } },
        right: { kind: 'term', field: 'c', value: { kind: 'exact', text: '3', quoted: false } },
      },
    });
  });

  it('reads ranges, escapes and quoted values', () => {
    expect(parseLucene('t:{2025-01-01 TO *]')).toEqual({
      kind: 'term',
      field: 't',
      value: { kind: 'range', lower: '2025-01-01', lowerInclusive: false, upperInclusive: true },
    });
    expect(parseLucene('name:a\\*b')).toMatchObject({ value: { kind: 'exact', text: 'a*b' } });
    expect(parseLucene('name:"a b:c"')).toMatchObject({
      value: { kind: 'exact', text: 'a b:c', quoted: true },
    });
  });

  it('applies a field to a group of values, and goes on with other fields after it', () => {
    const term = (field: string, text: string) => ({
      kind: 'term',
      field,
      value: { kind: 'exact', text, quoted: false },
    });
    expect(parseLucene('mode:(A OR B) AND NOT s:ONLINE')).toEqual({
      kind: 'and',
      left: { kind: 'or', left: term('mode', 'A'), right: term('mode', 'B') },
      right: { kind: 'not', query: term('s', 'ONLINE') },
    });
    expect(parseLucene('uid:(u1 OR (u2 OR u3))')).toEqual({
      kind: 'or',
      left: term('uid', 'u1'),
      right: { kind: 'or', left: term('uid', 'u2'), right: term('uid', 'u3') },
    });
    expect(() => parseLucene('uid:(u1 OR u2')).toThrow(/missing "\)"/);
  });
});
