// Device holds through Slack (src/dispatch/holds.ts applied by the one dispatcher): with asa-hq-01 held for a
// deploy in real Redis, signed /fw commands into the real Bolt app that would change it (an interface edit,
// a deploy asked for) are refused in one sentence naming the device, the holder, why and until when, and
// nothing reaches SCC or an approver; a device not held takes changes; `/fw holds` lists the hold; once the
// hold lapses (its holder never released it) the device takes changes again.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisDeviceHolds } from '../../src/jobs/deviceHolds.js';
import { stripSentinels } from '../../src/model/marks.js';
import { normalisePrefix, RedisKeys } from '../../src/redis/keys.js';
import { stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import { blocksText, type Harness, startHarness, USERS } from './support/harness.js';

const HOUR = 3_600_000;

describe('device holds through Slack', () => {
  let h: Harness;
  let redis: Redis;
  let holds: RedisDeviceHolds;
  // The operations' clock: far from the machine's, and moved by the test to let the hold lapse.
  let now = Date.parse('2031-03-04T09:00:00Z');

  beforeAll(async () => {
    redis = connectRedis();
    holds = new RedisDeviceHolds(redis, new RedisKeys(normalisePrefix(uniquePrefix('slack-holds'))));
    h = await startHarness({ services: { holds }, clock: () => now });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  /**
   * `/fw <text>` as the operator; the answer's text as Slack shows it: on the command's response URL (a
   * refusal, a read), or posted in the channel (a change's announcement).
   */
  async function ask(text: string, userId: string = USERS.operator): Promise<string> {
    const before = h.slack.calls.length;
    const { responseUrl } = await h.command(text, { userId });
    const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
    const reply = await driveClock(
      h.sim.clock,
      h.slack.waitFor(
        (call) =>
          (call.method === 'response_url' && call.args.responseUrlId === id) ||
          (call.method === 'chat.postMessage' && h.slack.calls.indexOf(call) >= before),
      ),
    );
    return stripSentinels(`${String(reply.args.text ?? '')}\n${blocksText(reply.args)}`);
  }
  const modifies = () => h.sim.requestLog.list({ operationId: 'modifyAsaPhysicalInterface' }).length;

  it('refuses a change to a held device in one sentence, and takes changes to the others', async () => {
    await holds.take(
      {
        profile: 'default',
        devices: [{ uid: h.sim.deviceUid('asa-hq-01'), name: 'asa-hq-01' }],
        holder: { kind: 'deploy', id: 'ap-0123456789', requesterId: USERS.admin },
        reason: 'deploy to asa-hq-01',
        until: now + 2 * HOUR,
      },
      now,
    );

    const refused = await ask('interfaces edit asa-hq-01 inside --mtu 9000');
    expect(refused).toContain(
      `asa-hq-01 is held by a deploy (request \`ap-0123456789\`, asked by <@${USERS.admin}>) since 2031-03-04 09:00 UTC, until it ends (at the latest 2031-03-04 11:00 UTC): deploy to asa-hq-01; nothing was done. Ask again once it ends (\`/fw holds\` lists what holds which device).`,
    );
    expect(modifies()).toBe(0);

    // A deploy asked for meanwhile is refused before any approver is asked.
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    await stageVlanDeletion(h.sim, scc, 'asa-hq-01', 'Vlan20');
    expect(await ask('deploy asa-hq-01')).toContain('asa-hq-01 is held by a deploy');
    expect(h.gate.requests).toEqual([]);

    // Another device takes changes.
    const other = await ask('interfaces edit asa-branch-02 inside --mtu 9000');
    expect(other).not.toContain('is held by');
    expect(modifies()).toBe(1);

    const listed = await ask('holds', USERS.viewer);
    expect(listed).toContain(`*asa-hq-01* · held by a deploy (request \`ap-0123456789\``);
  });

  it('refuses a change to a device an upgrade from the MSP portal holds: the hold is the device’s, whatever profile took it', async () => {
    await holds.take(
      {
        profile: 'msp-portal',
        devices: [{ uid: h.sim.deviceUid('asa-branch-02'), name: 'asa-branch-02' }],
        holder: { kind: 'upgrade', id: 'ap-msp0000001', requesterId: USERS.admin },
        reason: 'software upgrade of asa-branch-02 to 9.20(2)',
        until: now + HOUR,
      },
      now,
    );
    const refused = await ask('interfaces edit asa-branch-02 inside --mtu 9000');
    expect(refused).toContain(
      `asa-branch-02 is held by a software upgrade (request \`ap-msp0000001\`, asked by <@${USERS.admin}>)`,
    );
    expect(modifies()).toBe(1);
    expect(await holds.release('ap-msp0000001')).toHaveLength(1);
  });

  it('lets the device take changes again once the hold lapses, released or not', async () => {
    now += 2 * HOUR;
    const edited = await ask('interfaces edit asa-hq-01 inside --mtu 9000');
    expect(edited).not.toContain('is held by');
    expect(modifies()).toBe(2);
    expect(await ask('holds', USERS.viewer)).toContain('No device of profile `default` is held');
  });
});
