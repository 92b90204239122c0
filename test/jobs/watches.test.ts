import { describe, expect, it } from 'vitest';
import type { OperationContext } from '../../src/catalogue/operation.js';
import { channelIdOf, vpnUnwatch, vpnWatch } from '../../src/catalogue/watches.js';
import { channelMention } from '../../src/render/mrkdwn.js';
import {
  driveUntil,
  type Harness,
  nextCall,
  quietLog,
  text,
  useHarness,
  watchAnnouncements,
} from './support/harness.js';

describe('watching VPN client upgrade runs', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  const announcementsIn = (channel: string) => watchAnnouncements(h.slack, channel);

  /** Two scans begun after now: the first of them has finished by the time the second starts. */
  const afterAFullScan = async (clients: Parameters<typeof nextCall>[0]) => {
    await nextCall(clients, 'getSecureClientUpgradeRuns');
    await nextCall(clients, 'getSecureClientUpgradeRuns');
  };

  it('announces a run started outside Slack once, and not the runs that ended before the watch', async () => {
    const { workers, clients } = await h.start();
    const created = await workers.jobs.watches.watch({
      channelId: 'C0WATCH001',
      profile: 'default',
      createdBy: 'U0ADMIN',
      createdAt: new Date(h.sim.clock.now()).toISOString(),
    });
    expect(created.created).toBe(true);
    await afterAFullScan(clients);
    expect(announcementsIn('C0WATCH001')).toHaveLength(0); // the seeded history is not news

    // Someone upgrades from SCC's own UI (here: the API, with no thread following it).
    await clients.get('default').secureClient.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-dc-03')],
      version: '5.1.8.105',
      name: 'from the portal',
    });
    const announced = h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.channel === 'C0WATCH001' && call.status === 200,
    );
    const call = await driveUntil(h.sim, clients, announced, 20_000);
    await afterAFullScan(clients);
    await afterAFullScan(clients);

    expect(announcementsIn('C0WATCH001')).toHaveLength(1);
    expect(call.args.thread_ts).toBeUndefined();
    expect(text(call)).toContain('A VPN client upgrade run ended (profile `default`, started by');
    expect(text(call)).toContain('*from the portal* to Secure Client 5.1.8.105 finished with warnings');
    expect(text(call)).toContain('• asa-dc-03: CLEANUP_FAILED');
  });

  it('announces a run across tenants too (an MSP portal profile), with its devices by tenant', async () => {
    const { workers, clients } = await h.start();
    await workers.jobs.watches.watch({
      channelId: 'C0WATCHMSP',
      profile: 'default',
      createdBy: 'U0ADMIN',
      createdAt: new Date(h.sim.clock.now()).toISOString(),
    });
    await afterAFullScan(clients);
    expect(announcementsIn('C0WATCHMSP')).toHaveLength(0); // the seeded cross-tenant runs are not news

    await clients.get('default').call('upgradeMspManagedAsaSecureClientPackages', {
      body: {
        deviceUids: ['nw-asa-hq', 'globex-asa-01'].map((d) => h.sim.deviceUid(d)),
        version: '5.1.8.105',
        name: 'msp day',
      },
    });
    const announced = h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.channel === 'C0WATCHMSP' && call.status === 200,
    );
    const call = await driveUntil(h.sim, clients, announced, 20_000);
    await afterAFullScan(clients);

    expect(announcementsIn('C0WATCHMSP')).toHaveLength(1);
    expect(text(call)).toContain('A VPN client upgrade run across tenants ended (profile `default`');
    expect(text(call)).toContain('*msp day*');
    expect(text(call)).toMatch(/\*northwind[^*]*\*\n {2}• nw-asa-hq: /);
  });

  it('stops announcing in a channel that unwatched, while others still hear', async () => {
    const { workers, clients } = await h.start();
    const createdAt = new Date(h.sim.clock.now()).toISOString();
    const leaving = { channelId: 'C0WATCH002', profile: 'default', createdBy: 'U0ADMIN', createdAt };
    await workers.jobs.watches.watch(leaving);
    await workers.jobs.watches.watch({ ...leaving, channelId: 'C0WATCH003' });
    expect((await workers.jobs.watches.watch(leaving)).created).toBe(false);
    expect((await workers.jobs.watches.list('default')).map((w) => w.channelId)).toEqual([
      'C0WATCH002',
      'C0WATCH003',
    ]);
    await afterAFullScan(clients);

    expect((await workers.jobs.watches.unwatch('C0WATCH002', 'default')).removed).toBe(true);
    expect((await workers.jobs.watches.unwatch('C0WATCH002', 'default')).removed).toBe(false);
    await clients.get('default').secureClient.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-hq-01')],
      version: '5.1.8.105',
      name: 'after the unwatch',
    });
    const stillWatching = h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.channel === 'C0WATCH003' && call.status === 200,
    );
    await driveUntil(h.sim, clients, stillWatching, 20_000);
    await afterAFullScan(clients);

    expect(announcementsIn('C0WATCH003')).toHaveLength(1);
    expect(announcementsIn('C0WATCH002')).toHaveLength(0);
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

  it('is an upgrades alert subscription, and says so when another subscription still tells the channel', async () => {
    const { workers } = await h.start();
    const ctx = context({ watches: workers.jobs.watches });
    await vpnWatch.execute(ctx, {});
    const [watch] = await workers.jobs.alerts.subscriptions.list({ channelId: 'C0HERE0001' });
    expect(watch).toMatchObject({ kinds: ['upgrades'], scope: { kind: 'profile' }, createdBy: 'U0OPERATOR' });

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
    expect((await vpnWatch.execute(ctx, {})).view.summary).toContain('already hears');
    expect((await vpnUnwatch.execute(ctx, {})).view.summary).toContain('still hears about upgrade runs');
    expect(await workers.jobs.alerts.subscriptions.list({ channelId: 'C0HERE0001' })).toEqual([subscription]);
    await h.stopWorkers();
  });

  it('refuses a channel written without its id, and says watches need the queue when absent', async () => {
    expect(vpnWatch.validate({ channel: '#netops' })[0]?.message).toContain('picked from Slack');
    expect(channelIdOf('<#C0ABCDEF12>')).toBe('C0ABCDEF12');
    await expect(vpnWatch.execute(context(undefined), {})).rejects.toThrow('Watches are not available here');
  });
});
