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

describe('tracking VPN client upgrade runs', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  const cases = [
    {
      status: 'DONE',
      devices: ['asa-hq-01'],
      version: '5.1.8.105',
      name: 'hq upgrade',
      lines: ['• asa-hq-01: SUCCESS'],
    },
    {
      status: 'DONE_WITH_DEVICE_WARNINGS',
      devices: ['asa-dc-03'],
      version: '5.1.8.105',
      name: 'dc upgrade',
      lines: ['• asa-dc-03: CLEANUP_FAILED — Old image could not be deleted from disk0: file in use'],
    },
    {
      status: 'DONE_WITH_DEVICE_ERRORS',
      devices: ['asa-hq-01', 'asa-branch-02'],
      version: '5.0.05040',
      name: 'two sites',
      lines: ['• asa-hq-01: SUCCESS', '• asa-branch-02: FAILED — No CLI result received for device'],
    },
    {
      status: 'ERROR',
      devices: ['asa-hq-01'],
      version: '5.1.8.105',
      name: 'bound to fail',
      lines: ['• asa-hq-01: FAILED — Image upload to the device failed'],
    },
  ];

  it.each(cases)(
    'ends $status: one progress message edited along the way, then a reply with every device',
    async (c) => {
      const { workers, clients } = await h.start();
      const tx = await clients.get('default').secureClient.triggerAsaUpgrade({
        deviceUids: c.devices.map((name) => h.sim.deviceUid(name)),
        version: c.version,
        name: c.name,
      });
      const where = thread();

      await workers.jobs.tracker.follow(
        { kind: 'upgradeRun', transactionUid: String(tx.transactionUid), label: `upgrade ${c.name}` },
        where,
      );
      const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 8_000);

      expect(text(reply)).toMatch(new RegExp(`^<@U0ALICE> \\*upgrade ${c.name}\\*: upgrade \\*${c.name}\\*`));
      expect(text(reply)).toContain(`(${c.status}).`);
      for (const line of c.lines) expect(text(reply)).toContain(line);
      const posts = postsIn(h.slack, where);
      expect(posts.map(eventType)).toEqual(['fwbot_status', 'fwbot_outcome']);
      const statusTs = String(h.slack.callsTo('chat.update')[0]?.args.ts);
      const updates = h.slack.callsTo('chat.update').filter((call) => call.status === 200);
      expect(updates.length).toBeGreaterThan(1);
      expect(updates.every((call) => call.args.ts === statusTs)).toBe(true);
      // The progress message ends showing the end, not a step in the middle.
      const shown = h.slack.messages().get(`${where.channelId}/${statusTs}`);
      expect(String(shown?.text)).toContain(c.status === 'ERROR' ? 'error' : '100%');
      expect(String(shown?.text)).toContain(c.status.toLowerCase().replace(/_/g, ' '));
    },
  );

  it('shows the current step and the whole run, whose percentage never falls back', async () => {
    const { workers, clients } = await h.start();
    const tx = await clients.get('default').secureClient.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-hq-01')],
      version: '5.1.8.105',
      name: 'watch the steps',
    });
    const where = thread();
    await workers.jobs.tracker.follow(
      { kind: 'upgradeRun', transactionUid: String(tx.transactionUid), label: 'steps' },
      where,
    );

    await driveUntil(h.sim, clients, finalReply(h.slack, where), 4_000);

    const texts = h.slack.callsTo('chat.update').map((call) => String(call.args.text));
    expect(
      texts.some((t) => /: step 6 of 14, uploading images \d{1,3}%; overall \d{1,2}%, 1 device\./.test(t)),
    ).toBe(true);
    expect(texts.some((t) => t.includes('step 5 of 14, validating ra vpn slot conflicts'))).toBe(true);
    const overall = texts.flatMap((t) => /overall (\d+)%/.exec(t)?.[1] ?? []).map(Number);
    expect(overall.length).toBeGreaterThan(3);
    expect(overall).toEqual([...overall].sort((a, b) => a - b));
    expect(overall.at(-1)).toBe(100);
  });
});
