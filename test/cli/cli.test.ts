// The CLI against the simulator: a read printed as text, the same read as SCC's JSON, exit codes that
// tell a typo, a refused token and an SCC failure apart, and a destructive command that says what it
// would do and changes nothing until --yes. One run goes through the real `bin/fwbot.js` entry.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../src/cli/cli.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('fwbot CLI', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  const env = (extra: Record<string, string | undefined> = {}) => ({
    SCC_BASE_URL: sim.url,
    SCC_API_TOKEN: sim.tokens.superAdmin,
    ...extra,
  });

  /** A terminal that answers the form's prompts in order and records each question and its echo flag. */
  function terminal(answers: string[]) {
    const asked: { question: string; secret: boolean }[] = [];
    let closed = false;
    const prompter = () => ({
      ask: async (question: string, options: { secret?: boolean } = {}) => {
        asked.push({ question, secret: options.secret === true });
        return answers.shift();
      },
      print: () => undefined,
      close: () => {
        closed = true;
      },
    });
    return { prompter, asked, closed: () => closed };
  }

  async function fwbot(
    argv: string[],
    extraEnv: Record<string, string | undefined> = {},
    input: { stdin?: string; prompter?: ReturnType<typeof terminal>['prompter'] } = {},
  ): Promise<Run> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(argv, {
      env: env(extraEnv),
      io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
      log: pino({ level: 'silent' }),
      ...(input.stdin === undefined ? {} : { readStdin: async () => input.stdin ?? '' }),
      ...(input.prompter ? { prompter: input.prompter } : {}),
    });
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

  /** The real `fwbot` process (bin/fwbot.js), with the simulator's URL and token and `extra` in its env. */
  async function fwbotProcess(argv: string[], extra: Record<string, string> = {}): Promise<Run> {
    const bin = fileURLToPath(new URL('../../bin/fwbot.js', import.meta.url));
    const child = spawn(process.execPath, [bin, ...argv], {
      env: { PATH: process.env.PATH, SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // 'close', not 'exit': both streams are read to their end by then.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code: code ?? -1, stdout, stderr };
  }

  it('prints a read as the text view, without Slack-only buttons', async () => {
    const run = await fwbot(['tenants', 'list']);
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/Name\s+Display name\s+Region\s+Devices/);
    expect(run.stdout).toMatch(/contoso-eu\s+Contoso Europe\s+EU\s+2/);
    expect(run.stdout).not.toContain('Share in channel');
  });

  it('prints SCC’s answer as JSON with --json', async () => {
    const run = await fwbot(['--json', 'tenants', 'show', 'Contoso Europe']);
    expect(run.code).toBe(EXIT.ok);
    const body = JSON.parse(run.stdout) as { name: string; uid: string; displayName: string };
    expect(body).toMatchObject({ name: 'contoso-eu', displayName: 'Contoso Europe' });
    expect(body.uid).toBe(sim.tenantUid('contoso-eu'));
  });

  it('exits 2 with did-you-mean for an unknown command, before reading any configuration', async () => {
    const run = await fwbot(['tenats', 'list'], { SCC_API_TOKEN: undefined });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/Did you mean `fwbot tenants`\?/);
  });

  it('exits 2 listing what is missing when SCC is not configured', async () => {
    const run = await fwbot(['tenants', 'list'], { SCC_API_TOKEN: undefined });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/SCC_API_TOKEN: is not set/);
  });

  it('exits 3 when SCC refuses the token, and never prints the token', async () => {
    const run = await fwbot(['tenants', 'list'], { SCC_API_TOKEN: 'not-a-valid-token-1234' });
    expect(run.code).toBe(EXIT.permission);
    expect(run.stderr).toMatch(/401/);
    expect(`${run.stdout}${run.stderr}`).not.toContain('not-a-valid-token-1234');
  });

  it('exits 4 when SCC fails', async () => {
    sim.faults.add({ path: '**', status: 500 });
    const run = await fwbot(['tenants', 'list']);
    expect(run.code).toBe(EXIT.scc);
    expect(run.stderr).toMatch(/Could not list the tenants/);
  });

  it('refuses a destructive command without --yes, saying exactly what it would do, and does it with --yes', async () => {
    const refused = await fwbot(['interfaces', 'delete', 'asa-hq-01', 'Vlan20']);
    expect(refused.code).toBe(EXIT.confirm);
    expect(refused.stderr).toMatch(
      /Not done: this would delete the VLAN interface iot \(Vlan20\) on asa-hq-01\./,
    );
    expect(refused.stderr).toMatch(/--yes/);
    expect((await fwbot(['interfaces', 'asa-hq-01'])).stdout).toMatch(/\bVlan20\b/);

    const done = await fwbot(['--yes', 'interfaces', 'delete', 'asa-hq-01', 'Vlan20']);
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toMatch(/staged the deletion of VLAN interface iot \(Vlan20\) on asa-hq-01/);
    expect((await fwbot(['interfaces', 'asa-hq-01'])).stdout).not.toMatch(/\bVlan20\b/);
  });

  it('refuses a command that carries something like a token, as Slack does (same dispatcher)', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
    const since = sim.requestLog.total;
    const run = await fwbot(['tenants', 'show', jwt]);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/looks like it contains an API token/);
    expect(run.stderr).not.toContain(jwt);
    expect(sim.requestLog.list({ since })).toHaveLength(0);
  });

  it('asks for --yes before a call Slack would send to a second person (a gateway POST)', async () => {
    const since = sim.requestLog.total;
    const run = await fwbot([
      'gateway',
      'run',
      'cdfmc-acme',
      'POST',
      '/api/fmc_config/v1/domain/d/object/networks',
      '{"name":"x"}',
    ]);
    expect(run.code).toBe(EXIT.confirm);
    expect(run.stderr).toMatch(/Not done: this would send `?POST \/api\/fmc_config/);
    expect(sim.requestLog.list({ since }).map((e) => e.operationId)).not.toContain('executeDeviceCommand');
  });

  it('stages a delete, shows the exact commands a deploy would run, and deploys them with --yes', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);
    expect((await fwbot(['--yes', 'interfaces', 'delete', 'asa-hq-01', 'Vlan20'])).code).toBe(EXIT.ok);

    const asked = await drive(fwbot(['deploy', 'asa-hq-01']));
    expect(asked.code).toBe(EXIT.confirm);
    expect(asked.stderr).toContain(
      'Not done: this would deploy the staged changes of asa-hq-01 to the device.',
    );
    expect(asked.stderr).toContain('    no interface Vlan20');
    expect(sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(0);

    const done = await drive(fwbot(['--yes', 'deploy', 'asa-hq-01']));
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toContain('asked to deploy the staged changes of asa-hq-01');
    expect(sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(1);
  });

  it('says which devices an upgrade would leave out and why, and stages the rest with --yes', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);
    const branch = [...sim.state.devices.values()].find((d) => d.device.name === 'asa-branch-02');
    if (!branch) throw new Error('no asa-branch-02 in the seed');
    branch.device.connectivityState = 'UNREACHABLE';
    const argv = ['upgrade', 'asa-hq-01', 'asa-branch-02', '--version', '9.20.3', '--stage-only'];
    const asked = await drive(fwbot(argv));
    expect(asked.code).toBe(EXIT.confirm);
    expect(asked.stderr).toContain('Not done: this would stage asa-hq-01 to 9.20.3 (stage only).');
    expect(asked.stderr).toContain('asa-branch-02: not ONLINE (UNREACHABLE)');
    expect(sim.requestLog.list({ operationId: 'upgradeAsaDevice' })).toHaveLength(0);

    const done = await drive(fwbot(['--yes', ...argv]));
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toContain('asked to stage asa-hq-01 to 9.20.3');
    expect(done.stdout).toContain('Left out: asa-branch-02');
    expect(sim.requestLog.list({ operationId: 'upgradeAsaDevice' })).toHaveLength(1);
  });

  it('refuses deploy --at, which only an approval can hold, and deploys nothing', async () => {
    const drive = <T>(work: Promise<T>): Promise<T> => driveClock(sim.clock, work);
    expect((await fwbot(['--yes', 'interfaces', 'delete', 'asa-hq-01', 'Vlan20'])).code).toBe(EXIT.ok);
    const before = sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' }).length;

    const held = await drive(fwbot(['--yes', 'deploy', 'asa-hq-01', '--at', 'sat 22:00']));
    expect(held.code).not.toBe(EXIT.ok);
    expect(held.stderr).toContain('`--at` holds a deploy after its approval; here it would run at once');
    const bad = await drive(fwbot(['--yes', 'deploy', 'asa-hq-01', '--at', 'whenever']));
    expect(bad.stderr).toContain('`--at whenever` is not a time');
    expect(sim.requestLog.list({ operationId: 'deployChangesToMultipleAsaDevices' })).toHaveLength(before);
  });

  it('reads SCC’s change log and audit log (fwbot changelog, fwbot audit-log)', async () => {
    expect((await fwbot(['--yes', 'interfaces', 'delete', 'asa-hq-01', 'Vlan20'])).code).toBe(EXIT.ok);
    const log = await fwbot(['changelog', 'asa-hq-01', '--since', '1h']);
    expect(log.code).toBe(EXIT.ok);
    expect(log.stdout).toContain('Change log of asa-hq-01 in the last 1h');
    expect(log.stdout).toMatch(/super\.admin@acme-msp\.example\s+delete/);
    expect(log.stdout).toContain('no interface Vlan20');
    expect(
      new URLSearchParams(sim.requestLog.list({ operationId: 'getChangelogs' }).at(-1)?.query).get(
        'timeRange',
      ),
    ).toBe('1h');

    const audit = await fwbot(['audit-log', 'super']);
    expect(audit.code).toBe(EXIT.ok);
    expect(audit.stdout).toMatch(/user logged in\s+super\.admin@acme-msp\.example/);
    const refused = await fwbot(['audit-log'], { SCC_API_TOKEN: sim.tokens.readOnly });
    expect(refused.code).toBe(EXIT.permission);
    expect(refused.stderr).toMatch(
      /Could not read SCC’s audit log\. SCC refused the request \(403 FORBIDDEN\)/,
    );

    const bad = await fwbot(['changelog', '--since', 'yesterday']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain('`since` must be a duration such as 15m, 1h, 2d or 1w');
  });

  it('names on a deploy’s confirmation the SCC user who staged a change fwbot did not make', async () => {
    const branch = sim.deviceUid('asa-branch-02');
    const staff = [...sim.state.interfaces.values()].find(
      (i) => i.deviceUid === branch && i.name === 'staff',
    );
    const admin = createSccClient({ baseUrl: sim.url, token: sim.tokens.admin });
    try {
      await admin.call('modifyAsaSubInterface', {
        path: { deviceUid: branch, interfaceUid: String(staff?.uid) },
        body: { mtu: 1300 },
      });
    } finally {
      await admin.close();
    }
    const asked = await driveClock(sim.clock, fwbot(['deploy', 'asa-branch-02']));
    expect(asked.code).toBe(EXIT.confirm);
    expect(asked.stderr).toContain('asa-branch-02, staged in SCC (its change log names):');
    expect(asked.stderr).toMatch(
      /ops\.admin@acme-msp\.example.* Modified interface GigabitEthernet1\/2\.10 \(staff\)/,
    );
  });

  it('passes arguments with spaces and flags through to the grammar', async () => {
    const run = await fwbot(['tenants', 'create', 'acme-cli', '--display-name', 'Acme CLI']);
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/create tenant acme-cli/);
    expect(run.stdout).toMatch(/Display name:\s+Acme CLI/);
    // The transaction goes on in SCC; nothing on a terminal follows it (Slack's thread does).
    expect(run.stderr).toBe(
      'SCC goes on working on it (create tenant acme-cli); the CLI does not follow it, so nothing more is reported here.',
    );
  });

  it('creates and edits an interface from argv alone (every form field is a flag)', async () => {
    const created = await fwbot([
      'interfaces',
      'create',
      'vlan',
      'asa-hq-01',
      '--vlan-id',
      '30',
      '--name',
      'visitors',
      '--ipv4',
      '10.30.0.1/24',
    ]);
    expect(created.code).toBe(EXIT.ok);
    expect(created.stdout).toMatch(/staged the creation of VLAN interface visitors \(Vlan30\) on asa-hq-01/);
    const edited = await fwbot(['interfaces', 'edit', 'asa-hq-01', 'visitors', '--mtu', '9000']);
    expect(edited.code).toBe(EXIT.ok);
    expect(edited.stdout).toContain('MTU: 1500 → 9000');
    expect(sim.requestLog.list({ operationId: 'modifyAsaVlanInterface' })).toHaveLength(1);
  });

  it('says a created or edited interface is staged and not on the device, in Slack’s words, with fwbot’s commands', async () => {
    const created = await fwbot([
      'interfaces',
      'create',
      'vlan',
      'asa-hq-01',
      '--vlan-id',
      '30',
      '--name',
      'lab',
    ]);
    expect(created.code).toBe(EXIT.ok);
    // render/changes.ts stagedNote, as Slack's message says it: staged, not on the device, the count.
    expect(created.stdout).toContain(
      'Staged in SCC, not yet on asa-hq-01: traffic is unchanged until it is deployed. ' +
        'A deploy of asa-hq-01 would now push 1 staged change, whoever made it: interface Vlan30 (new). ' +
        '`fwbot changes asa-hq-01` shows the commands a deploy would run; `fwbot deploy asa-hq-01` asks to run them.',
    );
    // A staged change is not work SCC goes on with, and the terminal names no slash command.
    expect(created.stderr).toBe('');
    expect(created.stdout).not.toContain('/fw');

    const edited = await fwbot(['interfaces', 'edit', 'asa-hq-01', 'lab', '--mtu', '9000']);
    expect(edited.code).toBe(EXIT.ok);
    expect(edited.stdout).toContain('Staged in SCC, not yet on asa-hq-01');
    expect(edited.stdout).toContain('A deploy of asa-hq-01 would now push 1 staged change');
    expect(edited.stdout).toContain('`fwbot changes asa-hq-01` shows the commands a deploy would run');
    expect(edited.stderr).toBe('');
  });

  it('says what a form would have asked when there is no terminal, with the usage line', async () => {
    const since = sim.requestLog.total;
    const run = await fwbot(['interfaces', 'edit', 'asa-hq-01', 'inside'], { SCC_API_TOKEN: undefined });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/Give at least one setting to change: --name, --ipv4/);
    expect(run.stderr).toMatch(/usage: fwbot interfaces edit <device> <interface> \[--name …\]/);
    const typo = await fwbot(['interfaces', 'edit', 'asa-hq-01', 'inside', '--mut', '9000']);
    expect(typo.code).toBe(EXIT.usage);
    expect(typo.stderr).toMatch(/Unknown flag --mut\. Did you mean --mtu\?/);
    expect(sim.requestLog.list({ since })).toHaveLength(0);
  });

  it('asks the form on a terminal when the command names only its target', async () => {
    const tty = terminal(['', '', '', '1400', '', '']);
    const run = await fwbot(['interfaces', 'edit', 'asa-hq-01', 'inside'], {}, { prompter: tty.prompter });
    expect(run.code).toBe(EXIT.ok);
    expect(tty.asked.map((a) => a.question).join('\n')).toMatch(/MTU \(64–9198\).*\[1500\]/);
    expect(run.stdout).toContain('MTU: 1500 → 1400');
    expect(tty.closed()).toBe(true);
  });

  it('says why a form cannot be filled before asking anything (an ASA with no free port)', async () => {
    // asa-branch-02 left with its management port, VLAN and VTI: nothing can carry a subinterface.
    const deviceUid = sim.deviceUid('asa-branch-02');
    for (const [uid, iface] of sim.state.interfaces) {
      const port =
        (iface.interfaceType === 'PHYSICAL_INTERFACE' && !iface.managementInterface) ||
        iface.interfaceType === 'ETHER_CHANNEL_INTERFACE' ||
        iface.interfaceType === 'SUB_INTERFACE';
      if (iface.deviceUid === deviceUid && port) sim.state.interfaces.delete(uid);
    }
    const tty = terminal([]);
    const run = await fwbot(
      ['interfaces', 'create', 'subinterface', 'asa-branch-02'],
      {},
      { prompter: tty.prompter },
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toBe(
      'asa-branch-02 has no interface that can carry a subinterface: no data port outside an EtherChannel, and no EtherChannel.',
    );
    expect(tty.asked).toEqual([]);
    expect(sim.requestLog.list({ operationId: 'createAsaSubInterface' })).toHaveLength(0);
  });

  it('lists a command’s flags with --help after it', async () => {
    const run = await fwbot(['interfaces', 'create', 'vlan', '--help'], { SCC_API_TOKEN: undefined });
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toMatch(/fwbot interfaces create vlan <device> --vlan-id … \[--name …\] \[--ipv4 …\]/);
  });

  describe('a tenant’s API token (a secret form field)', () => {
    it('reads it from stdin with --api-token-stdin, never from argv, and never prints it', async () => {
      const token = sim.mintTenantToken(sim.tenantUid('tyrell-apj'));
      const run = await fwbot(['tenants', 'add', '--api-token-stdin'], {}, { stdin: `${token}\n` });
      expect(run.code).toBe(EXIT.ok);
      expect(sim.requestLog.list({ operationId: 'addMspTenant' })).toHaveLength(1);
      expect(`${run.stdout}${run.stderr}`).not.toContain(token);
    });

    it('asks for it without echo on a terminal', async () => {
      const token = sim.mintTenantToken(sim.tenantUid('tyrell-apj'));
      const tty = terminal([token]);
      const run = await fwbot(['tenants', 'add'], {}, { prompter: tty.prompter });
      expect(run.code).toBe(EXIT.ok);
      expect(tty.asked).toEqual([{ question: expect.stringMatching(/API token/), secret: true }]);
      expect(`${run.stdout}${run.stderr}`).not.toContain(token);
    });

    it('says how to give it when there is neither a terminal nor stdin, and refuses a stray -stdin flag', async () => {
      const missing = await fwbot(['tenants', 'add'], { SCC_API_TOKEN: undefined });
      expect(missing.code).toBe(EXIT.usage);
      expect(missing.stderr).toMatch(
        /`api-token` is never typed on the command line: pipe it with --api-token-stdin/,
      );
      const stray = await fwbot(
        ['tenants', 'list', '--api-token-stdin'],
        { SCC_API_TOKEN: undefined },
        { stdin: 'x' },
      );
      expect(stray.code).toBe(EXIT.usage);
      expect(stray.stderr).toMatch(/Unknown flag --api-token-stdin\. It reads no secret from stdin\./);
      const empty = await fwbot(
        ['tenants', 'add', '--api-token-stdin'],
        { SCC_API_TOKEN: undefined },
        { stdin: '\n' },
      );
      expect(empty.code).toBe(EXIT.usage);
      expect(empty.stderr).toMatch(/--api-token-stdin: stdin held nothing\./);
    });
  });

  describe('a generated API token (a secret SCC shows once)', () => {
    const argv = ['tenants', 'token', 'contoso-eu', 'contoso-eu-automation'];
    const generated = () =>
      [...sim.state.tokens.values()].filter(
        (t) => t.source === 'generated' && t.username === 'contoso-eu-automation',
      );

    it('asks for --yes first, and nothing is generated', async () => {
      const asked = await fwbot(argv);
      expect(asked.code).toBe(EXIT.confirm);
      expect(asked.stderr).toMatch(/Not done: this would generate a new API token for API-only user/);
      expect(asked.stdout).toBe('');
      expect(sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
      expect(generated()).toEqual([]);
    });

    it('prints the token SCC minted once on stdout with --yes (never logged), and the token works', async () => {
      // The real process, logging at debug to stderr: what a person sees, and all fwbot would log.
      const run = await fwbotProcess(['--yes', ...argv], { LOG_LEVEL: 'debug' });
      expect(run.code).toBe(EXIT.ok);
      const [minted, ...others] = generated();
      expect(others).toEqual([]);
      const token = minted?.token ?? 'no token was minted';
      expect(run.stdout.split(token)).toHaveLength(2);
      // stderr holds fwbot's debug log of the call (so "never logged" is checked), not the token.
      expect(run.stderr).toContain('"operationId":"generateApiTokenForUserInTenant"');
      expect(run.stderr).not.toContain(token);
      // The sentences around it are true: it is shown here, once, and the one after it says so.
      expect(run.stdout).toMatch(/^New API token\n/);
      expect(run.stdout).toContain('Copy it now: fwbot shows it this once and keeps no copy.');
      expect(run.stdout.indexOf('The token was shown once, privately')).toBeGreaterThan(
        run.stdout.indexOf(token),
      );
      // It is SCC's new token for that user: it authenticates (and the old one was revoked by SCC).
      const withIt = await fwbot(['devices'], { SCC_API_TOKEN: token });
      expect(withIt.code).toBe(EXIT.ok);
    });
  });

  it('says what it would do with names from SCC shown as typed: one line each, nothing hidden (issue 24)', async () => {
    const deviceUid = sim.deviceUid('asa-hq-01');
    const iot = [...sim.state.interfaces.values()].find((i) => i.deviceUid === deviceUid && i.name === 'iot');
    if (!iot) throw new Error('the seed has no iot VLAN on asa-hq-01');
    iot.name = 'iot\n*Device:* asa-lab-99 (harmless)\u202E';

    // fwbot's mark characters typed on the command line are dropped where it enters.
    const refused = await fwbot(['interfaces', 'delete', 'asa-hq-01', '\uE004Vlan20\uE005']);

    expect(refused.code).toBe(EXIT.confirm);
    const hidden = '⚠ (contains hidden or control characters)';
    expect(refused.stderr).toContain(
      `Not done: this would delete the VLAN interface iot\\n*Device:* asa-lab-99 (harmless)\\u202E (Vlan20) ${hidden} on asa-hq-01.`,
    );
    expect(refused.stderr).toContain(
      `  Interface: iot\\n*Device:* asa-lab-99 (harmless)\\u202E (Vlan20) ${hidden}`,
    );
    expect(refused.stderr.split('\n').filter((line) => /^\W*Device:?\W*\s+asa-lab-99/.test(line))).toEqual(
      [],
    );
    expect(refused.stderr).not.toMatch(/[\u202E\uE000-\uE00F]/);
  });

  it('runs through bin/fwbot.js with its exit code', async () => {
    const bin = fileURLToPath(new URL('../../bin/fwbot.js', import.meta.url));
    const child = spawn(process.execPath, [bin, 'tenants', 'list', 'contoso'], {
      env: { PATH: process.env.PATH, SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    // 'close', not 'exit': stdout is read to its end by then.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/contoso-eu/);

    const usage = spawn(process.execPath, [bin, 'nope'], {
      env: { PATH: process.env.PATH },
      stdio: 'ignore',
    });
    expect(await new Promise<number | null>((resolve) => usage.on('exit', resolve))).toBe(EXIT.usage);
  });
});
