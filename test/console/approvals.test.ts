// Acting on any approval card from the console, not only the last message's buttons: /approvals lists
// the pending cards by number, and /approve, /reject and /cancel press that card's own button, through the
// same approvals (roles checked again, audit written) as pressing it right after it arrived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console approvals by number', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
    // Two requests, so two cards are pending and the newer one's buttons are the current choices.
    const from = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan20');
    await rig.type('interfaces delete asa-hq-01 Vlan10');
    await rig.terminal.waitFor(/approval #2:/, from);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('numbers each card as it arrives', () => {
    const shown = rig.terminal.output.join('\n');
    expect(shown).toMatch(/\(approval #1: \/approve 1 or \/reject 1 \[reason\] at any time/);
    expect(shown).toMatch(/\(approval #2: \/approve 2 or \/reject 2 \[reason\] at any time/);
  });

  it('lists the pending approvals: number, what will happen, requester, age, expiry, command', async () => {
    const out = await rig.type('/approvals');
    expect(out).toMatch(/^Pending approvals, oldest first \(2\):/);
    expect(out).toMatch(
      /#1 {2}delete the VLAN interface iot \(Vlan20\) on asa-hq-01\n {7}asked by @alice (just now|\d+ min ago) · expires \d\d:\d\d UTC · \/fw interfaces delete asa-hq-01 Vlan20/,
    );
    expect(out).toMatch(/#2 {2}delete the VLAN interface \w+ \(Vlan10\) on asa-hq-01/);
    expect(out.indexOf('#1')).toBeLessThan(out.indexOf('#2'));
  });

  it('refuses bad numbers clearly', async () => {
    expect(await rig.type('/approve 9')).toBe('There is no approval #9. Pending: #1, #2 (see /approvals).');
    expect(await rig.type('/approve')).toBe(
      'Usage: /approve <n>, with the number /approvals shows. Pending: #1, #2 (see /approvals).',
    );
    expect(await rig.type('/reject x')).toMatch(/^Usage: \/reject <n> \[reason\], with the number/);
    expect(await rig.type('/approve 1 looks fine')).toMatch(/\/approve takes only the number/);
  });

  it('checks roles again as the button does: the requester and a viewer may not approve', async () => {
    const asked = rig.terminal.questions.length;
    rig.terminal.answer('y');
    const self = rig.terminal.output.length;
    await rig.type('/approve 1');
    expect(await rig.terminal.waitFor(/only @alice sees this/, self)).toMatch(
      /You asked for this, so you cannot approve it/,
    );
    await rig.type('/as carol');
    const viewer = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('/approve 1');
    expect(await rig.terminal.waitFor(/only @carol sees this/, viewer)).toMatch(/approver/);
    expect(rig.terminal.questions.length).toBe(asked + 2);
    expect(await rig.type('/approvals')).toMatch(/\(2\):/);
  });

  it('approves the older card while the newer one holds the buttons, after the same confirmation', async () => {
    await rig.type('/as bob');
    const from = rig.terminal.output.length;
    rig.terminal.answer('y');
    const out = await rig.type('/approve 1');
    expect(out).toMatch(/^Approval #1: delete the VLAN interface iot \(Vlan20\) on asa-hq-01\n/);
    expect(rig.terminal.questions.at(-1)).toMatch(/Approve this request\?.*iot \(Vlan20\)/);
    const done = await rig.terminal.waitFor(
      /staged the deletion of VLAN interface iot \(Vlan20\) on asa-hq-01/,
      from,
    );
    expect(done).toMatch(/[Aa]pproved by @bob/);
    const pending = await rig.type('/approvals');
    expect(pending).toMatch(/\(1\):\n {2}#2 /);
    expect(pending).not.toMatch(/#1 /);
    expect(await rig.type('/approve 1')).toMatch(/^Approval #1 is no longer pending: ✅ Approved by @bob/);
    expect(await rig.type('interfaces asa-hq-01')).not.toMatch(/\bVlan20\b/);
  });

  it('does nothing on a declined confirmation', async () => {
    rig.terminal.answer('n');
    expect(await rig.type('/approve 2')).toMatch(/Back\.$/);
    expect(await rig.type('/approvals')).toMatch(/\(1\):\n {2}#2 /);
  });

  it('rejects with the reason given on the line, asking nothing more, and audits it', async () => {
    const asked = rig.terminal.questions.length;
    const from = rig.terminal.output.length;
    await rig.type('/reject 2 not during the audit');
    expect(rig.terminal.questions.length).toBe(asked);
    await rig.terminal.waitFor(/Rejected by @bob at .*: not during the audit/, from);
    expect(await rig.type('/approvals')).toMatch(/^No approvals are pending/);
    await rig.type('/as admin');
    const audit = await rig.type('audit');
    expect(audit).toMatch(/📝 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC @alice requested interfaces\.delete/);
    expect(audit).toMatch(/⛔ .* @bob rejected interfaces\.delete/);
    expect(audit).toMatch(/✅ .* @bob approved interfaces\.delete/);
  });

  it('shows a card again by number, whose buttons become the choices', async () => {
    const out = await rig.type('/approvals 1');
    expect(out).toMatch(/^Approval #1:\n/);
    expect(out).toMatch(/Approved by @bob/);
    expect(await rig.type('/approvals 7')).toMatch(/^There is no approval #7\. None is pending\./);
  });

  it('lets the requester cancel by number', async () => {
    await rig.type('/as alice');
    const from = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan10');
    await rig.terminal.waitFor(/\(approval #3:/, from);
    const cancelled = rig.terminal.output.length;
    await rig.type('/cancel 3');
    await rig.terminal.waitFor(/✖️ Cancelled by @alice/, cancelled);
    expect(await rig.type('/approvals')).toMatch(/^No approvals are pending/);
  });
});
