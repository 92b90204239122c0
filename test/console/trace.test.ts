// The console traces a packet as Slack does (the same catalogue and views): the verdict card as text, and
// a show command's output under the command. Simulated time moves while the ASA's command line runs. A drop
// no phase made (the device's slow-path checks, after a source translation onto the destination) is told
// by its drop reason, with the translation that led to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../simulator/support.js';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: trace and show', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  const type = (line: string) => driveClock(rig.sim.clock, rig.type(line));

  it('answers a dropped flow with the phase that dropped it and the drop reason', async () => {
    const out = await type('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 22 --in outside');
    expect(out).toContain('DROP on asa-hq-01');
    expect(out).toContain('implicit deny');
    expect(out).toContain('(acl-drop) Flow is denied by configured rule');
    expect(out).toContain('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 22');
  });

  it('says a drop that no phase made by the drop reason, with the source translation that caused it', async () => {
    // WEB-01 may now reach anything; its static NAT maps it onto the very address it asks for.
    const added = await call(rig.sim.url, 'POST', '/_sim/devices/asa-hq-01/access-list', {
      body: { text: 'access-list dmz_access_in line 1 extended permit ip host 172.16.0.10 any' },
    });
    expect(added.status).toBe(200);
    const out = await type('trace asa-hq-01 tcp 172.16.0.10 203.0.113.10 443');
    expect(out).toContain('DROP on asa-hq-01');
    expect(out).toContain(
      'Dropped after every phase allowed it, for (sp-security-failed) Slowpath security checks failed.',
    );
    expect(out).toMatch(/NAT: +Static translate 172\.16\.0\.10\/49152 to 203\.0\.113\.10\/49152/);
  });

  it('shows a show command’s output', async () => {
    const out = await type('/fw show asa-hq-01 route 8.8.8.8');
    expect(out).toContain('show route 8.8.8.8 on asa-hq-01');
    expect(out).toContain('203.0.113.1, via outside');
  });
});
