// The console end to end on the real machinery: reading tenants, creating one and seeing the tracked
// outcome arrive in its thread, asking for an interface delete as an operator and approving it as
// someone else, with the refusals the policy makes on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { createSccClient } from '../../src/scc/client.js';
import { driveClock } from '../support/driveClock.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

describe('console', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('lists tenants as an aligned table', async () => {
    const out = await rig.type('tenants list');
    expect(out).toMatch(/Name\s+Display name\s+Region\s+Devices/);
    expect(out).toMatch(/contoso-eu\s+Contoso Europe\s+EU\s+2/);
    expect(out).toContain('[1] Share in channel');
  });

  it('lists the console commands in /help, its markup rendered', async () => {
    const help = await rig.type('/help');
    expect(help).toMatch(/after \/fw in Slack: help, tenants list, interfaces asa-hq-01\./);
    expect(help).toMatch(/\/approve <n>, \/reject <n> \[reason\], \/cancel <n>/);
    expect(help).not.toContain('`');
  });

  it('accepts /fw and fw in front of a command, and answers unknown words with did-you-mean', async () => {
    expect(await rig.type('/fw tenants list contoso')).toContain('contoso-eu');
    expect(await rig.type('fw tenats list')).toMatch(/Did you mean tenants\?|Did you mean tenants list\?/);
  });

  it('creates a tenant through the queue, and reports the tracked outcome in its thread', async () => {
    const out = await rig.type('tenants create acme-console --display-name "Acme Console"');
    expect(out).toMatch(/fwbot in #console:\n@alice asked to create tenant acme-console/);
    // When its turn comes, the outcome's view in the announcement's thread: the transaction SCC started.
    const accepted = await rig.terminal.waitFor(/fwbot follows the transaction and reports here/);
    expect(accepted).toMatch(/↳ in the thread of “@alice asked to create tenant acme-console/);
    expect(accepted).toMatch(/ {4}Display name: Acme Console\n.*\n {4}Transaction: +[0-9a-f-]{36}\n/);
    const from = rig.terminal.output.length;
    rig.sim.clock.advance(5 * 60_000);
    const done = await rig.terminal.waitFor(/done\. SCC finished transaction/, from);
    expect(done).toMatch(/↳ in the thread of “@alice asked to create tenant acme-console/);
    expect(done).toMatch(/@alice/);
  });

  it('opens the form as prompts when a command with a form is given no arguments', async () => {
    rig.terminal.answer('acme-form', 'Acme Form', '');
    const out = await rig.type('tenants create');
    expect(rig.terminal.questions.some((q) => /name/i.test(q))).toBe(true);
    expect(out).toMatch(/@alice asked to create tenant acme-form/);
  });

  it('asks for the devices a Slack form picks from a menu as typed names, and resolves them', async () => {
    rig.terminal.answer('ftd-edge-01', '5.1.15.287', 'console-run');
    const out = await rig.type('vpn upgrade');
    expect(rig.terminal.questions.some((q) => /Devices.*\(name or UUID\) \(comma-separated\)/.test(q))).toBe(
      true,
    );
    expect(out).toMatch(/@alice asked to upgrade Secure Client to \*?5\.1\.15\.287\*? on ftd-edge-01/);
    expect(rig.sim.requestLog.list({ operationId: 'triggerFtdSecureClientUpgrade' })).toHaveLength(1);
  });

  it('refuses a line that carries something like a token, as Slack does (same dispatcher)', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
    const since = rig.sim.requestLog.total;
    const out = await rig.type(`tenants show ${jwt}`);
    expect(out).toMatch(/looks like it contains an API token/);
    // Nothing `tenants show` calls reached SCC. Other work of earlier tests (a followed tenant creation)
    // may read SCC meanwhile, so only this command's own operations are looked for.
    const its = new Set<string>(createCatalogue().get('tenants.show')?.scc ?? []);
    expect(its.size).toBeGreaterThan(0);
    const calls = rig.sim.requestLog.list({ since }).map((e) => e.operationId);
    expect(calls.filter((id) => its.has(id ?? ''))).toEqual([]);
  });

  it('refuses a change to a viewer, naming the role', async () => {
    await rig.type('/as carol');
    const out = await rig.type('tenants create acme-nope');
    expect(out).toMatch(/⛔ tenants create needs the operator role/);
    await rig.type('/as alice');
  });

  it('asks for approval of an interface delete as alice and runs it once bob approves', async () => {
    const before = rig.terminal.output.length;
    const asked = await rig.type('interfaces delete asa-hq-01 Vlan20');
    expect(asked).toMatch(/Asked for approval/);
    const card = await rig.terminal.waitFor(/\[1\] Approve/, before);
    expect(card).toMatch(/asa-hq-01/);
    expect(card).toMatch(/Vlan20|iot/);

    // The requester may not approve her own request.
    const self = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    expect(rig.terminal.questions.at(-1)).toMatch(
      /Approve this request\?.*delete the VLAN interface iot \(Vlan20\)/,
    );
    const refused = await rig.terminal.waitFor(/only @alice sees this/, self);
    expect(refused).toMatch(/You asked for this, so you cannot approve it/);

    expect(await rig.type('/as bob')).toMatch(/You are now @bob/);
    const from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    const done = await rig.terminal.waitFor(
      /staged the deletion of VLAN interface iot \(Vlan20\) on asa-hq-01/,
      from,
    );
    expect(done).toMatch(/fwbot updated a message in #console/);
    expect(done).toMatch(/[Aa]pproved by @bob/);
    const listing = await rig.type('interfaces asa-hq-01');
    expect(listing).not.toMatch(/\bVlan20\b/);
    await rig.type('/as alice');
  });

  it('deploys the staged delete once someone else approves the exact commands, and reports each device', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });
    const before = rig.terminal.output.length;
    const preview = await drive(rig.type('changes asa-hq-01'));
    expect(preview).toMatch(/no interface Vlan20/);
    await drive(rig.type('deploy asa-hq-01'));
    const card = await rig.terminal.waitFor(/\[1\] Approve/, before);
    // The exact commands, as a code block: indented on lines of their own, without Slack's fences.
    expect(card).toMatch(/\n {4}no interface Vlan20\n/);
    expect(card).not.toContain('```');

    await rig.type('/as bob');
    const from = rig.terminal.output.length;
    rig.terminal.answer('y');
    // Approving runs the deploy here: it reads the pending commands again first (SCC calculates them).
    await drive(rig.type('1'));
    const reported = await drive(
      rig.terminal.waitFor(/deployed: the changes are on the devices now/, from, 20_000),
    );
    expect(reported).toMatch(/asa-hq-01: DONE/);
    await rig.type('/as alice');
  });

  it('holds a deploy asked for --at: approved, it waits with its time said, and nothing is deployed yet', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(rig.sim.clock, work, { maxSteps: 600 });
    const scc = createSccClient({
      baseUrl: rig.sim.url,
      token: rig.sim.tokens.superAdmin,
      profile: 'default',
    });
    const deviceUid = rig.sim.deviceUid('asa-branch-02');
    const vlan = [...rig.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === 'Vlan30',
    );
    if (!vlan) throw new Error('no Vlan30 on asa-branch-02');
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });
    await scc.close();
    const deploys = () =>
      rig.sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' }).length;
    const before = deploys();
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const start = rig.terminal.output.length;
    await drive(rig.type(`deploy asa-branch-02 --at ${at}`));
    await rig.terminal.waitFor(/\[1\] Approve/, start);

    await rig.type('/as bob');
    const from = rig.terminal.output.length;
    rig.terminal.answer('y');
    await drive(rig.type('1'));
    const held = await drive(
      // The console shows the fallback of Slack's reader-zone date: the time in UTC.
      rig.terminal.waitFor(
        /scheduled for (\w{3}) (\d\d:\d\d) UTC, in 2 days \(your time: \1 \2 UTC\) \(the time asked for\)/,
        from,
      ),
    );
    expect(held).toMatch(/pending commands are still the approved ones/);
    expect(deploys()).toBe(before);
    await rig.type('/as alice');
  });

  it('rejects with a reason asked like a form', async () => {
    const before = rig.terminal.output.length;
    await rig.type('interfaces delete asa-hq-01 Vlan10');
    await rig.terminal.waitFor(/\[2\] Reject/, before);
    await rig.type('/as bob');
    const from = rig.terminal.output.length;
    rig.terminal.answer('not during the audit');
    await rig.type('2');
    const rejected = await rig.terminal.waitFor(
      /your request was rejected by @bob: not during the audit/,
      from,
    );
    expect(rejected).toMatch(/Rejected by @bob at .*: not during the audit/);
    // Asked as Slack's reject modal asks it, and said optional once.
    expect(rig.terminal.questions.at(-1)).toBe('  Reason (shown on the card) (optional): ');
    await rig.type('/as alice');
  });

  it('creates and edits an interface from a typed line, asking nothing', async () => {
    const asked = rig.terminal.questions.length;
    const created = await rig.type(
      'interfaces create vlan asa-branch-02 --vlan-id 44 --name kiosk --ipv4 10.44.0.1/24',
    );
    expect(created).toMatch(/@alice staged the creation of VLAN interface kiosk \(Vlan44\) on asa-branch-02/);
    const edited = await rig.type('interfaces edit asa-branch-02 kiosk --mtu 9000 --description lobby');
    expect(edited).toMatch(/MTU: 1500 → 9000/);
    expect(rig.terminal.questions.length).toBe(asked);
  });

  it('asks the edit form when only the interface is typed, filled with its values', async () => {
    // Enter keeps each value: name, IPv4, security level, then a new MTU, description, enabled.
    rig.terminal.answer('', '', '', '1400', '', '');
    const out = await rig.type('interfaces edit asa-branch-02 kiosk');
    expect(rig.terminal.questions.some((q) => /MTU .*\[9000\]/.test(q))).toBe(true);
    expect(out).toMatch(/MTU: 9000 → 1400/);
  });

  it('counts the commands it ran, by operation and outcome', async () => {
    const text = await rig.metrics.text();
    expect(text).toMatch(/fwbot_commands_total\{operation="tenants\.list",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/fwbot_commands_total\{operation="tenants\.create",outcome="denied"\} 1/);
    expect(text).toMatch(
      /fwbot_commands_total\{operation="interfaces\.delete",outcome="approval_requested"\} 2/,
    );
  });
});
