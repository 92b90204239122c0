// A change staged on an ASA: its thread is told at once how many commands a deploy would now run, and, if
// the device is still not deployed after the reminder time (the test schedule's 200 ms), reminded once
// that traffic is unchanged; a device deployed (or never changed) by then gets nothing. The waits are
// delayed jobs in Redis, so they survive restarts.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followedId } from '../../src/follow/index.js';
import { normalisePrefix, RedisKeys, trackJobId } from '../../src/redis/keys.js';
import { redisUrl } from '../support/testRedis.js';
import {
  driveUntil,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('reminding of staged changes', () => {
  let h: Harness;
  let redis: Redis;
  useHarness((created) => {
    h = created;
  });
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('reminds once when the device is still not deployed, and says nothing when it is in sync', async () => {
    const { workers, clients, prefix } = await h.start();
    const scc = clients.get('default');
    const hq = h.sim.deviceUid('asa-hq-01');
    const vlan20 = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === hq && i.hardwareName === 'Vlan20',
    );
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid: hq, interfaceUid: String(vlan20?.uid) } });
    const staged = thread();
    const synced = thread();
    const stagedAt = Date.now();
    await workers.jobs.tracker.follow(
      {
        kind: 'staged',
        deviceUid: hq,
        deviceName: 'asa-hq-01',
        stagedAt,
        label: 'deletion of iot (Vlan20) on asa-hq-01',
      },
      staged,
    );
    const branch = {
      kind: 'staged' as const,
      deviceUid: h.sim.deviceUid('asa-branch-02'),
      deviceName: 'asa-branch-02',
      stagedAt,
      label: 'a change on asa-branch-02',
    };
    await workers.jobs.tracker.follow(branch, synced);

    const reminder = await driveUntil(h.sim, clients, finalReply(h.slack, staged), 1_000);
    expect(text(reminder)).toMatch(
      /^<@U0ALICE> \*deletion of iot \(Vlan20\) on asa-hq-01\*: still only staged: asa-hq-01 has not been deployed/,
    );
    expect(text(reminder)).toContain('`/fw deploy asa-hq-01`');

    const keys = new RedisKeys(normalisePrefix(prefix));
    const settled = keys.outcome(trackJobId('default', 'staged', followedId(branch)));
    await vi.waitFor(async () => expect(await redis.get(settled)).not.toBeNull(), { timeout: 10_000 });
    expect(postsIn(h.slack, synced)).toEqual([]);
    // Right after the change, how many commands a deploy would now run; later, the one reminder.
    const posts = postsIn(h.slack, staged).map(text);
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatch(
      /asa-hq-01 now has 1 pending command \(a deploy runs all of them, whoever staged them\)/,
    );
  });

  it('counts nothing again when the change’s own message said what is staged, and still reminds', async () => {
    const { workers, clients } = await h.start();
    const scc = clients.get('default');
    const dc = h.sim.deviceUid('asa-dc-03');
    const storage = [...h.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === dc && i.name === 'storage',
    );
    await scc.call('deleteAsaVlanInterface', { path: { deviceUid: dc, interfaceUid: String(storage?.uid) } });
    const since = h.sim.requestLog.total;
    const counted = thread();
    await workers.jobs.tracker.follow(
      {
        kind: 'staged',
        deviceUid: dc,
        deviceName: 'asa-dc-03',
        stagedAt: Date.now(),
        label: 'deletion of storage on asa-dc-03',
        counted: true,
      },
      counted,
    );
    const reminder = await driveUntil(h.sim, clients, finalReply(h.slack, counted), 1_000);
    expect(text(reminder)).toContain('still only staged: asa-dc-03 has not been deployed');
    // One post, the reminder; and no calculation was asked of SCC for it.
    expect(postsIn(h.slack, counted)).toHaveLength(1);
    const calls = h.sim.requestLog.list({ since }).map((e) => e.operationId);
    expect(calls).not.toContain('calculateAsaCommandsToApplyPendingChanges');
    expect(calls).toContain('getDevice');
  });
});
