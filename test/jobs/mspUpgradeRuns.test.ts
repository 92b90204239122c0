// Following a Secure Client upgrade across managed tenants with the real tracking workers against the
// simulator: the MSP run is found by its transaction, one progress message per thread is edited in place
// (with per-tenant counts), and the final reply gives each device's result grouped by tenant.
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

describe('tracking upgrade runs across tenants', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  async function upgrade(devices: string[], version: string, name: string): Promise<string> {
    const { data } = await h.clients.get('default').call('upgradeMspManagedAsaSecureClientPackages', {
      body: { deviceUids: devices.map((d) => h.sim.deviceUid(d)), version, name },
    });
    return String(data.transactionUid);
  }

  it('edits one progress message tenant by tenant, then replies with every device grouped by tenant', async () => {
    const { workers, clients } = await h.start();
    const transactionUid = await upgrade(
      ['nw-asa-hq', 'globex-asa-01', 'failing-asa-01'],
      '5.1.8.105',
      'june',
    );
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'mspUpgradeRun', transactionUid, label: 'upgrade across tenants' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 8_000);

    const said = text(reply);
    expect(said).toMatch(
      /^<@U0ALICE> \*upgrade across tenants\*: upgrade \*june\* to Secure Client 5\.1\.8\.105/,
    );
    expect(said).toContain('finished with errors on some devices (DONE_WITH_DEVICE_ERRORS).');
    expect(said).toContain('*northwind-us*\n  • nw-asa-hq: SUCCESS');
    expect(said).toContain('*globex-apj*\n  • globex-asa-01: SUCCESS');
    expect(said).toMatch(
      /\*failing-labs-in\*[^\n]*\n {2}• failing-asa-01: FAILED — No CLI result received for device/,
    );
    expect(said).toMatch(/`\/fw msp vpn run [0-9a-f-]{36}`/);

    expect(postsIn(h.slack, where).map(eventType)).toEqual(['fwbot_status', 'fwbot_outcome']);
    const updates = h.slack.callsTo('chat.update').filter((call) => call.status === 200);
    const statusTs = String(updates[0]?.args.ts);
    expect(updates.every((call) => call.args.ts === statusTs)).toBe(true);
    const texts = updates.map((call) => String(call.args.text));
    expect(
      texts.some((t) =>
        /across 3 tenants: step \d of 3, [a-z ]+( \d{1,3}%)?; overall \d{1,2}%, 3 devices\./.test(t),
      ),
    ).toBe(true);
    const overall = texts
      .flatMap((t) => /across 3 tenants: .*?overall (\d+)%/.exec(t)?.[1] ?? [])
      .map(Number);
    expect(overall).toEqual([...overall].sort((a, b) => a - b));
    expect(texts.some((t) => /• northwind-us: 1 device, \d finished, /.test(t))).toBe(true);
    const shown = h.slack.messages().get(`${where.channelId}/${statusTs}`);
    expect(String(shown?.text)).toContain('done with device errors');
  });

  it('says which devices failed validation when SCC refuses the run after accepting it', async () => {
    const { workers, clients } = await h.start();
    // SCC validates devices asynchronously: an unreachable device ends the whole run in ERROR.
    const transactionUid = await upgrade(['nw-asa-hq', 'globex-asa-02'], '5.1.8.105', 'too eager');
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'mspUpgradeRun', transactionUid, label: 'eager upgrade' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 2_000);

    const said = text(reply);
    expect(said).toContain('failed (ERROR). SCC says: 1 device failed validation');
    expect(said).toContain('globex-asa-02: FAILED — Device is UNREACHABLE, not ONLINE');
    expect(said).toContain('nw-asa-hq: FAILED — Not upgraded: other devices of the run failed validation');
  });
});
