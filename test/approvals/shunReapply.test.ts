// A shun kept across a failover, a reload and a reconnect (issue 38): the simulator's ASAs lose their shuns on
// `/_sim/devices/{d}/failover` and `/reload`, the shun's watch (timed kind shun-guard) sees the event in SCC's
// device record on the driven clock, re-applies the missing shun once from its template and says so in the
// thread of the shun's approval card; a device with undeployed changes is named with the reason and gets it
// once it can take it; nothing is re-applied after the shun's end.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { USERS } from './support/world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ADDRESS = '198.51.100.23';

describe('approvals: a shun re-applied after a failover, a reload or a reconnect', () => {
  let env: ApprovalsEnv;
  let cardTs = '';
  const drive = <T>(work: Promise<T>) => driveClock(env.sim.clock, work);
  const device = () => {
    const found = env.sim.state.devices.get(env.sim.deviceUid('asa-hq-01'));
    if (!found) throw new Error('no asa-hq-01');
    return found.device;
  };
  const shunsOn = () => (env.sim.state.shuns.get(env.sim.deviceUid('asa-hq-01')) ?? []).map((s) => s.address);
  const shunLines = () =>
    receivedCliScripts(env.sim.state).filter((s) => s.script === `shun ${ADDRESS}`).length;
  const sim = async (path: string, body: unknown = {}) => {
    const res = await fetch(`${env.sim.url}/_sim/devices/asa-hq-01/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  /** A minute later, one pass: the next look of the watch. */
  const nextLook = async () => {
    env.clock.advance(MINUTE + 1_000);
    await drive(env.timedPass());
  };
  const thread = () =>
    [...env.slack.messages().values()]
      .filter((m) => m.thread_ts === cardTs && m.ts !== cardTs)
      .map((m) => JSON.stringify(m))
      .join('\n');
  const guards = async () => (await env.timed?.history({ kind: 'shun-guard' })) ?? [];

  beforeAll(async () => {
    env = await startEnv({}, { timed: true });
    // asa-hq-01 as one unit of an HA pair, the primary active.
    Object.assign(device(), {
      asaFailoverMode: 'ACTIVE_STANDBY',
      asaFailoverState: 'Primary - Active',
      asaFailoverMate: { failoverState: 'Secondary - Standby Ready' },
    });
    // Longer than the fast path: a second person approves, and the card's thread is the shun's.
    const card = await drive(
      env.driver.ask(
        env.bot.eventsUrl,
        `shun ${ADDRESS} --devices asa-hq-01 --for 8h --reason "botnet C2"`,
        USERS.alice,
      ),
    );
    cardTs = card.ts;
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    await drive(vi.waitFor(() => expect(shunsOn()).toEqual([ADDRESS]), { timeout: 30_000 }));
    await vi.waitFor(() => expect(thread()).toContain('shunned'), { timeout: 30_000 });
    // The shun's end has learnt the card's thread: its watch speaks there too.
    await vi.waitFor(
      async () =>
        expect((await env.timed?.list({ kind: 'shun-expiry' }))?.[0]?.thread?.threadTs).toBe(cardTs),
      { timeout: 30_000 },
    );
    // The watch's first look: what the device is now.
    await drive(env.timedPass());
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
  });

  it('re-applies the shun once after a failover and says so in the shun’s thread', async () => {
    await sim('failover');
    expect(shunsOn()).toEqual([]);
    await nextLook();
    expect(shunsOn()).toEqual([ADDRESS]);
    expect(shunLines()).toBe(2);
    await expect
      .poll(() => thread(), { timeout: 30_000 })
      .toContain(`shun of \`${ADDRESS}\` re-applied on asa-hq-01 after a failover`);
    // Exactly once per event: later looks see no new one.
    await nextLook();
    await nextLook();
    expect(shunLines()).toBe(2);
    expect((await guards()).map((g) => g.summary)).toContain('re-applied on asa-hq-01 after a failover');
  });

  it('re-applies it after a reload, when SCC sees the device come back ONLINE', async () => {
    await sim('connectivity', { connectivityState: 'UNREACHABLE' });
    await sim('reload');
    await nextLook();
    expect(shunsOn()).toEqual([]);
    await sim('connectivity', { connectivityState: 'ONLINE' });
    await nextLook();
    expect(shunsOn()).toEqual([ADDRESS]);
    expect(shunLines()).toBe(3);
    await expect
      .poll(() => thread(), { timeout: 30_000 })
      .toContain(`re-applied on asa-hq-01 after it came back ONLINE (a reload or a reconnect)`);
  });

  it('names a device with undeployed changes with the reason, and re-applies once it can', async () => {
    device().configState = 'NOT_SYNCED';
    await sim('failover');
    await nextLook();
    expect(shunsOn()).toEqual([]);
    await expect
      .poll(() => thread(), { timeout: 30_000 })
      .toContain('was not re-applied on asa-hq-01 after a failover: asa-hq-01 has undeployed changes');
    await nextLook();
    expect(shunsOn()).toEqual([]);
    expect(shunLines()).toBe(3);
    device().configState = 'SYNCED';
    await nextLook();
    expect(shunsOn()).toEqual([ADDRESS]);
    expect(shunLines()).toBe(4);
  });

  it('stops with the shun: nothing is re-applied after its end', async () => {
    env.clock.advance(8 * HOUR);
    await drive(env.timedPass());
    expect(shunsOn()).toEqual([]);
    expect(receivedCliScripts(env.sim.state).filter((s) => s.script === `no shun ${ADDRESS}`)).toHaveLength(
      1,
    );
    await sim('failover');
    await nextLook();
    await nextLook();
    expect(shunsOn()).toEqual([]);
    expect(shunLines()).toBe(4);
    expect(await env.timed?.list({ kind: 'shun-guard' })).toEqual([]);
  });
});
