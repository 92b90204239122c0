// The access benchmark's instruments: clones of asa-dc-03 carry its interfaces and policy under UIDs of
// their own, and the SCC proxy says which device each call was about, including calls that name none
// (a transaction read, learned from the answer that started it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneAsas } from '../../bench/support/asaClones.js';
import { type SccProxy, sccOperationOf, startSccProxy } from '../../bench/support/sccProxy.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

describe('access benchmark instruments', () => {
  let sim: SimulatorHandle;
  let proxy: SccProxy;
  let scc: SccClient;
  let names: string[];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    names = cloneAsas(sim, 'asa-dc-03', 3, 'asa-acc');
    const devices = new Map(names.map((name) => [sim.deviceUid(name).toLowerCase(), name]));
    proxy = await startSccProxy(sim.url, devices, sccOperationOf());
    scc = createSccClient({ baseUrl: proxy.url, token: sim.tokens.superAdmin, profile: 'default' });
  });
  afterAll(async () => {
    await scc.close();
    await proxy.stop();
    await sim.stop();
  });

  const rulesOf = async (name: string) =>
    (await scc.lookups.accessRules({ q: `entityUid:${sim.deviceUid(name)}`, limit: 200 })).items ?? [];

  it('clones asa-dc-03 with its rules and interfaces, under UIDs of their own', async () => {
    expect(names).toEqual(['asa-dc-03', 'asa-acc-02', 'asa-acc-03']);
    const origin = await rulesOf('asa-dc-03');
    const clone = await rulesOf('asa-acc-03');
    expect(origin.length).toBeGreaterThan(3);
    expect(clone.map((r) => r.ruleConfigurationText)).toEqual(origin.map((r) => r.ruleConfigurationText));
    expect(clone.map((r) => r.uid)).not.toContain(origin[0]?.uid);
    const { data } = await scc.call('getAsaPhysicalInterfaces', {
      path: { deviceUid: sim.deviceUid('asa-acc-02') },
    });
    expect((data.items ?? []).map((i) => i.name).sort()).toContain('outside');
  });

  it('says which device a call was about, from its path, query or body, and from what SCC answered', async () => {
    const from = proxy.calls.length;
    const uid = sim.deviceUid('asa-acc-02').toLowerCase();
    await scc.call('getDevice', { path: { deviceUid: uid } });
    await rulesOf('asa-acc-03');
    const started = await scc.lookups.executeCli({ deviceUids: [uid], script: 'show version' });
    await scc.transactions.get(started.transactionUid ?? '');
    await scc.call('getTenantSettings', {});
    const calls = proxy.calls.slice(from).map((c) => [c.operation, c.device]);
    expect(calls).toEqual([
      ['getDevice', uid],
      ['listAccessRules', sim.deviceUid('asa-acc-03').toLowerCase()],
      ['executeCliCommand', uid],
      // The transaction names no device: the proxy learned it from executeCliCommand's answer.
      ['getTransaction', uid],
      ['getTenantSettings', undefined],
    ]);
  });
});
