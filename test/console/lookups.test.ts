// The console runs the policy lookups as Slack does (the same catalogue): an ASA's rules with the shadowed
// one flagged, and an object with where it is used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: rules and objects', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('lists asa-hq-01’s rules with the shadowed deny flagged and what shadows it', async () => {
    const out = await rig.type('rules asa-hq-01');
    expect(out).toContain('Access rules of asa-hq-01');
    expect(out).toMatch(
      /outside_access_in\s+deny\s+host 198\.51\.100\.66\s+WEB-01\s+tcp eq https\s+yes\s+shadowed by #2/,
    );
    expect(out).toMatch(
      /Shadowed by rule #2 \W*access-list outside_access_in extended permit tcp any object WEB-01 eq https/,
    );
  });

  it('shows where WEB-01 is used', async () => {
    const out = await rig.type('/fw objects show WEB-01');
    expect(out).toContain('network groups (1): DMZ-SERVERS');
    expect(out).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
  });
});
