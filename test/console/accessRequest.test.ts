// `access request` from the console, through the same approvals, holds and followed work as Slack (issue 36
// item 11): the card shows the verdict before and the rule placed above the deny, another approver approves,
// the rule is staged and deployed, and the verification says ALLOW by the new rule. `--devices` asks the
// same access on several ASAs, each verified on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: an access request', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });

  it('card → approved by another → staged above the deny → deployed → verified', async () => {
    await rig.type('/as alice');
    const from = rig.terminal.output.length;
    await drive(
      rig.type(
        'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
      ),
    );
    const card = await rig.terminal.waitFor(/approval #\d+:/, from);
    expect(card).toContain('DROP by line');
    expect(card).toContain('198.51.100.0/24 → PARTNER-NET (existing object reused)');
    expect(card).toContain('! predicted by fwbot');
    const id = /approval #(\d+):/.exec(card)?.[1];

    await rig.type('/as bob');
    const approved = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type(`/approve ${id}`));
    const verified = await drive(
      rig.terminal.waitFor(/verified: ALLOW by line \d+ \(the new rule/, approved, 120_000),
    );
    expect(verified).toContain('add the access rule');
    expect(verified).toContain('fwbot-h-172.20.41.5');
    expect(rig.sim.requestLog.list({ operationId: 'createAccessRule' })).toHaveLength(1);
    expect(rig.sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(1);
  }, 180_000);

  it('asks the same access on several ASAs with --devices: each staged, deployed and verified on its own', async () => {
    await rig.type('/as alice');
    const from = rig.terminal.output.length;
    await drive(
      rig.type(
        'access request --devices name:asa-* udp 198.51.100.9 172.16.0.20 514 --in outside --reason "syslog relay"',
      ),
    );
    const card = await rig.terminal.waitFor(/approval #\d+:/, from);
    expect(card).toContain('through 3 ASAs');
    const id = /approval #(\d+):/.exec(card)?.[1];
    await rig.type('/as bob');
    const approved = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type(`/approve ${id}`));
    for (const device of ['asa-hq-01', 'asa-branch-02', 'asa-dc-03'])
      await drive(rig.terminal.waitFor(new RegExp(`verified: ALLOW[^\\n]*on ${device}`), approved, 120_000));
    expect(rig.sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(4);
  }, 240_000);
});
