// Software upgrades from the terminal (issue 37 item 10), against the simulator on its manual clock: the
// versions each device can move to, grouped by model (across the MSP portal's tenants); a full upgrade with
// --yes followed in the foreground to its end, then proven (or what differs said) with exit 0 or 6; and
// `--at` / `--canary` refused in one sentence, with nothing sent, when no Redis of the bot's is named.
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/cli.js';
import { createJobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { runCaptured } from './support.js';

const CHANGES = ['upgradeAsaDevice', 'upgradeAsaDevices', 'upgradeFtdDevice', 'upgradeFtdDevices'];

describe('fwbot upgrade / upgrades versions', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await sim.stop();
  });

  const drive = (run: Promise<number>) => driveClock(sim.clock, run, { stepMs: 10_000, maxSteps: 5_000 });
  const fwbot = (argv: string[], extra: Record<string, string | undefined> = {}, redisPrefix?: string) =>
    runCaptured(
      argv,
      {
        env: { SCC_BASE_URL: sim.url, SCC_API_TOKEN: sim.tokens.superAdmin, ...extra },
        followDelayMs: 20,
        ...(redisPrefix === undefined ? {} : { redisPrefix }),
      },
      drive,
    );
  const changes = () => sim.requestLog.list().filter((e) => CHANGES.includes(e.operationId ?? ''));
  const record = (name: string) => {
    const found = [...sim.state.devices.values()].find((d) => d.device.name === name);
    if (!found) throw new Error(`no ${name} in the seed`);
    return found;
  };
  const fault = async (device: string, kind: string) => {
    const res = await fetch(`${sim.url}/_sim/devices/${device}/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind, times: 1 }),
    });
    expect(res.status).toBe(200);
  };

  it('lists the versions by model, across the portal’s tenants', async () => {
    const run = await fwbot(['upgrades', 'versions', 'nw-asa-hq', 'globex-asa-01', 'nw-ftd-edge']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain('Software versions 3 devices in 2 tenants can move to');
    expect(run.stdout).toContain('Cisco ASA5516-X');
    expect(run.stdout).toContain('Cisco Firepower 1120 Threat Defense');
    expect(run.stdout).toContain('7.4.2 (suggested)');
    const query = await fwbot(['upgrades', 'versions', 'managedTenantName:northwind-us']);
    expect(query.code).toBe(EXIT.ok);
    expect(query.stdout).toContain('nw-asa-branch');
    expect(query.stdout).toContain('nw-ftd-edge');
  });

  it('upgrades with --yes, follows the run to its end and proves the device', {
    timeout: 120_000,
  }, async () => {
    // SCC applies an upgrade only in a device's maintenance window: this one has none.
    delete record('asa-hq-01').maintenanceWindow;
    const run = await fwbot(['--yes', 'upgrade', 'asa-hq-01', '--version', '9.20.3']);
    expect(run.stderr).toContain('Following upgrade asa-hq-01 to 9.20.3 until it ends');
    expect(run.stdout).toContain('asked to upgrade asa-hq-01 to 9.20.3');
    expect(run.stdout).toMatch(/ASA software upgrade [^\n]* completed/);
    expect(run.stdout).toContain('upgrade asa-hq-01 to 9.20.3: proven after the upgrade (1 device)');
    expect(run.stdout).toMatch(/asa-hq-01: proven/);
    expect(run.code).toBe(EXIT.ok);
    expect(record('asa-hq-01').device.softwareVersion).toBe('9.20.3');
  });

  it('says what differs after the upgrade and exits 6', { timeout: 120_000 }, async () => {
    delete record('asa-hq-01').maintenanceWindow;
    // The run completes, but the device still reports the version it ran (the simulator's VERSION fault).
    await fault(record('asa-hq-01').device.uid, 'VERSION');
    const run = await fwbot(['--yes', 'upgrade', 'asa-hq-01', '--version', '9.20.3']);
    expect(run.stdout).toMatch(/ASA software upgrade [^\n]* completed/);
    expect(run.stdout).toContain('0 of 1 device proven after the upgrade; what differs is below');
    expect(run.stdout).toMatch(/asa-hq-01: differs/);
    expect(run.code).toBe(EXIT.followed);
  });

  it('says SCC’s reason when the run fails on a device and exits 6', { timeout: 120_000 }, async () => {
    // asa-hq-01's maintenance window is closed at the simulator's time: SCC stages and stops there.
    const run = await fwbot(['--yes', 'upgrade', 'asa-hq-01', '--version', '9.20.3']);
    expect(run.stdout).toMatch(/ASA software upgrade [^\n]* failed \(UPGRADE_FAILED\)/);
    expect(run.stdout).toContain('SCC says: Outside the maintenance window: asa-hq-01');
    expect(run.stdout).not.toContain('proven after the upgrade');
    expect(run.code).toBe(EXIT.followed);
    expect(record('asa-hq-01').device.softwareVersion).not.toBe('9.20.3');
  });

  it('refuses --at and --canary without the bot’s Redis, in one sentence, sending nothing', async () => {
    for (const later of [['--at', 'sat 22:00'], ['--canary']]) {
      const run = await fwbot(['--yes', 'upgrade', 'asa-hq-01', '--version', '9.20.3', ...later]);
      expect(run.code).toBe(EXIT.usage);
      expect(run.stderr).toContain('`--at` and `--canary` leave the upgrade for later');
    }
    expect(changes()).toHaveLength(0);
  });

  it('with the bot’s Redis named, --canary stages now and leaves the upgrade to the bot’s timed work', async () => {
    const prefix = uniquePrefix('cli-upgrade');
    const argv = ['--yes', 'upgrade', 'asa-hq-01', 'asa-branch-02', '--version', '9.20.3', '--canary'];
    const run = await fwbot(argv, { REDIS_URL: redisUrl() }, prefix);
    expect(run.stdout).toContain('asked to stage asa-hq-01, asa-branch-02 for 9.20.3');
    expect(run.stdout).toMatch(/Upgrade 1: +asa-hq-01 \(canary\): /);
    expect(run.stdout).toMatch(/Upgrade 2: +asa-branch-02: once its image is staged/);
    expect(run.stdout).toMatch(/is staged \(the image is on the devices, not yet applied\)/);
    expect(run.code).toBe(EXIT.ok);
    // Staged only: the upgrade itself waits in the bot's timed work, the canary first.
    expect(sim.requestLog.list({ operationId: 'upgradeAsaDevices' })).toHaveLength(1);
    const jobs = createJobs({ redisUrl: redisUrl(), prefix, logger: pino({ level: 'silent' }) });
    try {
      const items = await jobs.timed.list();
      const upgrades = items.filter((item) => item.kind === 'device-upgrade');
      expect(upgrades.map((item) => item.what).sort()).toEqual([
        expect.stringContaining('asa-branch-02'),
        expect.stringContaining('asa-hq-01'),
      ]);
      expect(upgrades.every((item) => item.state === 'scheduled')).toBe(true);
    } finally {
      await jobs.close();
    }
  });
});
