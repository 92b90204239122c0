// A subscription's first read, made when it is made (src/jobs/alerts/baseline.ts), on the simulator's manual
// clock with the real scan beside it: what is already wrong is handed over once as `current` events for the
// new channel only, and what goes wrong after the subscription is told by the next scan as an incident,
// however late that scan runs. Real Redis; the desk's door records what it is handed.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AlertEvent, AlertSubscription } from '../../../src/alerts/model.js';
import { SubscriptionBaseline } from '../../../src/jobs/alerts/baseline.js';
import { stripSentinels } from '../../../src/render/mrkdwn.js';
import type { SimulatorHandle } from '../../../src/simulator/index.js';
import { simDevice, subscription, useScanSimulator } from './scanSupport.js';

const SECOND = 1_000;

describe('a subscription’s first read', () => {
  const scan = useScanSimulator();
  let sim: SimulatorHandle;
  beforeEach(() => {
    sim = scan.sim;
  });

  /** The scan's world, and a first read handing what it finds to the same recorder. */
  async function open(options: { told?: (subscription: AlertSubscription) => boolean; token?: string } = {}) {
    const { told } = options;
    const w = await scan.open(options.token ? { profiles: { default: options.token } } : {});
    const scheduled: string[] = [];
    const baseline = new SubscriptionBaseline({
      core: w.core,
      subscriptions: w.subscriptions,
      deliver: async (events) => {
        w.delivered.push(...events);
      },
      schedule: async (profile) => {
        scheduled.push(profile);
      },
      now: () => sim.clock.now(),
      ...(told ? { told } : {}),
    });
    const subscribe = async (channelId: string, kinds: AlertSubscription['kinds']) => {
      const { subscription: made } = await w.subscriptions.subscribe(subscription(channelId, kinds));
      return baseline.start(made, w.clients.get('default'));
    };
    return { w, subscribe, scheduled };
  }
  const said = (events: readonly AlertEvent[]) =>
    events.map(
      (e) =>
        `${e.current ? 'current ' : ''}${e.phase} ${stripSentinels(e.headline)} → ${e.channels.join(',')}`,
    );

  it('tells what is wrong now once, and what goes wrong before the first scan as an incident', async () => {
    const { w, subscribe, scheduled } = await open();
    simDevice(sim, 'asa-dc-03').connectivityState = 'UNREACHABLE'; // down since before the subscription
    simDevice(sim, 'asa-hq-01').conflictDetectionState = 'CONFLICT_DETECTED';

    expect(await subscribe('C0NETOPS', ['connectivity', 'conflict', 'deployments'])).toEqual({ current: 2 });
    expect(said(w.delivered)).toEqual([
      'current open asa-dc-03 is UNREACHABLE → C0NETOPS',
      'current open asa-hq-01 was changed outside SCC (conflict detected) → C0NETOPS',
    ]);
    // With the buttons an incident of its kind has, and SCC's change log in the conflict's details.
    const [, conflict] = w.delivered;
    expect(conflict?.actions.map((action) => action.label)).toContain('Accept the device’s configuration…');
    expect(conflict?.details.join('\n')).toMatch(/What SCC’s change log says changed/);
    expect(scheduled).toEqual(['default']);

    // Between the subscription and the scan's first run: an incident, not part of the baseline.
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    w.delivered.length = 0;
    const first = await w.scanAfter(60 * SECOND);
    expect(first.read).toContain('connectivity:own (full)');
    expect(said(w.delivered)).toEqual(['open asa-branch-02 is UNREACHABLE → C0NETOPS']);
  });

  it('goes on from the scan’s own state when another channel’s subscription already reads the stream', async () => {
    const { w, subscribe } = await open();
    await subscribe('C0NETOPS', ['connectivity']);
    await w.scanAfter(30 * SECOND);
    simDevice(sim, 'asa-dc-03').connectivityState = 'UNREACHABLE';
    sim.clock.advance(5 * SECOND);

    // The scan has not looked since asa-dc-03 went down: the new channel is told it now, as wrong now…
    expect(await subscribe('C0BRANCH', ['connectivity'])).toEqual({ current: 1 });
    expect(said(w.delivered)).toEqual(['current open asa-dc-03 is UNREACHABLE → C0BRANCH']);
    // …and the scan tells both channels the transition it finds (the desk keeps one incident per channel).
    w.delivered.length = 0;
    await w.scanAfter(30 * SECOND);
    expect(said(w.delivered)).toEqual(['open asa-dc-03 is UNREACHABLE → C0NETOPS,C0BRANCH']);
  });

  it('leaves a list SCC refuses to the scan, and starts the others', async () => {
    // A read-only token: SCC refuses it the audit log (403).
    const { w, subscribe } = await open({ token: sim.tokens.readOnly });
    simDevice(sim, 'asa-dc-03').connectivityState = 'UNREACHABLE';
    expect(await subscribe('C0SECOPS', ['connectivity', 'audit'])).toEqual({ current: 1 });
    expect(said(w.delivered)).toEqual(['current open asa-dc-03 is UNREACHABLE → C0SECOPS']);
    expect([...(await w.scanner.store.metas('default')).keys()]).toEqual(['connectivity:own']);
  });

  it('reads nothing for a channel that may not hear the subscription', async () => {
    const { w, subscribe } = await open({ told: () => false });
    simDevice(sim, 'asa-dc-03').connectivityState = 'UNREACHABLE';
    const before = sim.requestLog.list().length;
    expect(await subscribe('C0NORTHWND1', ['connectivity'])).toEqual({ current: 0 });
    expect(w.delivered).toEqual([]);
    expect(sim.requestLog.list().length).toBe(before);
  });

  it('keeps a first read committed while a scan decides which streams nobody reads any more', async () => {
    const { w, subscribe } = await open();
    // A subscription ended: its stream is kept until a scan finds that nobody reads it.
    await subscribe('C0OLD', ['connectivity']);
    await w.scanAfter(30 * SECOND);
    w.subscriptions.all.length = 0;
    // The next scan lists the subscriptions before a new one is made; its first read lands meanwhile.
    const list = w.subscriptions.list.bind(w.subscriptions);
    let once = true;
    w.subscriptions.list = async (filter) => {
      const listed = await list(filter);
      if (once) {
        once = false;
        await subscribe('C0NETOPS', ['connectivity']);
      }
      return listed;
    };
    const racing = await w.scanAfter(0);
    expect(racing.read).toEqual([]);
    w.subscriptions.list = list;

    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    expect(said(w.delivered)).toEqual(['open asa-branch-02 is UNREACHABLE → C0NETOPS']);
  });
});
