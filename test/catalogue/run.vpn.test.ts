import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

function packageOf(deviceName: string, fileName: RegExp): string {
  const deviceUid = h.sim.deviceUid(deviceName);
  const found = [...h.sim.state.packages.values()].find(
    (p) => p.deviceUid === deviceUid && fileName.test(p.fileName),
  );
  if (!found) throw new Error(`no package ${fileName} on ${deviceName}`);
  return found.uid;
}

function runNamed(name: string): string {
  const found = [...h.sim.state.upgradeRuns.values()].find((r) => r.name === name);
  if (!found) throw new Error(`no run ${name}`);
  return found.uid;
}

describe('vpn: packages', () => {
  it('lists the packages of an FTD, one with a file name SCC cannot read', async () => {
    h.golden('vpn.packages', await h.run('vpn packages ftd-edge-01'));
  });

  it('lists the packages of an ASA through the ASA operation', async () => {
    await h.run('vpn packages asa-hq-01');
    expect(h.sim.requestLog.list().map((e) => e.operationId)).toContain('getAsaSecureClientPackages');
  });

  it('explains the empty list of an FTD without a remote-access VPN policy', async () => {
    const text = renderText((await h.run('vpn packages ftd-lab-03')).view);
    expect(text).toContain(
      'An FTD lists the packages of its remote-access VPN policy, and it may have no policy.',
    );
  });

  it('shows one package, and says why its version is unknown', async () => {
    const uid = packageOf('ftd-edge-01', /^acme-custom/);
    h.golden('vpn.package', await h.run(`vpn package ftd-edge-01 ${uid}`));
  });

  it('shows an ASA package through the ASA operation', async () => {
    const uid = packageOf('asa-hq-01', /win/);
    const text = renderText((await h.run(`vpn package asa-hq-01 ${uid}`)).view);
    expect(text).toContain('Platform: Windows');
  });

  it('refuses a device that is neither ASA nor FTD', async () => {
    await expect(h.run('vpn packages cdfmc-acme')).rejects.toThrow(
      'cdfmc-acme is a Firewall Management Center; Secure Client is managed on ASAs and threat-defense devices (FTD).',
    );
  });
});

describe('vpn: versions and upgrades', () => {
  it('lists compatible versions per kind when ASAs and FTDs are given together', async () => {
    const outcome = await h.run('vpn versions asa-hq-01 asa-branch-02 ftd-edge-01');
    h.golden('vpn.versions', outcome);
    const ops = h.sim.requestLog.list().map((e) => e.operationId);
    expect(ops).toEqual(
      expect.arrayContaining([
        'getAsaCompatibleSecureClientVersions',
        'getFtdCompatibleSecureClientVersions',
      ]),
    );
  });

  it('starts an upgrade on ASAs and follows its run', async () => {
    const outcome = await h.run('vpn upgrade asa-hq-01 asa-dc-03 --version 5.1.8.105 --name "June rollout"');
    h.golden('vpn.upgrade', outcome);
    expect(outcome.track).toEqual([
      {
        kind: 'upgradeRun',
        transactionUid: expect.any(String),
        label: 'upgrade Secure Client to 5.1.8.105 on 2 devices',
      },
    ]);
  });

  it('starts an upgrade on FTDs through the FTD operation', async () => {
    await h.run('vpn upgrade ftd-edge-01 --version 5.1.8.105');
    expect(h.sim.requestLog.list().map((e) => e.operationId)).toContain('triggerFtdSecureClientUpgrade');
  });

  it('refuses ASAs and FTDs in one run', async () => {
    await expect(h.run('vpn upgrade asa-hq-01 ftd-edge-01 --version 5.1.8.105')).rejects.toThrow(
      'An upgrade run covers ASAs or FTDs, not both: start one for each kind.',
    );
  });

  it('passes on SCC’s reasons when a device cannot take the upgrade', async () => {
    await expect(h.run('vpn upgrade ftd-lab-03 --version 5.1.8.105')).rejects.toThrow(
      /SCC refused the request \(400/,
    );
  });

  it('opens a form without arguments, its devices a menu searching ASAs and FTDs only', () => {
    const { op, modal } = catalogue.parse('vpn upgrade');
    expect(modal).toBe(true);
    const fields = op.modal?.fields;
    if (!Array.isArray(fields)) throw new Error('the upgrade form should be a fixed list of fields');
    const devices = fields.find((f) => f.name === 'device');
    expect(devices).toMatchObject({ input: 'device', multiple: true });
    expect(devices?.options).toBeUndefined();
    expect(devices?.deviceQuery).toBe('deviceType:ASA OR deviceType:*FTD');
  });
});

describe('vpn: runs', () => {
  it('lists upgrade runs, newest first', async () => {
    h.golden('vpn.runs', await h.run('vpn runs'));
  });

  it('shows one run device by device', async () => {
    h.golden('vpn.run', await h.run(`vpn run ${runNamed('ftd-vpn-5-1')}`));
  });

  it('lists the values runs can be searched by', async () => {
    h.golden('vpn.run-fields', await h.run('vpn run-fields'));
  });

  it('searches runs with a Lucene query', async () => {
    const text = renderText((await h.run('vpn runs upgradeRunStatus:DONE')).view);
    expect(text).toContain('quarterly-vpn-refresh');
    expect(text).not.toContain('ftd-canary');
  });
});
