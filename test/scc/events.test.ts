// The events area against the simulator: change logs and audit events read with the generic `call` and
// `paginate` as with client.events, and what the token is.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';

describe('SCC client: change log, audit log, token', () => {
  let sim: SimulatorHandle;
  let scc: SccClient;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    scc = createSccClient({ baseUrl: sim.url, token: sim.tokens.superAdmin, retry: { maxAttempts: 1 } });
  });
  beforeEach(() => sim.reset());
  afterAll(async () => {
    await scc.close();
    await sim.stop();
  });

  /** One staged MTU change on each of two ASAs: two change logs. */
  async function stageOnTwoDevices(): Promise<void> {
    for (const name of ['asa-hq-01', 'asa-branch-02']) {
      const deviceUid = sim.deviceUid(name);
      const vlan = [...sim.state.interfaces.values()].find(
        (i) => i.deviceUid === deviceUid && i.interfaceType === 'VLAN_INTERFACE',
      );
      await scc.call('modifyAsaVlanInterface', {
        path: { deviceUid, interfaceUid: String(vlan?.uid) },
        body: { mtu: 1400 },
      });
    }
  }

  it('pages through every change log with paginate, as the area lists one page', async () => {
    await stageOnTwoDevices();
    const all = [];
    for await (const log of scc.paginate('getChangelogs', { query: { q: 'status:ACTIVE' } }, { pageSize: 1 }))
      all.push(log);
    expect(all.map((log) => log.entityName).sort()).toEqual(['asa-branch-02', 'asa-hq-01']);
    expect(all.every((log) => log.events?.[0]?.username === 'super.admin@acme-msp.example')).toBe(true);

    const page = await scc.events.changelogs({ searchText: 'asa-branch-02', limit: 50 });
    expect(page.items?.map((log) => log.entityName)).toEqual(['asa-branch-02']);
    const uid = page.items?.[0]?.uid ?? '';
    expect((await scc.call('getChangelog', { path: { changelogUid: uid } })).data.uid).toBe(uid);
  });

  it('reads the audit log and the token through the area', async () => {
    const audit = await scc.events.auditLogs({ sort: ['eventTime:DESC'], timeRange: '1h' });
    expect(audit.items ?? []).toEqual([]);
    const logins = await scc.events.auditLogs({ q: 'eventType:USER_LOGGED_IN' });
    expect(logins.items?.[0]?.username).toBe('super.admin@acme-msp.example');
    const token = await scc.events.token();
    expect(token).toMatchObject({ name: 'super.admin@acme-msp.example', roles: ['ROLE_SUPER_ADMIN'] });
  });
});
