// Incident response from the console (the demo's assembly: the same catalogue, dispatcher, approvals and
// timed work in Redis as the bot, the simulator's ASAs keeping shuns): an operator shuns alone within the
// policy's fast path and the ASA drops the address, `shun list` shows who, why and until when, `unshun`
// sends `no shun` once and withdraws the timed end, a longer shun waits for a second person, a viewer is
// refused; and `vpn disconnect` takes the same fast path, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: incident response', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  const type = (line: string) => driveClock(rig.sim.clock, rig.type(line));
  const shunsOn = (name: string) =>
    (rig.sim.state.shuns.get(rig.sim.deviceUid(name)) ?? []).map((s) => s.address);
  const sent = (line: string) => receivedCliScripts(rig.sim.state).filter((s) => s.script === line).length;
  const shunEnds = async () =>
    (await rig.runtime.services.timed?.list({ kind: 'shun-expiry' }))?.map((item) => item.what);

  it('lets an operator shun alone within the fast path, lists it, and ends it once with unshun', async () => {
    await rig.type('/as alice');
    const out = await type(
      'shun 203.0.113.66 --devices asa-hq-01 --for 2h --reason "brute force on the portal"',
    );
    expect(out).toContain('@alice shunned 203.0.113.66 for 2h on asa-hq-01.');
    expect(out).toContain('Reason:              brute force on the portal');
    expect(shunsOn('asa-hq-01')).toEqual(['203.0.113.66']);
    expect(sent('show conn address 203.0.113.66')).toBe(1);
    expect(sent('shun 203.0.113.66')).toBe(1);
    expect(await shunEnds()).toEqual(['no shun 203.0.113.66 on asa-hq-01']);

    await rig.type('/as carol');
    const listed = await rig.type('shun list');
    expect(listed).toContain('1 active shun');
    expect(listed).toMatch(
      /203\.0\.113\.66.* on asa-hq-01 · by @alice · until \d{4}-\d\d-\d\d \d\d:\d\d UTC · brute force on the portal/,
    );
    expect(await type('unshun 203.0.113.66')).toMatch(/operator/);
    expect(shunsOn('asa-hq-01')).toEqual(['203.0.113.66']);

    await rig.type('/as alice');
    expect(await type('unshun 203.0.113.66')).toMatch(/shun of \*?203\.0\.113\.66/);
    // `no shun` is sent by the unshun or by the shun's end brought forward: once, either way.
    await driveClock(rig.sim.clock, expect.poll(() => shunsOn('asa-hq-01'), { timeout: 30_000 }).toEqual([]));
    await expect.poll(shunEnds, { timeout: 30_000 }).toEqual([]);
    expect(sent('no shun 203.0.113.66')).toBe(1);
    expect(await rig.type('shun list')).toContain('No shun placed by fwbot is active');
  });

  it('asks a second person for a shun longer than the fast path, and shuns once approved', async () => {
    await rig.type('/as alice');
    const start = rig.terminal.output.length;
    await type('shun 198.51.100.7 --devices asa-dc-03 --for 8h --reason "scanner"');
    await rig.terminal.waitFor(/\[1\] Approve/, start);
    expect(shunsOn('asa-dc-03')).toEqual([]);
    expect(sent('shun 198.51.100.7')).toBe(0);

    await rig.type('/as bob');
    const from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await type('1');
    await driveClock(rig.sim.clock, rig.terminal.waitFor(/shunned \*?198\.51\.100\.7/, from, 30_000));
    expect(shunsOn('asa-dc-03')).toEqual(['198.51.100.7']);
    expect(sent('shun 198.51.100.7')).toBe(1);
    expect(await shunEnds()).toEqual(['no shun 198.51.100.7 on asa-dc-03']);
  });

  it('refuses a viewer a shun, and sends nothing to the ASA', async () => {
    await rig.type('/as carol');
    expect(await type('shun 192.0.2.9 --devices asa-hq-01 --for 1h --reason "x"')).toMatch(/operator/);
    expect(sent('show conn address 192.0.2.9')).toBe(0);
  });

  it('lets an operator end a user’s VPN sessions alone, audited', async () => {
    const eve = [...rig.sim.state.raVpnSessions.values()].find(
      (s) => s.username.startsWith('eve.') && s.status === 'ACTIVE',
    );
    if (!eve) throw new Error('no active session of eve in the simulator');
    await rig.type('/as carol');
    expect(await type(`vpn disconnect ${eve.username}`)).toMatch(/operator/);
    await rig.type('/as alice');
    const out = await type(`vpn disconnect ${eve.username}`);
    expect(out).toContain('end the VPN sessions of');
    expect(out).not.toMatch(/\[1\] Approve/);
    const [record] = await rig.runtime.approvals.audit.latest(1);
    expect(record).toMatchObject({ action: 'executed', operationId: 'vpn.disconnect', actor: 'U0DEMOALICE' });
  });
});
