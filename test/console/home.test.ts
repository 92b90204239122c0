// The console's /home: the same Home as Slack's Home tab (src/home/view.ts), as text, for the acting user,
// read fresh from Redis; its buttons press the approval's own decisions, roles checked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('the console’s /home', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
    const from = rig.terminal.output.length;
    await rig.type('devices');
    await rig.type('interfaces delete asa-hq-01 Vlan20');
    await rig.terminal.waitFor(/approval #1:/, from);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('shows the requester their request, with Cancel, and their last commands with outcomes', async () => {
    const out = await rig.type('/home');
    expect(out).toContain('Your requests');
    expect(out).toMatch(/You asked to delete the VLAN interface \w+ \(Vlan20\) on asa-hq-01/);
    // [1] is the Home's *Request access* button, above the sections.
    expect(out).toMatch(/\[1\] Request access/);
    expect(out).toMatch(/\[2\] Cancel request/);
    expect(out).toContain('No requests are waiting for you.');
    expect(out).toContain('Your last commands');
    expect(out).toMatch(/\/fw interfaces delete asa-hq-01 Vlan20 · \d\d:\d\d UTC · sent for approval/);
    expect(out).toMatch(/\/fw devices · \d\d:\d\d UTC · ran: Devices/);
  });

  it('prints the same view as the Home tab publishes, as text', async () => {
    const home = rig.runtime.home;
    const view = await home.view('U0DEMOALICE');
    const printed = await rig.type('/home');
    // Same sections, same lines (the console styles emoji and names; the words are the Home's).
    for (const line of renderText(view)
      .split('\n')
      .filter((l) => /^(Your|Waiting|Work|Staged|Upgrade)/.test(l)))
      expect(printed).toContain(line);
  });

  it('notes refusals too, and never keeps a command that looked like it held a token', async () => {
    await rig.type('/as carol');
    await rig.type('interfaces delete asa-hq-01 Vlan10');
    await rig.type('tenants add xoxb-123456789012-secretsecret');
    const out = await rig.type('/home');
    expect(out).toMatch(/\(withheld: it looked like it held a token\) · \d\d:\d\d UTC · failed/);
    expect(out).toMatch(/\/fw interfaces delete asa-hq-01 Vlan10 · \d\d:\d\d UTC · refused: /);
    expect(out).not.toContain('xoxb-');
    expect(out).not.toContain('secretsecret');
    const stored = await rig.runtime.redis.lrange(rig.runtime.home.recent.key('U0DEMOCAROL'), 0, -1);
    expect(stored.join('\n')).not.toContain('secretsecret');
  });

  it('offers the approver Approve and Reject; Approve there decides the request', async () => {
    await rig.type('/as bob');
    const out = await rig.type('/home');
    expect(out).toContain('Waiting for your decision');
    expect(out).toMatch(/\[2\] Approve {2}\[3\] Reject/);
    rig.terminal.answer('y');
    const from = rig.terminal.output.length;
    await rig.type('2');
    // The card in the console's channel is updated as on Slack.
    await rig.terminal.waitFor(/Approved by @bob/, from);
    expect(await rig.type('/home')).toContain('No requests are waiting for you.');
  });
});
