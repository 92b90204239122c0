// The console traces a packet as Slack does (the same catalogue and views): the verdict card as text, and
// a show command's output under the command. Simulated time moves while the ASA's command line runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('shows a show command’s output', async () => {
    const out = await type('/fw show asa-hq-01 route 8.8.8.8');
    expect(out).toContain('show route 8.8.8.8 on asa-hq-01');
    expect(out).toContain('203.0.113.1, via outside');
  });
});
