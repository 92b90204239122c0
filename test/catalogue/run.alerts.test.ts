// `/fw alerts …` run for real: the simulator behind the SCC client (the device query, the tenant and the
// token's roles are checked against it), the subscriptions in the test run's Redis, and an incident desk
// in memory standing for the desk's (its own tests are test/jobs/alerts/desk*.test.ts).
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKindOf } from '../../src/alerts/index.js';
import type { IncidentDesk, OpenIncident } from '../../src/alerts/model.js';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { RedisAlertSubscriptions } from '../../src/jobs/alerts/subscriptions.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { quietLog } from '../jobs/support/harness.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { ACTOR, catalogue, useSimulator } from './harness.js';

const h = useSimulator();

/** The desk's port over a list: acknowledging marks one, muting is recorded. */
function memoryDesk(incidents: OpenIncident[]) {
  const mutes: Parameters<IncidentDesk['mute']>[0][] = [];
  const desk: IncidentDesk = {
    async acknowledge(id, userId) {
      const incident = incidents.find((i) => i.id === id);
      if (incident) incident.acknowledgedBy ??= userId;
      return incident;
    },
    async mute(mute) {
      mutes.push(mute);
    },
    async openIncidents(channels) {
      return incidents.filter((i) => channels.includes(i.channelId));
    },
    async find(channels, id) {
      return incidents.find((i) => i.id === id && channels.includes(i.channelId));
    },
  };
  return { desk, mutes };
}

const OFFLINE: OpenIncident = {
  id: 'k3v9x2qa',
  channelId: ACTOR.channelId,
  kind: 'connectivity',
  profile: 'default',
  subject: { type: 'device', uid: '5f1c0a52-6a8e-4c1e-9d4b-2b1f3c4d5e6f', name: 'asa-branch-02' },
  headline: 'asa-branch-02 is UNREACHABLE',
  openedAt: '2026-11-26T10:00:00.000Z',
  flaps: 2,
};

describe('/fw alerts', () => {
  let redis: Redis;
  let subscriptions: RedisAlertSubscriptions;
  let incidents: OpenIncident[];
  let mutes: ReturnType<typeof memoryDesk>['mutes'];
  let services: OperationServices;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });
  beforeEach(() => {
    const keys = new RedisKeys(uniquePrefix('alerts-ops').slice(0, -1));
    let n = 0;
    // Predictable ids, so the views are golden.
    subscriptions = new RedisAlertSubscriptions(
      { redis, keys, log: quietLog },
      { makeId: () => `sub00${++n}`, now: () => h.sim.clock.now() },
    );
    incidents = [{ ...OFFLINE }];
    const made = memoryDesk(incidents);
    mutes = made.mutes;
    // Nothing is wrong when a subscription starts (its first read is tested through the surfaces).
    services = {
      alerts: { subscriptions, incidents: made.desk, startFromNow: async () => ({ current: 0 }) },
    };
  });

  async function run(text: string, token?: string) {
    const { op, raw } = catalogue.parse(text);
    return op.execute({ ...h.context(token), services }, raw);
  }

  it('subscribes a channel: what it will hear, and that nothing is wrong right now', async () => {
    const made = await run('alerts subscribe connectivity ha <#C0NETOPS01|netops>');
    h.golden('alerts.subscribe', made);
    expect(made.view.visibility).toBe('in_channel');
    const [stored] = await subscriptions.list({ channelId: 'C0NETOPS01' });
    expect(stored).toMatchObject({
      id: 'sub001',
      profile: 'default',
      kinds: ['connectivity', 'ha'],
      scope: { kind: 'profile' },
      createdBy: ACTOR.userId,
    });
    // The same again, kinds in another order: the existing one, said so.
    const again = await run('alerts subscribe ha connectivity <#C0NETOPS01|netops>');
    expect(again.view.summary).toContain('already hears');
    expect(again.view.summary).toContain('sub001');
    expect(await subscriptions.list()).toHaveLength(1);
  });

  it('takes all, a device query checked against SCC, and the tenants of an MSP portal', async () => {
    const all = await run('alerts subscribe all');
    expect((await subscriptions.list({ channelId: ACTOR.channelId }))[0]?.kinds).toEqual([...ALERT_KINDS]);
    expect(all.view.summary).toContain(ALERT_KINDS.join(', '));

    const branch = await run('alerts subscribe connectivity --devices asa-hq');
    expect(branch.view.summary).toContain('devices matching name:*asa-hq*');
    const tenant = await run('alerts subscribe conflict --tenant globex-apj');
    expect(tenant.view.summary).toContain('managed tenant globex-apj of profile default');
    const across = await run('alerts subscribe upgrades --all-tenants');
    expect(across.view.summary).toContain('every managed tenant of profile default');
    const scopes = (await subscriptions.list()).map((s) => [s.kinds.join(' '), s.scope.kind, s.devices]);
    expect(scopes).toEqual([
      [expect.stringContaining('connectivity conflict'), 'profile', undefined],
      ['connectivity', 'profile', 'name:*asa-hq*'],
      ['conflict', 'tenant', undefined],
      ['upgrades', 'all-tenants', undefined],
    ]);
  });

  it('refuses across managed tenants the kinds SCC lists per tenant, and says what all left out', async () => {
    const { op, raw } = catalogue.parse('alerts subscribe audit ha --all-tenants');
    expect(op.validate(raw).map((issue) => issue.message)).toEqual([
      expect.stringContaining('`audit`, which SCC lists per tenant, for that tenant’s own token'),
    ]);
    const all = await run('alerts subscribe all --tenant globex-apj');
    const perTenant = ALERT_KINDS.filter((kind) => !alertKindOf(kind).acrossTenants);
    expect(perTenant).toContain('audit');
    expect(JSON.stringify(all.view)).toContain(
      `Left out of \`all\`: ${perTenant.map((kind) => `*${kind}*`).join(', ')},`,
    );
    const [subscription] = await subscriptions.list();
    expect(subscription?.kinds).toEqual(ALERT_KINDS.filter((kind) => alertKindOf(kind).acrossTenants));
  });

  it('says a device query that matches nothing today, and refuses one SCC refuses', async () => {
    const none = await run('alerts subscribe connectivity --devices nothing-is-named-this');
    expect(JSON.stringify(none.view)).toContain('No device matches the query today');
    await expect(run('alerts subscribe connectivity --devices "noSuchField:x"')).rejects.toThrow(
      /SCC refused the device query `noSuchField:x`/,
    );
    expect(await subscriptions.list()).toHaveLength(1);
  });

  it('refuses bad words before anything runs, naming them', () => {
    const issues = (text: string) => {
      const { op, raw } = catalogue.parse(text);
      return op.validate(raw).map((issue) => issue.message);
    };
    expect(issues('alerts subscribe connectivity offline')).toEqual([
      expect.stringContaining(
        `\`offline\`, which is not a kind of alert: the kinds are ${ALERT_KINDS.join(', ')}, or all.`,
      ),
    ]);
    expect(issues('alerts subscribe ha --tenant globex-apj --all-tenants')[0]).toContain(
      'exclude each other',
    );
    expect(issues('alerts subscribe ha #netops')[0]).toContain('without its id');
    expect(issues('alerts subscribe <#C0A0000001> <#C0B0000002> ha')[0]).toContain('more than one channel');
    expect(issues('alerts unsubscribe x')[0]).toContain('six letters and digits');
  });

  it('refuses kinds the token cannot read, naming the roles they need', async () => {
    await expect(run('alerts subscribe connectivity audit', 'sim-read-only')).rejects.toThrow(
      /cannot read what audit needs: it takes one of ROLE_ADMIN, ROLE_SUPER_ADMIN\./,
    );
    expect(await subscriptions.list()).toEqual([]);
    // What it can read is accepted with the same token.
    expect((await run('alerts subscribe connectivity', 'sim-read-only')).view.summary).toContain('now hears');
  });

  it('refuses --tenant and --all-tenants on a profile that is not an MSP portal', async () => {
    const token = h.sim.mintTenantToken(h.sim.tenantUid('globex-apj'));
    await expect(run('alerts subscribe ha --tenant northwind', token)).rejects.toThrow(
      /is not an MSP portal, so it has no managed tenants: --tenant is only for a portal’s profile/,
    );
    await expect(run('alerts subscribe ha --all-tenants', token)).rejects.toThrow(
      /--all-tenants is only for/,
    );
  });

  it('keeps the workspace a subscription was made in (none: the home workspace)', async () => {
    const { op, raw } = catalogue.parse('alerts subscribe connectivity');
    const actor = { ...ACTOR, teamId: 'T0CUSTOMR1', enterpriseId: 'E0CUSTORG1' };
    await op.execute({ ...h.context(), actor, services }, raw);
    await run('alerts subscribe ha');

    const made = await subscriptions.list();
    expect(made.find((s) => s.kinds.includes('connectivity'))).toMatchObject({
      teamId: 'T0CUSTOMR1',
      enterpriseId: 'E0CUSTORG1',
    });
    expect(made.find((s) => s.kinds.includes('ha'))?.teamId).toBeUndefined();
  });

  it('lists the channel’s subscriptions and open incidents; unsubscribes only its own', async () => {
    await run('alerts subscribe connectivity ha');
    await run('alerts subscribe upgrades <#C0ELSEWHERE>');
    h.golden('alerts', await run('alerts'));

    await expect(run('alerts unsubscribe sub002')).rejects.toThrow(
      'This channel has no alert subscription `sub002`',
    );
    const gone = await run('alerts unsubscribe sub001');
    h.golden('alerts.unsubscribe', gone);
    expect((await subscriptions.list()).map((s) => s.id)).toEqual(['sub002']);
    expect((await run('alerts')).view.summary).toBe(
      '0 alert subscriptions and 1 open incident in this channel',
    );
  });

  it('shows a customer channel only what it is told: its tenant profile’s own subscriptions and incidents', async () => {
    // Made while the channel still served the portal: for all tenants, then for the profile's own devices.
    await run('alerts subscribe connectivity --all-tenants');
    await run('alerts subscribe connectivity ha');
    incidents.push({ ...OFFLINE, id: 'p0rta1xx', profile: 'msp' });
    const { op, raw } = catalogue.parse('alerts');
    const asCustomer = await op.execute({ ...h.context(), services, channelTenant: 'contoso-eu' }, raw);
    expect(asCustomer.view.summary).toBe('1 alert subscription and 1 open incident in this channel');
    const shown = JSON.stringify(asCustomer.view.blocks);
    expect(shown).toContain('sub002');
    expect(shown).not.toContain('sub001');
    expect(shown).not.toContain('p0rta1xx');
    // The MSP's own channel (no tenant) still lists everything it subscribed to.
    expect((await run('alerts')).view.summary).toBe(
      '2 alert subscriptions and 2 open incidents in this channel',
    );
  });

  it('acknowledges and mutes what the incident buttons name', async () => {
    const acked = await run('alerts ack k3v9x2qa');
    h.golden('alerts.ack', acked);
    expect(acked.view.summary).toContain('acknowledged asa-branch-02');
    expect(incidents[0]?.acknowledgedBy).toBe(ACTOR.userId);
    await expect(run('alerts ack zzzzzzzz')).rejects.toThrow('This channel has no open incident `zzzzzzzz`');

    const before = Date.now();
    const muted = await run('alerts mute asa-branch-02 8h');
    // The time it ends is the wall clock's (mutes are Redis expiries): the golden shows it as a mark.
    h.golden('alerts.mute', {
      ...muted.view,
      summary: muted.view.summary.replace(/until [^)]+/, 'until …'),
      blocks: muted.view.blocks.map((b) =>
        b.kind === 'text' ? { ...b, text: b.text.replace(/until [^)]+/, 'until …') } : b,
      ),
    });
    expect(muted.view.visibility).toBe('in_channel');
    expect(muted.view.summary).toContain('muted asa-branch-02 in');
    expect(mutes).toEqual([
      expect.objectContaining({
        channelId: ACTOR.channelId,
        profile: 'default',
        deviceUid: OFFLINE.subject.uid,
      }),
    ]);
    expect(mutes[0]?.untilMs).toBeGreaterThanOrEqual(before + 8 * 3_600_000);
    // A device of the inventory with no open incident here, by name.
    await run('alerts mute asa-hq-01 1h');
    expect(mutes[1]?.deviceUid).toBe(h.sim.deviceUid('asa-hq-01'));
    expect(() => catalogue.parse('alerts mute asa-hq-01 2h')).toThrow('is not one of 1h, 8h, 24h');
  });

  it('says where it cannot run: a process without the alerts (the CLI)', async () => {
    services = {};
    await expect(run('alerts')).rejects.toThrow(/Alerts are not available here/);
  });
});
