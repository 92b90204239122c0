// `rules remove` from the console, through the same approvals as Slack: the card names the rule and the
// predicted command, the requester and a viewer cannot approve, another approver can, and the outcome shows
// SCC's calculated commands with the Deploy… choice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console: removing an access rule', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });

  it('a viewer cannot ask', async () => {
    await rig.type('/as carol');
    expect(await drive(rig.type('rules remove asa-hq-01 130'))).toMatch(/needs the \*?operator\*? role/);
    await rig.type('/as alice');
  });

  it('posts the card, refuses the requester as approver, and runs once another approver approves', async () => {
    const from = rig.terminal.output.length;
    await drive(rig.type('rules remove asa-hq-01 130'));
    const card = await rig.terminal.waitFor(/approval #1:/, from);
    expect(card).toContain('remove the access rule at line 130 (#4 of outside_access_in) on asa-hq-01');
    expect(card).toContain('! predicted by fwbot');

    const self = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('/approve 1');
    expect(await rig.terminal.waitFor(/only @alice sees this/, self)).toMatch(
      /You asked for this, so you cannot approve it/,
    );

    await rig.type('/as bob');
    const approved = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type('/approve 1'));
    const done = await drive(
      rig.terminal.waitFor(/removed the access rule at line 130[\s\S]*Deploy…/, approved),
    );
    expect(done).toContain('SCC calculates that a deploy of asa-hq-01 runs 1 command');
    expect(rig.sim.requestLog.list({ operationId: 'deleteAccessRule' })).toHaveLength(1);
  });
});
