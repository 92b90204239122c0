// Staged changes on ASAs, as SCC applies them: interface changes edit SCC's copy only, the pending commands
// are calculated (asynchronously, cached briefly), a deploy walks its run's statuses on the simulated clock
// and changes the device's running configuration, and read configuration throws staged changes away.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { items, obj, type RawResponse, simulator, str } from './support.js';

const ASAS = '/v1/inventory/devices/asas';
const RUNS = '/v1/inventory/devices/deployments/runs';

describe('simulator: staged changes and deploys', () => {
  let sim: SimulatorHandle;
  let api: Awaited<ReturnType<typeof simulator>>['api'];
  let hq: string;

  beforeEach(async () => {
    ({ sim, api } = await simulator());
    hq = sim.deviceUid('asa-hq-01');
  });
  afterEach(async () => {
    await sim.stop();
  });

  const iface = (device: string, hardwareName: string) => {
    const deviceUid = sim.deviceUid(device);
    for (const i of sim.state.interfaces.values())
      if (i.deviceUid === deviceUid && i.hardwareName === hardwareName) return i.uid;
    throw new Error(`no ${hardwareName} on ${device}`);
  };
  const device = async (uid: string) => obj(await api('GET', `/v1/inventory/devices/${uid}`));
  const configs = async (uid: string) => obj(await api('GET', `${ASAS}/${uid}/configs`));
  const deleteVlan20 = async () => {
    const answer = await api('DELETE', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan20')}`);
    expect(answer.status).toBe(204);
  };
  /** Calculates, lets the calculation finish on the clock, and reads the commands. */
  const pendingCommands = async (uid: string): Promise<RawResponse> => {
    const tx = await api('POST', `${ASAS}/${uid}/changes/pending/commands`);
    expect(tx.status).toBe(202);
    expect(obj(tx).transactionType).toBe('CALCULATE_ASA_CONFIG_COMMANDS');
    sim.clock.advance(5_000);
    expect(
      obj(await api('GET', `/v1/transactions/${str(obj(tx).transactionUid)}`)).cdoTransactionStatus,
    ).toBe('DONE');
    return api('GET', `${ASAS}/${uid}/changes/pending/commands`);
  };
  /** Deploys, advances the clock by `ms`, and answers the run. */
  const deploy = async (body: Record<string, unknown>, ms = 120_000) => {
    const tx = await api('POST', `${ASAS}/deploy`, { body });
    expect(tx.status).toBe(202);
    expect(obj(tx).transactionType).toBe('DEPLOY_ASA_DEVICE_CHANGES');
    const runUid = str(obj(tx).entityUid);
    sim.clock.advance(ms);
    const run = obj(await api('GET', `${RUNS}/${runUid}`));
    const transaction = obj(await api('GET', `/v1/transactions/${str(obj(tx).transactionUid)}`));
    return { run, runUid, transaction };
  };
  const statusOf = (run: Record<string, unknown>, uid: string) =>
    (run.deviceDeploymentStatuses as Record<string, unknown>[]).find((d) => d.uid === uid);

  it('stages an interface delete in SCC only: NOT_SYNCED, reads answer SCC, the device keeps it', async () => {
    expect((await device(hq)).configState).toBe('SYNCED');

    await deleteVlan20();

    expect((await device(hq)).configState).toBe('NOT_SYNCED');
    const vlans = items(await api('GET', `${ASAS}/${hq}/vlaninterfaces`)).map((i) => i.hardwareName);
    expect(vlans).toEqual(['Vlan10']);
    const { configOnDevice, configOnCloud } = await configs(hq);
    expect(str(configOnDevice)).toContain('interface Vlan20\n nameif iot\n');
    expect(str(configOnDevice)).toContain('mtu iot 1500');
    expect(str(configOnCloud)).not.toContain('interface Vlan20');
    expect(str(configOnCloud)).toMatch(/^: Saved\n/);
    expect(str(configOnCloud)).toMatch(/Cryptochecksum:[0-9a-f]{32}\n: end\n$/);
  });

  it('calculates the commands a deploy would run: no interface Vlan20', async () => {
    await deleteVlan20();

    const answer = await pendingCommands(hq);

    expect(answer.status).toBe(200);
    expect(obj(answer)).toEqual({
      deviceUid: hq,
      status: 'SUCCESS',
      configCommands: ['no interface Vlan20'],
    });
  });

  it('orders creations so members precede their channel and parents precede subinterfaces', async () => {
    const ports = ['GigabitEthernet1/6', 'GigabitEthernet1/7'].map((hw) => iface('asa-hq-01', hw));
    const channel = await api('POST', `${ASAS}/${hq}/etherchannelinterfaces`, {
      body: {
        name: 'backup',
        etherChannelId: 2,
        memberInterfaces: ports,
        securityLevel: 80,
        ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.4.0.1', netmask: '255.255.255.0' } },
      },
    });
    expect(channel.status).toBe(201);
    const sub = await api('POST', `${ASAS}/${hq}/interfaces/${str(obj(channel).uid)}/subinterfaces`, {
      body: { name: 'backup-mgmt', subInterfaceId: 10, vlanPrimaryId: 10, mtu: 9000 },
    });
    expect(sub.status).toBe(201);
    const edited = await api('PATCH', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan10')}`, {
      body: { enabled: false, securityLevel: 30 },
    });
    expect(edited.status).toBe(200);

    const commands = obj(await pendingCommands(hq)).configCommands;

    expect(commands).toEqual([
      'interface GigabitEthernet1/6',
      'channel-group 2 mode active',
      'interface GigabitEthernet1/7',
      'channel-group 2 mode active',
      'interface Port-channel2',
      'lacp max-bundle 8',
      'nameif backup',
      'security-level 80',
      'ip address 10.4.0.1 255.255.255.0',
      'no shutdown',
      'interface Port-channel2.10',
      'vlan 10',
      'nameif backup-mgmt',
      'security-level 0',
      'no shutdown',
      'interface Vlan10',
      'shutdown',
      'security-level 30',
      'mtu backup 1500',
      'mtu backup-mgmt 9000',
    ]);
  });

  it('removes subinterfaces before their channel, and frees the members before the channel goes', async () => {
    const channel = iface('asa-hq-01', 'Port-channel1');
    expect(
      (await api('DELETE', `${ASAS}/${hq}/subinterfaces/${iface('asa-hq-01', 'Port-channel1.300')}`)).status,
    ).toBe(204);
    expect((await api('DELETE', `${ASAS}/${hq}/etherchannelinterfaces/${channel}`)).status).toBe(204);

    const commands = obj(await pendingCommands(hq)).configCommands as string[];

    expect(commands.indexOf('no interface Port-channel1.300')).toBe(0);
    expect(commands.indexOf('no interface Port-channel1')).toBeGreaterThan(
      commands.lastIndexOf('no channel-group 1 mode active'),
    );
    expect(commands.filter((c) => c === 'no channel-group 1 mode active')).toHaveLength(2);
  });

  it('deploys: PENDING → VALIDATING_DEVICES → DEPLOYING → DEPLOY_COMPLETED, then SYNCED and gone from the device', async () => {
    await deleteVlan20();
    const tx = await api('POST', `${ASAS}/deploy`, {
      body: { deviceUids: [hq], description: 'remove the IoT VLAN', deploymentNotes: 'CHG-42' },
    });
    const runUid = str(obj(tx).entityUid);
    const statusAt = async (ms: number) => {
      sim.clock.advance(ms);
      return obj(await api('GET', `${RUNS}/${runUid}`)).deploymentRunStatus;
    };

    expect(await statusAt(0)).toBe('PENDING');
    expect(await statusAt(2_000)).toBe('VALIDATING_DEVICES');
    expect(await statusAt(5_000)).toBe('DEPLOYING');
    expect((await device(hq)).configState).toBe('NOT_SYNCED');
    expect(await statusAt(60_000)).toBe('DEPLOY_COMPLETED');

    const run = obj(await api('GET', `${RUNS}/${runUid}`));
    expect(run).toMatchObject({
      deploymentType: 'ASA_DEVICE_DEPLOY',
      description: 'remove the IoT VLAN',
      deployerUsername: 'super.admin@acme-msp.example',
      deviceUids: [hq],
      transactionUid: obj(tx).transactionUid,
    });
    expect(statusOf(run, hq)).toMatchObject({
      status: 'DONE',
      name: 'asa-hq-01',
      completionStatus: { percentageComplete: 1 },
    });
    expect((await device(hq)).configState).toBe('SYNCED');
    expect(str((await configs(hq)).configOnDevice)).not.toContain('interface Vlan20');
    const transaction = obj(await api('GET', `/v1/transactions/${str(obj(tx).transactionUid)}`));
    expect(transaction.cdoTransactionStatus).toBe('DONE');

    const changes = await api('GET', `${RUNS}/${runUid}/devices/${hq}/changes`);
    expect(changes.status).toBe(200);
    const [change] = changes.body as Record<string, unknown>[];
    expect(change).toMatchObject({
      deploymentType: 'ASA_DEVICE_DEPLOY',
      deploymentRunUid: runUid,
      deviceUid: hq,
    });
    expect(str(change?.initialConfig)).toContain('interface Vlan20');
    expect(str(change?.deployedConfig)).not.toContain('interface Vlan20');

    const listed = items(
      await api('GET', RUNS, { query: { q: `transactionUid:"${str(obj(tx).transactionUid)}"` } }),
    );
    expect(listed.map((r) => r.uid)).toEqual([runUid]);
  });

  it('skips a device with nothing pending (SKIPPED) and still completes', async () => {
    await deleteVlan20();
    const branch = sim.deviceUid('asa-branch-02');

    const { run } = await deploy({ deviceUids: [hq, branch] });

    expect(run.deploymentRunStatus).toBe('DEPLOY_COMPLETED');
    expect(statusOf(run, hq)?.status).toBe('DONE');
    expect(statusOf(run, branch)).toMatchObject({
      status: 'SKIPPED',
      completionStatus: { message: 'No changes to deploy' },
    });
    const [change] = (await api('GET', `${RUNS}/${str(run.uid)}/devices/${branch}/changes`)).body as Record<
      string,
      unknown
    >[];
    expect(change?.initialConfig).toEqual(expect.any(String));
    expect(change).not.toHaveProperty('deployedConfig');
  });

  it('fails a device that refuses a command (overlapping subnet): ERROR, DEPLOY_FAILED, still NOT_SYNCED', async () => {
    const created = await api('POST', `${ASAS}/${hq}/vlaninterfaces`, {
      body: {
        name: 'iot2',
        vlanId: 21,
        ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.20.0.5', netmask: '255.255.255.0' } },
      },
    });
    expect(created.status).toBe(201);
    const branch = sim.deviceUid('asa-branch-02');
    expect(
      (
        await api('PATCH', `${ASAS}/${branch}/vlaninterfaces/${iface('asa-branch-02', 'Vlan30')}`, {
          body: { description: 'printers' },
        })
      ).status,
    ).toBe(200);

    const { run, transaction } = await deploy({ deviceUids: [hq, branch] });

    expect(run).toMatchObject({
      deploymentRunStatus: 'DEPLOY_FAILED',
      failureReason: 'DEVICE_DEPLOY_FAILED',
    });
    expect(statusOf(run, branch)?.status).toBe('DONE');
    const failed = statusOf(run, hq);
    expect(failed?.status).toBe('ERROR');
    expect(str(failed?.errorMsg)).toContain('overlaps with interface Vlan20');
    expect(failed?.errorDetails).toEqual([
      expect.objectContaining({
        code: 'COMMAND_REJECTED',
        details: { interface: 'Vlan21', command: 'ip address 10.20.0.5 255.255.255.0' },
      }),
    ]);
    expect(transaction).toMatchObject({
      cdoTransactionStatus: 'ERROR',
      errorDetails: { [hq]: failed?.errorMsg },
    });
    expect((await device(hq)).configState).toBe('NOT_SYNCED');
    expect(str((await configs(hq)).configOnDevice)).not.toContain('interface Vlan21');
    expect((await device(branch)).configState).toBe('SYNCED');
  });

  it('fails an unreachable device at validation (VALIDATION_FAILED), with no snapshot', async () => {
    await deleteVlan20();
    const offline = await api('POST', `/_sim/devices/asa-hq-01/connectivity`, {
      body: { connectivityState: 'UNREACHABLE' },
    });
    expect(offline.status).toBe(200);

    const { run, runUid } = await deploy({ deviceUids: [hq] });

    expect(run).toMatchObject({ deploymentRunStatus: 'DEPLOY_FAILED', failureReason: 'VALIDATION_FAILED' });
    expect(statusOf(run, hq)).toMatchObject({
      status: 'ERROR',
      errorMsg: expect.stringContaining('unreachable'),
    });
    const [change] = (await api('GET', `${RUNS}/${runUid}/devices/${hq}/changes`)).body as Record<
      string,
      unknown
    >[];
    expect(change).not.toHaveProperty('initialConfig');
    expect(str((await configs(hq)).configOnDevice)).toContain('interface Vlan20');
  });

  it('expires calculated commands: 404 before calculating, 200 within five minutes, 404 after', async () => {
    await deleteVlan20();
    expect((await api('GET', `${ASAS}/${hq}/changes/pending/commands`)).status).toBe(404);

    expect((await pendingCommands(hq)).status).toBe(200);
    sim.clock.advance(4 * 60_000);
    expect((await api('GET', `${ASAS}/${hq}/changes/pending/commands`)).status).toBe(200);
    sim.clock.advance(60_000);

    const expired = await api('GET', `${ASAS}/${hq}/changes/pending/commands`);
    expect(expired.status).toBe(404);
    expect(obj(expired).errorCode).toBe('NOT_FOUND');
  });

  it('drops calculated commands when the staged configuration changes', async () => {
    await deleteVlan20();
    expect((await pendingCommands(hq)).status).toBe(200);

    await api('PATCH', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan10')}`, {
      body: { mtu: 1400 },
    });

    expect((await api('GET', `${ASAS}/${hq}/changes/pending/commands`)).status).toBe(404);
  });

  it('read configuration discards staged changes: SCC takes the device copy back', async () => {
    await deleteVlan20();
    const tx = await api('POST', `${ASAS}/${hq}/read`);
    expect(tx.status).toBe(202);
    expect(obj(tx).transactionType).toBe('READ_ASA');

    sim.clock.advance(10_000);

    expect(
      obj(await api('GET', `/v1/transactions/${str(obj(tx).transactionUid)}`)).cdoTransactionStatus,
    ).toBe('DONE');
    expect((await device(hq)).configState).toBe('SYNCED');
    const vlans = items(await api('GET', `${ASAS}/${hq}/vlaninterfaces`)).map((i) => i.hardwareName);
    expect(vlans.sort()).toEqual(['Vlan10', 'Vlan20']);
    const { configOnDevice, configOnCloud } = await configs(hq);
    expect(configOnCloud).toBe(configOnDevice);
  });

  it('reports an out-of-band change as CONFLICT_DETECTED; a deploy overrides it, read configuration accepts it', async () => {
    const injected = await api('POST', '/_sim/devices/asa-hq-01/out-of-band', {
      body: { hardwareName: 'GigabitEthernet1/3', description: 'patched at 3am' },
    });
    expect(injected.status).toBe(200);
    expect(await device(hq)).toMatchObject({
      conflictDetectionState: 'CONFLICT_DETECTED',
      configState: 'NOT_SYNCED',
    });
    expect(str((await configs(hq)).configOnDevice)).toContain(
      'interface GigabitEthernet1/3\n description patched at 3am\n',
    );
    expect(obj(await pendingCommands(hq)).configCommands).toEqual([
      'interface GigabitEthernet1/3',
      'no description',
    ]);

    const { run } = await deploy({ deviceUids: [hq] });
    expect(run.deploymentRunStatus).toBe('DEPLOY_COMPLETED');
    expect(await device(hq)).toMatchObject({ conflictDetectionState: 'NO_CONFLICTS', configState: 'SYNCED' });

    await api('POST', '/_sim/devices/asa-hq-01/out-of-band', { body: { description: 'again' } });
    await api('POST', `${ASAS}/${hq}/read`);
    sim.clock.advance(10_000);
    expect(await device(hq)).toMatchObject({ conflictDetectionState: 'NO_CONFLICTS', configState: 'SYNCED' });
    expect(str((await configs(hq)).configOnCloud)).toContain(' description again\n');
  });

  describe('unsupported commands (renaming an interface)', () => {
    const rename = async () => {
      const answer = await api('PATCH', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan20')}`, {
        body: { name: 'sensors' },
      });
      expect(answer.status).toBe(200);
      expect(
        (
          await api('PATCH', `${ASAS}/${hq}/vlaninterfaces/${iface('asa-hq-01', 'Vlan10')}`, {
            body: { mtu: 1400 },
          })
        ).status,
      ).toBe(200);
    };

    it('are reported by the calculation as UNSUPPORTED_COMMANDS', async () => {
      await rename();

      expect(obj(await pendingCommands(hq))).toMatchObject({
        status: 'UNSUPPORTED_COMMANDS',
        configCommands: ['interface Vlan20', 'nameif sensors', 'mtu guest 1400', 'mtu sensors 1500'],
      });
    });

    it('are skipped without force: WARNING, the rest deployed, the rename still staged', async () => {
      await rename();

      const { run } = await deploy({ deviceUids: [hq] });

      expect(run).toMatchObject({
        deploymentRunStatus: 'DEPLOY_COMPLETED',
        failureReason: 'DEVICE_DEPLOY_COMPLETED_WITH_WARNINGS',
      });
      expect(statusOf(run, hq)).toMatchObject({
        status: 'WARNING',
        errorDetails: [expect.objectContaining({ code: 'UNSUPPORTED_COMMANDS', severity: 'WARNING' })],
      });
      const running = str((await configs(hq)).configOnDevice);
      expect(running).toContain('mtu guest 1400');
      expect(running).toContain('nameif iot');
      expect((await device(hq)).configState).toBe('NOT_SYNCED');
      expect(obj(await pendingCommands(hq)).configCommands).toEqual([
        'interface Vlan20',
        'nameif sensors',
        'mtu sensors 1500',
      ]);
    });

    it('are applied with forceDeployUnsupportedCommands: a full-configuration apply, DONE, SYNCED', async () => {
      await rename();

      const early = await deploy({ deviceUids: [hq], forceDeployUnsupportedCommands: true }, 7_000 + 30_000);
      expect(early.run.deploymentRunStatus).toBe('DEPLOYING');
      sim.clock.advance(15_000);
      const run = obj(await api('GET', `${RUNS}/${early.runUid}`));

      expect(run.deploymentRunStatus).toBe('DEPLOY_COMPLETED');
      expect(statusOf(run, hq)).toMatchObject({
        status: 'DONE',
        completionStatus: {
          message: expect.stringContaining('active connections through the device were dropped'),
        },
      });
      expect(str((await configs(hq)).configOnDevice)).toContain('nameif sensors');
      expect((await device(hq)).configState).toBe('SYNCED');
    });
  });

  describe('refusals', () => {
    it('refuses more than 50 devices, duplicates, unknown devices and non-ASAs', async () => {
      const many = Array.from(
        { length: 51 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      expect((await api('POST', `${ASAS}/deploy`, { body: { deviceUids: many } })).status).toBe(400);
      expect((await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq, hq] } })).status).toBe(400);
      const ftd = sim.deviceUid('ftd-edge-01');
      const refused = await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq, ftd] } });
      expect(refused.status).toBe(400);
      expect((obj(refused).details as Record<string, unknown>)[ftd]).toMatchObject({
        message: 'is not an ASA',
      });
    });

    it('refuses a device already being deployed, and read-only users', async () => {
      await deleteVlan20();
      expect((await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq] } })).status).toBe(202);
      expect((await api('POST', `${ASAS}/deploy`, { body: { deviceUids: [hq] } })).status).toBe(400);
      const readOnly = await api('POST', `${ASAS}/${hq}/read`, { token: 'sim-read-only' });
      expect(readOnly.status).toBe(403);
    });

    it('answers 404 for unknown runs and devices outside the run', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await api('GET', `${RUNS}/${unknown}`)).status).toBe(404);
      const { runUid } = await deploy({ deviceUids: [hq] });
      expect(
        (await api('GET', `${RUNS}/${runUid}/devices/${sim.deviceUid('asa-dc-03')}/changes`)).status,
      ).toBe(404);
    });
  });
});
