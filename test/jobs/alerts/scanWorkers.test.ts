// The alert scan as the workers run it: a subscription made through the jobs' store gets its profile a
// scheduler, the scan finds a device going offline, and the incident desk posts it in the channel.
import { describe, expect, it } from 'vitest';
import { stripSentinels } from '../../../src/render/mrkdwn.js';
import { type Harness, useHarness } from '../support/harness.js';

describe('the alert scan in the workers', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('scans a profile once it has a subscription, and the desk tells the channel', async () => {
    const { workers } = await h.start();
    await workers.jobs.alerts.subscriptions.subscribe({
      channelId: 'C0NETOPS01',
      profile: 'default',
      kinds: ['connectivity'],
      scope: { kind: 'profile' },
      createdBy: 'U0ADMIN',
    });
    // The baseline: once a scan has read the list, what is offline then is not news.
    const scanned = () =>
      new Promise<void>((resolve) => {
        const onCall = (event: { operationId: string }) => {
          if (event.operationId !== 'getDevices') return;
          h.clients.calls.off('call', onCall);
          resolve();
        };
        h.clients.calls.on('call', onCall);
      });
    await scanned();
    await scanned();
    const record = h.sim.state.devices.get(h.sim.deviceUid('asa-branch-02'));
    if (!record) throw new Error('the seed has asa-branch-02');
    record.device.connectivityState = 'UNREACHABLE';

    const posted = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.channel === 'C0NETOPS01' && call.status === 200,
      20_000,
    );
    expect(stripSentinels(JSON.stringify(posted.args))).toContain('asa-branch-02 is UNREACHABLE');
  }, 30_000);
});
