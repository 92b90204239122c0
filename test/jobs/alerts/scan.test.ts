import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelScopes } from '../../../src/config/scope.js';
import { stripSentinels } from '../../../src/render/mrkdwn.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { type ScanWorld, scanWorld, simDevice, subscription } from './scanSupport.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('the alert scan', () => {
  let sim: SimulatorHandle;
  let world: ScanWorld | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  afterAll(async () => {
    await sim.stop();
  });

  const open = async (options: Parameters<typeof scanWorld>[1] = {}) => {
    world = await scanWorld(sim, options);
    return world;
  };
  const headlines = (w: ScanWorld) =>
    w.delivered.map((e) => `${e.phase} ${stripSentinels(e.headline)} → ${e.channels.join(',')}`);

  it('takes a baseline first, then tells a device going offline and coming back', async () => {
    const w = await open();
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    simDevice(sim, 'asa-dc-03').connectivityState = 'UNREACHABLE'; // already down at install: not news

    const baseline = await w.scanAfter(0);
    expect(baseline.read).toEqual(['connectivity:own (baseline)']);
    expect(w.delivered).toEqual([]);

    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    simDevice(sim, 'asa-branch-02').connectivityState = 'ONLINE';
    await w.scanAfter(15 * SECOND); // the sooner look at open incidents
    expect(headlines(w)).toEqual([
      'open asa-branch-02 is UNREACHABLE → C0NETOPS',
      'close asa-branch-02 back online → C0NETOPS',
    ]);
    const [opened] = w.delivered;
    expect(opened).toMatchObject({
      kind: 'connectivity',
      profile: 'default',
      subject: { type: 'device', uid: sim.deviceUid('asa-branch-02'), name: 'asa-branch-02' },
      incidentKey: `connectivity:default:${sim.deviceUid('asa-branch-02')}`,
      state: 'UNREACHABLE',
      previous: 'ONLINE',
    });
    expect(opened?.catchUp).toBeUndefined();
  });

  it('reads only what is due: a scan right after another reads nothing and tells nothing', async () => {
    const w = await open();
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity', 'certificates']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    const first = await w.scanAfter(30 * SECOND);
    const again = await w.scanAfter(0);
    expect(first.read).toEqual(['connectivity:own (full)']); // certificates are read hourly
    expect(again.read).toEqual([]);
    expect(w.delivered.map((e) => e.phase)).toEqual(['open']);
  });

  it('neither loses nor repeats an event when the hand-off to the desk fails', async () => {
    let refuse = true;
    const handed: string[] = [];
    const w = await open({
      deliver: async (events) => {
        if (refuse) throw new Error('the desk’s queue is away');
        handed.push(...events.map((e) => e.key));
      },
    });
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await expect(w.scanAfter(30 * SECOND)).rejects.toThrow('away');
    expect(handed).toEqual([]);

    refuse = false;
    await w.scanAfter(30 * SECOND); // the outbox goes first, then a read that finds no new difference
    await w.scanAfter(30 * SECOND);
    expect(handed).toHaveLength(1);
    expect(handed[0]).toContain('connectivity|');
  });

  it('neither loses nor repeats an event when a worker dies before committing, or two scan at once', async () => {
    const w = await open();
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';

    // Killed between reading SCC and committing: nothing was written, so the next scan finds it again.
    const commit = w.scanner.store.commit.bind(w.scanner.store);
    w.scanner.store.commit = async () => {
      throw new Error('killed');
    };
    sim.clock.advance(30 * SECOND);
    const killed = await w.scanner.scanProfile('default');
    expect(killed.events).toEqual([]);
    w.scanner.store.commit = commit;

    // Two workers scan the same profile at once: one commits, the other's findings are dropped.
    sim.clock.advance(30 * SECOND);
    await Promise.all([w.scanner.scanProfile('default'), w.scanner.scanProfile('default')]);
    await w.scanAfter(30 * SECOND);
    const keys = w.delivered.map((e) => e.key);
    expect(keys).toHaveLength(1);
    expect(w.delivered[0]).toMatchObject({ phase: 'open', subject: { name: 'asa-branch-02' } });
  });

  it('hands the outbox over once when two workers drain it at once', async () => {
    let opened: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let holding = false;
    const handed: string[] = [];
    const w = await open({
      deliver: async (events) => {
        holding = true;
        await gate;
        handed.push(...events.map((e) => e.key));
      },
    });
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    sim.clock.advance(30 * SECOND);
    const first = w.scanner.scanProfile('default'); // commits, then holds the outbox while it delivers
    for (let i = 0; i < 500 && !holding; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(holding).toBe(true);
    const other = await w.scanner.store.drain('default', async (events) => {
      handed.push(...events.map((e) => e.key));
    });
    expect(other).toBe(0);
    opened();
    await first;
    expect(handed).toHaveLength(1);
    expect(await w.scanner.store.drain('default', async () => {})).toBe(0); // and the outbox is empty
  });

  it('marks what the first scan after a long gap finds as catch-up', async () => {
    const w = await open();
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * MINUTE); // fwbot was away
    simDevice(sim, 'asa-hq-01').connectivityState = 'BAD_CREDENTIALS';
    await w.scanAfter(30 * SECOND);
    expect(w.delivered.map((e) => [stripSentinels(e.headline), e.catchUp ?? false])).toEqual([
      ['asa-branch-02 is UNREACHABLE', true],
      ['asa-hq-01 is BAD_CREDENTIALS', false],
    ]);
  });

  it('routes an MSP’s findings to the channels of their tenant, and to those of all tenants', async () => {
    const w = await open();
    const northwind = sim.tenantUid('northwind-us');
    const globex = sim.tenantUid('globex-apj');
    await w.subscriptions.subscribe(
      subscription('C0NORTHWND', ['connectivity'], {
        scope: { kind: 'tenant', uid: northwind, name: 'northwind-us' },
      }),
    );
    await w.subscriptions.subscribe(
      subscription('C0GLOBEX01', ['connectivity'], {
        scope: { kind: 'tenant', uid: globex, name: 'globex-apj' },
      }),
    );
    await w.subscriptions.subscribe(
      subscription('C0MSPNOC01', ['connectivity'], { scope: { kind: 'all-tenants' } }),
    );
    const baseline = await w.scanAfter(0);
    expect(baseline.read).toEqual(['connectivity:msp (baseline)']); // one list across every tenant

    simDevice(sim, 'nw-asa-hq').connectivityState = 'UNREACHABLE';
    simDevice(sim, 'globex-asa-02').connectivityState = 'ONLINE'; // was unreachable at the baseline
    await w.scanAfter(30 * SECOND);
    expect(headlines(w).sort()).toEqual([
      'close globex-asa-02 back online → C0GLOBEX01,C0MSPNOC01',
      'open nw-asa-hq is UNREACHABLE → C0NORTHWND,C0MSPNOC01',
    ]);
    expect(w.delivered.find((e) => e.phase === 'open')?.tenant).toEqual({
      uid: northwind,
      name: expect.any(String),
    });
  });

  it('tells a customer channel its tenant’s own profile only, whatever it was subscribed to', async () => {
    // C0NORTHWND1 is bound to the tenant northwind-us (its own profile: northwind); C0MSPNOC01 is the MSP's.
    const w = await open({
      profiles: {
        default: sim.tokens.superAdmin,
        northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')),
      },
      channelScope: channelScopes({
        channelBindings: new Map([
          ['C0NORTHWND1', { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' }],
        ]),
        workspaces: new Map(),
      }),
    });
    // Made before the channel was bound to its tenant: every tenant of the portal, and the tenant seen
    // from the portal. Neither is told there; the MSP's channel hears all tenants as before.
    await w.subscriptions.subscribe(
      subscription('C0NORTHWND1', ['connectivity'], { scope: { kind: 'all-tenants' } }),
    );
    await w.subscriptions.subscribe(
      subscription('C0NORTHWND1', ['connectivity'], {
        scope: { kind: 'tenant', uid: sim.tenantUid('northwind-us'), name: 'northwind-us' },
      }),
    );
    await w.subscriptions.subscribe(
      subscription('C0MSPNOC01', ['connectivity'], { scope: { kind: 'all-tenants' } }),
    );
    // The tenant's own profile, to its own devices: told there.
    await w.subscriptions.subscribe(subscription('C0NORTHWND1', ['connectivity'], { profile: 'northwind' }));
    await w.scanAfter(0);
    await w.scanAfter(0, 'northwind');

    simDevice(sim, 'nw-asa-hq').connectivityState = 'UNREACHABLE';
    simDevice(sim, 'globex-asa-02').connectivityState = 'ONLINE'; // another customer's, in the MSP's list
    await w.scanAfter(30 * SECOND);
    await w.scanAfter(0, 'northwind');
    expect(headlines(w).sort()).toEqual([
      'close globex-asa-02 back online → C0MSPNOC01',
      'open nw-asa-hq is UNREACHABLE → C0MSPNOC01',
      'open nw-asa-hq is UNREACHABLE → C0NORTHWND1',
    ]);
    expect(w.delivered.filter((e) => e.channels.includes('C0NORTHWND1')).map((e) => e.profile)).toEqual([
      'northwind',
    ]);
  });

  it('knows a channel subscribed in a customer workspace is a customer channel by that workspace’s tenant', async () => {
    // T0NORTHWD1's channels are northwind-us's customer channels (workspaces.<team>.tenant); none is bound by id.
    const w = await open({
      profiles: {
        default: sim.tokens.superAdmin,
        northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')),
      },
      channelScope: channelScopes({
        channelBindings: new Map(),
        workspaces: new Map([
          [
            'T0NORTHWD1',
            {
              channels: new Map(),
              binding: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
            },
          ],
        ]),
      }),
    });
    // The portal's, subscribed from the customer's workspace: not told there. The tenant's own: told.
    await w.subscriptions.subscribe(
      subscription('C0NWCHAN01', ['connectivity'], { scope: { kind: 'all-tenants' }, teamId: 'T0NORTHWD1' }),
    );
    await w.subscriptions.subscribe(
      subscription('C0NWCHAN01', ['connectivity'], { profile: 'northwind', teamId: 'T0NORTHWD1' }),
    );
    await w.scanAfter(0);
    await w.scanAfter(0, 'northwind');

    simDevice(sim, 'nw-asa-hq').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    await w.scanAfter(0, 'northwind');
    expect(w.delivered.filter((e) => e.channels.includes('C0NWCHAN01')).map((e) => e.profile)).toEqual([
      'northwind',
    ]);
  });

  it('tells a channel about the devices its --devices query names only', async () => {
    const w = await open();
    await w.subscriptions.subscribe(
      subscription('C0HQONLY01', ['connectivity'], { devices: 'name:asa-hq*' }),
    );
    await w.subscriptions.subscribe(subscription('C0EVERY001', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-hq-01').connectivityState = 'UNREACHABLE';
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    expect(headlines(w).sort()).toEqual([
      'open asa-branch-02 is UNREACHABLE → C0EVERY001',
      'open asa-hq-01 is UNREACHABLE → C0HQONLY01,C0EVERY001',
    ]);
  });

  it('forgets a stream nobody reads any more: a new subscription starts with a baseline again', async () => {
    const w = await open();
    const made = await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    await w.scanAfter(0);
    await w.subscriptions.unsubscribe('C0NETOPS', made.subscription.id);
    await w.scanAfter(30 * SECOND);
    simDevice(sim, 'asa-branch-02').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * MINUTE);
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    const again = await w.scanAfter(30 * SECOND);
    expect(again.read).toEqual(['connectivity:own (baseline)']);
    expect(w.delivered).toEqual([]);
  });

  it('goes on when a subscription’s device query cannot be listed: that one hears nothing, the others do', async () => {
    const w = await open();
    await w.subscriptions.subscribe(
      subscription('C0BROKEN01', ['connectivity'], { devices: 'nosuchfield:x' }),
    );
    await w.subscriptions.subscribe(subscription('C0EVERY001', ['connectivity']));
    await w.scanAfter(0);
    simDevice(sim, 'asa-hq-01').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    expect(headlines(w)).toEqual(['open asa-hq-01 is UNREACHABLE → C0EVERY001']);
  });

  it('stretches every interval when the lists cost more SCC calls than the budget, and says so', async () => {
    const w = await open({ schedule: { callsPerMinute: 2 } });
    await w.subscriptions.subscribe(
      subscription('C0NETOPS', ['connectivity', 'ha', 'deployments', 'upgrades']),
    );
    await w.scanAfter(0);
    const second = await w.scanAfter(30 * SECOND);
    // connectivity and ha every 30 s (2 a minute each), deployments every minute (1), upgrades every minute
    // with two lists (Secure Client runs and firewall software runs, 2): 7 a minute.
    expect(second.stretch).toBe(3.5);
    expect(second.read).toEqual([]); // nothing is due before 3.5 × its interval
    const third = await w.scanAfter(60 * SECOND);
    expect(third.read).toEqual([]);
    const fourth = await w.scanAfter(30 * SECOND);
    expect(fourth.read.sort()).toEqual(['connectivity:own (full)', 'ha:own (full)']);
    const health = await w.scanner.store.health();
    expect(health.get('default')).toMatchObject({ stretch: 3.5, callsPerMinute: 2 });
  });

  it('does not scan audit on a token that cannot read it, and says so once', async () => {
    const warnings: string[] = [];
    const log = (await import('pino')).pino(
      { level: 'warn' },
      { write: (line: string) => warnings.push(String(JSON.parse(line).msg)) },
    );
    const w = await open({ profiles: { default: sim.tokens.readOnly }, log });
    await w.subscriptions.subscribe(subscription('C0SECOPS', ['audit', 'connectivity']));
    const first = await w.scanAfter(0);
    await w.scanAfter(30 * SECOND);
    await w.scanAfter(90 * SECOND);
    expect(first.unreadable).toEqual(['audit']);
    expect(first.read).toEqual(['connectivity:own (baseline)']);
    expect(warnings.filter((line) => line.includes('audit'))).toEqual([
      'alerts of audit are not scanned on profile default: its SCC token lacks the role (ROLE_ADMIN or ROLE_SUPER_ADMIN)',
    ]);
    expect((await w.scanner.store.health()).get('default')?.unreadable).toContain('audit');
  });

  it('says nothing of kinds the token cannot read when nobody subscribed to them', async () => {
    const warnings: string[] = [];
    const log = (await import('pino')).pino(
      { level: 'warn' },
      { write: (line: string) => warnings.push(String(JSON.parse(line).msg)) },
    );
    const w = await open({ profiles: { default: sim.tokens.readOnly }, log });
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    const first = await w.scanAfter(0);
    expect(first.unreadable).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('stops asking for a list SCC refuses, says so once, and reads the others', async () => {
    const warnings: string[] = [];
    const log = (await import('pino')).pino(
      { level: 'warn' },
      { write: (line: string) => warnings.push(String(JSON.parse(line).msg)) },
    );
    const w = await open({ profiles: { default: sim.tokens.readOnly }, log });
    // The token's roles cannot be read: every kind is tried, and SCC refuses the audit log (403).
    const client = w.clients.get('default');
    const call = client.call.bind(client);
    Object.assign(client, {
      call: (async (operationId: string, params: unknown) => {
        if (operationId === 'getToken') throw new Error('no token info here');
        return call(operationId as never, params as never);
      }) as typeof client.call,
    });
    const audits = () => sim.requestLog.list({ operationId: 'getAuditLogs' }).length;
    await w.subscriptions.subscribe(subscription('C0SECOPS', ['audit', 'connectivity']));
    await w.scanAfter(0);
    await w.scanAfter(60 * SECOND);
    await w.scanAfter(60 * SECOND);
    expect(audits()).toBe(1);
    expect(warnings.filter((line) => line.includes('audit'))).toEqual([
      'alerts of audit cannot be read on profile default: SCC refused (403); tried again in 60 min',
    ]);
    simDevice(sim, 'asa-hq-01').connectivityState = 'UNREACHABLE';
    await w.scanAfter(30 * SECOND);
    expect(w.delivered.map((e) => e.kind)).toEqual(['connectivity']);
  });

  it('keeps one scheduler per profile that has subscriptions', async () => {
    const w = await open({ profiles: { default: sim.tokens.superAdmin, other: sim.tokens.admin } });
    expect(await w.scanner.reconcile()).toEqual([]);
    await w.subscriptions.subscribe(subscription('C0NETOPS', ['connectivity']));
    const made = await w.subscriptions.subscribe(subscription('C0OTHER01', ['audit'], { profile: 'other' }));
    expect(await w.scanner.reconcile()).toEqual(['default', 'other']);
    await w.subscriptions.unsubscribe('C0OTHER01', made.subscription.id);
    expect(await w.scanner.reconcile()).toEqual(['default']);
    const ids = (await w.scanner.queue.getJobSchedulers()).map((s) => s.key);
    expect(ids).toEqual(['alert-scan~default']);
  });
});
