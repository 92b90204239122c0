import { afterEach, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../src/alerts/model.js';
import type { OperationContext } from '../../src/catalogue/operation.js';
import { channelIdOf, vpnUnwatch, vpnWatch } from '../../src/catalogue/watches.js';
import { createAlertScanner } from '../../src/jobs/alerts/scan.js';
import { RedisAlertSubscriptions } from '../../src/jobs/alerts/subscriptions.js';
import { createJobsCore } from '../../src/jobs/core.js';
import { SubscriptionWatches } from '../../src/jobs/watches.js';
import { channelMention, stripSentinels } from '../../src/render/mrkdwn.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { type Harness, quietLog, simClients, useHarness } from './support/harness.js';

/**
 * A watch, the alert scan and its hand-off to the desk over one Redis prefix: what the `upgrades` kind
 * hands the desk for the channels of `vpn watch` (the desk's own tests cover the message).
 */
async function watchWorld(sim: Harness['sim']) {
  const clients = simClients(sim, { default: sim.tokens.superAdmin });
  const core = createJobsCore({ redisUrl: redisUrl(), prefix: uniquePrefix('watch'), logger: quietLog });
  const subscriptions = new RedisAlertSubscriptions(core);
  const watches = new SubscriptionWatches(subscriptions);
  const delivered: AlertEvent[] = [];
  const scanner = createAlertScanner({
    core,
    clients,
    subscriptions,
    deliver: async (events) => void delivered.push(...events),
    now: () => sim.clock.now(),
  });
  return {
    watches,
    clients,
    /** What the channel was handed, as `kind phase headline`. */
    toldIn: (channel: string) =>
      delivered
        .filter((event) => event.channels.includes(channel))
        .map((event) => `${event.kind} ${event.phase} ${stripSentinels(event.headline)}`),
    async scanAfter(ms: number) {
      sim.clock.advance(ms);
      await scanner.scanProfile('default');
    },
    async close() {
      await scanner.close();
      await core.close();
      await clients.close();
    },
  };
}

describe('watching VPN client upgrade runs (the alert scan’s upgrades kind)', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });
  let world: Awaited<ReturnType<typeof watchWorld>> | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  const watch = (channelId: string, acrossTenants = false) =>
    world?.watches.watch({
      channelId,
      profile: 'default',
      createdBy: 'U0ADMIN',
      createdAt: new Date(h.sim.clock.now()).toISOString(),
      acrossTenants,
    });

  /** Scans a minute apart until the channel has been told something, or gives up after `max`. */
  const scanUntilTold = async (channel: string, max = 30) => {
    for (let i = 0; i < max && world?.toldIn(channel).length === 0; i += 1) await world?.scanAfter(60_000);
    return world?.toldIn(channel) ?? [];
  };

  it('tells a run started outside Slack once, and not the runs that ended before the watch', async () => {
    h.sim.reset();
    world = await watchWorld(h.sim);
    expect((await watch('C0WATCH001'))?.created).toBe(true);
    await world.scanAfter(0); // the baseline: the seeded history is not news
    expect(world.toldIn('C0WATCH001')).toEqual([]);

    // Someone upgrades from SCC's own UI (here: the API, with no thread following it).
    await world.clients.get('default').secureClient.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-dc-03')],
      version: '5.1.8.105',
      name: 'from the portal',
    });
    const told = await scanUntilTold('C0WATCH001');
    await world.scanAfter(60_000);
    expect(world.toldIn('C0WATCH001')).toEqual(told);
    expect(told).toEqual([
      expect.stringMatching(
        /^upgrades notice VPN client upgrade \*from the portal\* to Secure Client 5\.1\.8\.105/,
      ),
    ]);
  });

  it('tells a run across tenants too on an MSP portal’s profile', async () => {
    h.sim.reset();
    world = await watchWorld(h.sim);
    await watch('C0WATCHMSP', true);
    await world.scanAfter(0);
    expect(world.toldIn('C0WATCHMSP')).toEqual([]); // the seeded cross-tenant runs are not news

    await world.clients.get('default').call('upgradeMspManagedAsaSecureClientPackages', {
      body: {
        deviceUids: ['nw-asa-hq', 'globex-asa-01'].map((d) => h.sim.deviceUid(d)),
        version: '5.1.8.105',
        name: 'msp day',
      },
    });
    const told = await scanUntilTold('C0WATCHMSP');
    expect(told).toEqual([
      expect.stringMatching(/^upgrades notice VPN client upgrade across tenants \*msp day\*/),
    ]);
  });

  it('stops telling a channel that unwatched, while others still hear', async () => {
    h.sim.reset();
    world = await watchWorld(h.sim);
    await watch('C0WATCH002');
    await watch('C0WATCH003');
    expect((await watch('C0WATCH002'))?.created).toBe(false);
    expect((await world.watches.list('default')).map((w) => w.channelId)).toEqual([
      'C0WATCH002',
      'C0WATCH003',
    ]);
    await world.scanAfter(0);

    expect((await world.watches.unwatch('C0WATCH002', 'default')).removed).toBe(true);
    expect((await world.watches.unwatch('C0WATCH002', 'default')).removed).toBe(false);
    await world.clients.get('default').secureClient.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-hq-01')],
      version: '5.1.8.105',
      name: 'after the unwatch',
    });
    expect(await scanUntilTold('C0WATCH003')).toHaveLength(1);
    expect(world.toldIn('C0WATCH002')).toEqual([]);
  });
});

describe('the /fw vpn watch and unwatch operations', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  const context = (watches: OperationContext['services']): OperationContext => ({
    scc: h.clients.get('default'),
    profile: 'default',
    actor: { userId: 'U0OPERATOR', channelId: 'C0HERE0001' },
    requestId: 'r1',
    log: quietLog,
    now: () => Date.now(),
    ...(watches ? { services: watches } : {}),
  });

  it('watches the channel it is typed in, or the one mentioned, and says so', async () => {
    const { workers } = await h.start();
    const ctx = context({ watches: workers.jobs.watches });

    const here = await vpnWatch.execute(ctx, {});
    const there = await vpnWatch.execute(ctx, { channel: '<#C0THERE001|netops>' });
    const again = await vpnWatch.execute(ctx, { channel: 'C0THERE001' });

    expect(here.view.summary).toContain(
      `${channelMention('C0HERE0001')} now hears about every VPN client upgrade run of profile \`default\``,
    );
    expect(there.view.visibility).toBe('in_channel');
    expect(again.view.summary).toContain('already hears');
    const watched = await workers.jobs.watches.list('default');
    expect(watched.map((w) => [w.channelId, w.createdBy])).toEqual([
      ['C0HERE0001', 'U0OPERATOR'],
      ['C0THERE001', 'U0OPERATOR'],
    ]);

    const gone = await vpnUnwatch.execute(ctx, {});
    const notThere = await vpnUnwatch.execute(ctx, {});
    expect(gone.view.summary).toContain('no longer hears');
    expect(notThere.view.summary).toContain('was not watching');
    await h.stopWorkers();
  });

  it('keeps the workspace the watch was made in, so its announcements are posted there', async () => {
    const { workers } = await h.start();
    const ctx = context({ watches: workers.jobs.watches });
    await vpnWatch.execute({ ...ctx, actor: { ...ctx.actor, teamId: 'T0CUSTOMR1' } }, {});

    const made = await workers.jobs.alerts.subscriptions.list({ channelId: 'C0HERE0001' });
    expect(made.length).toBeGreaterThan(0);
    expect(made.map((s) => s.teamId)).toEqual(made.map(() => 'T0CUSTOMR1'));
    await h.stopWorkers();
  });

  it('is an upgrades alert subscription, and says so when another subscription still tells the channel', async () => {
    const { workers } = await h.start();
    const ctx = context({ watches: workers.jobs.watches });
    await vpnWatch.execute(ctx, {});
    // The simulator's default profile is an MSP portal: its runs across tenants are heard too.
    const made = await workers.jobs.alerts.subscriptions.list({ channelId: 'C0HERE0001' });
    expect(
      made
        .map((s) => [s.kinds, s.scope.kind, s.createdBy])
        .sort()
        .reverse(),
    ).toEqual([
      [['upgrades'], 'profile', 'U0OPERATOR'],
      [['upgrades'], 'all-tenants', 'U0OPERATOR'],
    ]);

    // A subscription that hears upgrade runs among other kinds: vpn watch knows the channel hears them.
    const { subscription } = await workers.jobs.alerts.subscriptions.subscribe({
      channelId: 'C0HERE0001',
      profile: 'default',
      kinds: ['connectivity', 'upgrades'],
      scope: { kind: 'profile' },
      createdBy: 'U0OTHER',
    });
    const unwatched = await vpnUnwatch.execute(ctx, {});
    expect(unwatched.view.summary).toContain(
      `The watch is removed, but ${channelMention('C0HERE0001')} still hears about upgrade runs of profile \`default\` through alert subscription \`${subscription.id}\``,
    );
    expect(await vpnUnwatch.execute(ctx, {})).toMatchObject({
      view: { summary: expect.stringMatching(/^#?\S*C0HERE0001\S* still hears about upgrade runs/) },
    });
    expect(await workers.jobs.alerts.subscriptions.list({ channelId: 'C0HERE0001' })).toEqual([subscription]);
    await h.stopWorkers();
  });

  it('refuses a channel written without its id, and says watches need the queue when absent', async () => {
    expect(vpnWatch.validate({ channel: '#netops' })[0]?.message).toContain('picked from Slack');
    expect(channelIdOf('<#C0ABCDEF12>')).toBe('C0ABCDEF12');
    await expect(vpnWatch.execute(context(undefined), {})).rejects.toThrow('Watches are not available here');
  });
});
