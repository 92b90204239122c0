// SCC's change requests, read: the tenant's list, and one request with the changes SCC's change log ties to
// it (a deploy whose description names an open change request, as fwbot writes it for `--ticket`).
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { useSimulator } from './harness.js';

describe('change requests', () => {
  const h = useSimulator();
  const text = async (command: string) => renderText((await h.run(command)).view);
  const admin = async (path: string, body: unknown) => {
    const answer = await fetch(`${h.sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status, path).toBeLessThan(300);
  };

  it('lists the tenant’s change requests and shows one with the changes tied to it', async () => {
    const client = h.client();
    await client.governance.createChangeRequest({ name: 'CHG0000001', description: 'rename inside' });
    await client.governance.createChangeRequest({ name: 'CHG0000002', description: 'new VLAN' });
    await admin('/_sim/devices/asa-hq-01/stage', { description: 'under a change request' });
    await client.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')], description: 'CHG0000001: rename inside' },
    });
    h.sim.clock.advance(5 * 60_000);

    const listed = await text('change-requests');
    expect(listed).toContain('CHG0000001');
    expect(listed).toContain('CHG0000002');
    expect(await text('change-requests 0002')).not.toContain('CHG0000001');

    const shown = await text('change-requests show CHG0000001');
    expect(shown).toContain('Change request CHG0000001');
    expect(shown).toMatch(/Changes tied to it in SCC’s change log \(\d+\)/);
    expect(shown).toContain('asa-hq-01');
    expect(await text('change-requests show CHG0000002')).toContain('ties no change to it yet');
  });

  it('says in one sentence that a name or UUID names no change request', async () => {
    await expect(h.run('change-requests show CHG9999999')).rejects.toThrow(/No change request is named/);
    await expect(h.run('change-requests show 7131daad-e813-4b8f-8f42-be1e241e8cdb')).rejects.toThrow(
      /No change request has the UUID/,
    );
  });
});
