// Following a deploy to ASAs with the real tracking workers against the simulator: the run is found by the
// deploy's transaction, one progress message is edited as it goes, and the reply names each device's
// result (SKIPPED for a device with nothing staged).
import { describe, expect, it } from 'vitest';
import {
  driveUntil,
  eventType,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('tracking deploys', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  function vlanUid(device: string, hardwareName: string): string {
    const deviceUid = h.sim.deviceUid(device);
    const found = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.hardwareName === hardwareName,
    );
    if (!found) throw new Error(`no ${hardwareName} on ${device}`);
    return found.uid;
  }

  it('reports the devices deployed and the ones with nothing pending, after one progress message', async () => {
    const { workers, clients } = await h.start();
    const scc = clients.get('default');
    const hq = h.sim.deviceUid('asa-hq-01');
    await scc.call('deleteAsaVlanInterface', {
      path: { deviceUid: hq, interfaceUid: vlanUid('asa-hq-01', 'Vlan20') },
    });
    const { data: tx } = await scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [hq, h.sim.deviceUid('asa-dc-03')], description: 'remove iot' },
    });
    const where = thread();

    await workers.jobs.tracker.follow(
      {
        kind: 'deployment',
        transactionUid: String(tx.transactionUid),
        label: 'deploy to asa-hq-01, asa-dc-03',
      },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 8_000);

    expect(text(reply)).toMatch(/^<@U0ALICE> \*deploy to asa-hq-01, asa-dc-03\*: deployed/);
    expect(text(reply)).toContain('• asa-hq-01: DONE');
    expect(text(reply)).toContain('• asa-dc-03: SKIPPED (nothing was pending)');
    expect(text(reply)).toMatch(/`\/fw deployments show [0-9a-f-]{36}`/);
    // The Cancel… offer (SCC marks a running deploy cancellable) comes first; it takes the channel's post
    // pace, so the one progress message may be skipped; the outcome comes last, once.
    const posted = postsIn(h.slack, where).map(eventType);
    expect(posted[0]).toBe('fwbot_note');
    expect(posted.filter((type) => type === 'fwbot_status').length).toBeLessThanOrEqual(1);
    expect(posted.filter((type) => type === 'fwbot_outcome')).toEqual(['fwbot_outcome']);
    expect(posted.at(-1)).toBe('fwbot_outcome');
    const { data: config } = await scc.call('getAsaConfiguration', { path: { deviceUid: hq } });
    expect(config.configOnDevice).not.toMatch(/^interface Vlan20$/m);
    const { data: device } = await scc.call('getDevice', { path: { deviceUid: hq } });
    expect(device.configState).toBe('SYNCED');
  });

  it('reports a device that fails, by name, and says the deploy failed', async () => {
    const { workers, clients } = await h.start();
    const scc = clients.get('default');
    const hq = h.sim.deviceUid('asa-hq-01');
    await scc.call('deleteAsaVlanInterface', {
      path: { deviceUid: hq, interfaceUid: vlanUid('asa-hq-01', 'Vlan20') },
    });
    const offline = await fetch(`${h.sim.url}/_sim/devices/asa-hq-01/connectivity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connectivityState: 'UNREACHABLE' }),
    });
    expect(offline.status).toBe(200);
    const { data: tx } = await scc.call('deployChangesToMultipleAsaDevices', { body: { deviceUids: [hq] } });
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'deployment', transactionUid: String(tx.transactionUid), label: 'deploy to asa-hq-01' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 8_000);

    expect(text(reply)).toMatch(/\*deploy to asa-hq-01\*: the deploy failed/);
    expect(text(reply)).toContain('• asa-hq-01: ERROR');
    const { data: device } = await scc.call('getDevice', { path: { deviceUid: hq } });
    expect(device.configState).toBe('NOT_SYNCED');
  });
});
