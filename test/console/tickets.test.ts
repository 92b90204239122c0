// Change tickets from the console: with `changes.ticket: required`, a change typed without a ticket is
// one sentence and no approval is asked; with one, the request shows it (the same dispatcher as Slack).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChanges } from '../../src/config/profilesFileSchema.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: change tickets', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig({ changes: { ...defaultChanges, ticket: 'required' } });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses a change without a ticket and asks for approval of one with it', async () => {
    const from = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan20');
    expect(await rig.terminal.waitFor(/ticket`? is required/, from)).toBeTruthy();
    expect(rig.terminal.since(from)).not.toMatch(/approval #/);

    const asked = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan20 --ticket CHG0000042');
    expect(await rig.terminal.waitFor(/approval #1:/, asked)).toBeTruthy();
    expect(rig.terminal.since(asked)).toMatch(/Change ticket:.*CHG0000042/);
  });
});
