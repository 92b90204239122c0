// Scoped approvers from the console: a rule on a device query names who approves requests on those
// devices; the channel's approvers are refused there, the rule's approver is not (the same approvals as Slack).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: scoped approvers', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig({
      approvers: [
        {
          key: 'approvals.approvers[0]',
          devices: 'name:asa-hq-*',
          approvers: ['U0DEMOCAROL'],
          minApprovers: 1,
        },
      ],
    });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses the channel’s approver and runs on the rule’s approver', async () => {
    const from = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan20');
    expect(await rig.terminal.waitFor(/approval #1:/, from)).toBeTruthy();
    expect(rig.terminal.since(from)).toMatch(
      /One of @carol \(`?approvals\.approvers\[0\]`?\) other than the requester decides/,
    );

    await rig.type('/as bob');
    const refused = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('/approve 1');
    expect(await rig.terminal.waitFor(/only @bob sees this/, refused)).toMatch(
      /you must be one of its approvers/,
    );

    await rig.type('/as carol');
    const approved = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('/approve 1');
    expect(
      await rig.terminal.waitFor(
        /staged the deletion of VLAN interface iot \(Vlan20\) on asa-hq-01/,
        approved,
      ),
    ).toMatch(/[Aa]pproved by @carol/);
  });
});
