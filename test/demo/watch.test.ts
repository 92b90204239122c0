// `vpn watch` on the demo's simulator (a real clock, its work many times faster than SCC's): a watch hears
// of the runs that end after it was started and not of one that had ended before, because the times the
// simulator reports and the bot's own now are the same clock.
import { describe, expect, it, vi } from 'vitest';
import { type Harness, nextCall, text, useHarness, watchAnnouncements } from '../jobs/support/harness.js';

describe('vpn watch on a real clock at ×1000', () => {
  let h: Harness;
  useHarness(
    (created) => {
      h = created;
    },
    { sim: { clock: 'real', speed: 1_000 } },
  );

  const announcementsIn = (channel: string) => watchAnnouncements(h.slack, channel);

  it('does not announce a run that ended before the watch started, and announces one that ends after', async () => {
    const { workers, clients } = await h.start();
    const scc = clients.get('default').secureClient;
    const ended = (name: string) =>
      vi.waitFor(
        () => {
          const run = [...h.sim.state.upgradeRuns.values()].find((r) => r.name === name);
          expect(run?.status).toMatch(/^DONE/);
        },
        { timeout: 30_000, interval: 20 },
      );
    await scc.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-hq-01')],
      version: '5.1.8.105',
      name: 'before',
    });
    await ended('before');

    // As `vpn watch` does: the watch starts now, by the bot's clock.
    await workers.jobs.watches.watch({
      channelId: 'C0WATCHREAL',
      profile: 'default',
      createdBy: 'U0ADMIN',
      createdAt: new Date().toISOString(),
    });
    // Two scans begun after the watch: the first has finished by the time the second starts.
    await nextCall(clients, 'getSecureClientUpgradeRuns', 30_000);
    await nextCall(clients, 'getSecureClientUpgradeRuns', 30_000);
    expect(announcementsIn('C0WATCHREAL')).toHaveLength(0);

    const announced = h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.channel === 'C0WATCHREAL' && call.status === 200,
    );
    await scc.triggerAsaUpgrade({
      deviceUids: [h.sim.deviceUid('asa-dc-03')],
      version: '5.1.8.105',
      name: 'after',
    });
    expect(text(await announced)).toContain('*after* to Secure Client 5.1.8.105');
    expect(announcementsIn('C0WATCHREAL').map(text).join('\n')).not.toContain('*before*');
  }, 60_000);
});
