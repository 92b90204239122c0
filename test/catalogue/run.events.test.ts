// SCC's change log and audit log against the simulator: changes made through fwbot (as the token's SCC
// user) and by another SCC user appear with who, when, the diff and the commands; a window and a query
// become the parameters SCC takes; a token that may not read the audit log gets SCC's refusal as a sentence.
import { describe, expect, it } from 'vitest';
import { decodePageState } from '../../src/render/paging.js';
import { numberedButtons, renderText } from '../../src/render/text.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

describe('changelog and audit-log', () => {
  const h = useSimulator();
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(h.sim.clock, work, { pauseMs: 10 });
  const run = (text: string, token?: string) => driving(h.run(text, token ? { token } : {}));
  /** The query string of the last request of an operation, as SCC received it. */
  const lastQuery = (operationId: string) =>
    new URLSearchParams(h.sim.requestLog.list({ operationId }).at(-1)?.query ?? '');

  /** fwbot stages an MTU change on asa-hq-01; another SCC user (the admin's token) stages one on asa-branch-02. */
  async function stageTwoChanges(): Promise<void> {
    await run('interfaces edit asa-hq-01 inside --mtu 1400');
    h.sim.clock.advance(60_000);
    const branch = h.sim.deviceUid('asa-branch-02');
    const staff = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === branch && i.name === 'staff',
    );
    await h.client('sim-admin').call('modifyAsaSubInterface', {
      path: { deviceUid: branch, interfaceUid: String(staff?.uid) },
      body: { mtu: 1300 },
    });
  }

  it('shows a device’s change log: who, when, what, and the diff and commands', async () => {
    await stageTwoChanges();
    const outcome = await run('changelog asa-hq-01');
    h.golden('changelog', outcome);
    expect(lastQuery('getChangelogs').get('q')).toBe(`entityUid:${h.sim.deviceUid('asa-hq-01')}`);
    const text = renderText(outcome.view);
    expect(text).toContain('mtu inside 1400');
    expect(text).not.toContain('asa-branch-02');
  });

  it('shows the whole tenant’s, each change with its device and user', async () => {
    await stageTwoChanges();
    const outcome = await run('changelog');
    h.golden('changelog.tenant', outcome);
    const text = renderText(outcome.view);
    expect(text).toContain('asa-hq-01');
    expect(text).toContain('asa-branch-02');
    expect(lastQuery('getChangelogs').get('q')).toBeNull();
    // `tenant` names the same thing (only the share button's command differs).
    const named = await run('changelog tenant');
    expect(named.view.blocks.slice(0, -1)).toEqual(outcome.view.blocks.slice(0, -1));
  });

  it('opens one change log by its UUID', async () => {
    await stageTwoChanges();
    const [log] = [...h.sim.state.changelogs.values()];
    const outcome = await run(`changelog ${log?.uid}`);
    expect(renderText(outcome.view)).toContain(`Change log of ${log?.entityName}`);
    await expect(run('changelog 3fa85f64-5717-4562-b3fc-2c963f66afa6')).rejects.toThrow(
      'No device and no change log has the UUID 3fa85f64-5717-4562-b3fc-2c963f66afa6.',
    );
  });

  it('sends SCC’s own window for 15m, a range for 2d, and free text as searchText', async () => {
    await stageTwoChanges();
    const recent = await run('changelog asa-branch-02 staff --since 15m');
    expect(Object.fromEntries(lastQuery('getChangelogs'))).toMatchObject({
      timeRange: '15m',
      searchText: 'staff',
      q: `entityUid:${h.sim.deviceUid('asa-branch-02')}`,
    });
    expect(renderText(recent.view)).toContain('mtu staff 1300');
    await run('changelog tenant --since 2d');
    const sent = lastQuery('getChangelogs');
    expect(sent.get('timeRange')).toBeNull();
    expect(sent.get('q')).toMatch(/^lastEventDate:\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ TO \*]$/);
  });

  it('pages through change logs ten at a time with buttons that carry the command', async () => {
    // Twelve completed change logs of asa-dc-03, one event each, a minute apart.
    const dc = h.sim.deviceUid('asa-dc-03');
    // The demo token's tenant is the MSP portal's.
    const tenantUid = h.sim.state.portalUid;
    const start = h.sim.clock.now();
    for (let n = 0; n < 12; n += 1) {
      const uid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      h.sim.state.changelogs.set(uid, {
        uid,
        tenantUid,
        entityUid: dc,
        entityName: 'asa-dc-03',
        status: 'COMPLETED',
        lastEventDate: start - n * 60_000,
        events: [
          {
            action: 'UPDATE',
            username: 'ops.admin@acme-msp.example',
            date: start - n * 60_000,
            description: `change ${n}`,
          },
        ],
      });
    }
    const first = await run('changelog asa-dc-03');
    expect(renderText(first.view)).toContain('Change log of asa-dc-03: 1–10 of 12');
    const next = numberedButtons(first.view).find((b) => b.label === 'Next page');
    const state = decodePageState(next?.action?.value ?? '');
    expect(state).toEqual({
      operationId: 'changelog',
      raw: { device: 'asa-dc-03', offset: '10' },
      offset: 10,
    });
    const second = await catalogue.get('changelog')?.execute(h.context(), state.raw);
    const text = renderText(second?.view ?? first.view);
    expect(text).toContain('11–12 of 12');
    expect(text).toContain('change 11');
    expect(text).not.toContain('change 9');
  });

  it('suggests searching the tenant when the first word names no device', async () => {
    await expect(run('changelog Vlan20')).rejects.toThrow(
      'No device named “Vlan20” in the inventory (searched device names containing it). To search the change log of every device for it: `/fw changelog tenant Vlan20`.',
    );
  });

  it('says so when nothing is recorded', async () => {
    const outcome = await run('changelog asa-dc-03');
    expect(renderText(outcome.view)).toContain('no changes recorded');
  });

  it('shows the audit log newest first, narrowed by user name', async () => {
    const outcome = await run('audit-log');
    h.golden('audit-log', outcome);
    expect(lastQuery('getAuditLogs').getAll('sort')).toEqual(['eventTime:DESC']);
    const narrowed = await run('audit-log super --since 2026-01-01');
    expect(Object.fromEntries(lastQuery('getAuditLogs'))).toMatchObject({
      searchText: 'super',
      q: 'eventTime:[2026-01-01T00:00:00Z TO *]',
    });
    expect(renderText(narrowed.view)).toContain('no events recorded');
    await run('audit-log super --since 1h');
    expect(Object.fromEntries(lastQuery('getAuditLogs'))).toMatchObject({
      searchText: 'super',
      timeRange: '1h',
    });
  });

  it('gives SCC’s refusal of the audit log as a sentence with its errorCode and errorMsg', async () => {
    await expect(run('audit-log', 'sim-read-only')).rejects.toThrow(
      /^Could not read SCC’s audit log\. SCC refused the request \(403 FORBIDDEN\): .+/,
    );
  });
});
