// The console reads SCC's change log and audit log as Slack does: the same catalogue, its tables aligned
// and every event's diff and commands printed whole (no file to upload in a terminal).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: changelog and audit-log', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('shows the change fwbot just staged, with its user, diff and commands', async () => {
    await driveClock(rig.sim.clock, rig.type('interfaces edit asa-hq-01 inside --mtu 1400'));
    const out = await rig.type('changelog asa-hq-01 --since 1h');
    expect(out).toContain('Change log of asa-hq-01 in the last 1h');
    expect(out).toMatch(
      /super\.admin@acme-msp\.example\s+update\s+Modified interface GigabitEthernet1\/2 \(inside\)/,
    );
    expect(out).toContain('+mtu inside 1400');
    expect(out).toContain('## commands');
  });

  it('shows the audit log', async () => {
    expect(await rig.type('/fw audit-log')).toMatch(/user logged in\s+super\.admin@acme-msp\.example/);
  });
});
