// How answers reach people when Slack or the output gets in the way: Slack answering 429 to
// chat.postMessage (the announcement waits and is posted once), and device output too long for a
// message (uploaded as a file into the requester's direct messages, never into the channel).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, CHANNEL, type Harness, startHarness, USERS } from './support/harness.js';

describe('delivery', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
    h.tracker.follows.length = 0;
  });

  it('waits out a Slack 429 on chat.postMessage and announces once', async () => {
    h.slack.rateLimit('chat.postMessage', 1, 1);
    await h.command('tenants mcd enable globex-apj', { userId: USERS.operator });
    const posted = await h.slack.waitFor((c) => c.method === 'chat.postMessage' && c.status === 200, 10_000);
    await h.tracker.until(1);
    const attempts = h.slack.callsTo('chat.postMessage');
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect(posted.at - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    const [key] = [...h.slack.messages().keys()];
    expect(h.tracker.follows[0]?.thread.threadTs).toBe(key?.split('/')[1]);
    expect(
      h.sim.requestLog.list({ operationId: 'enableMulticloudDefenseForTenantInMspPortal' }),
    ).toHaveLength(1);
  });

  it('uploads device output too long for a message into the requester’s direct messages', async () => {
    const { fmc } = h.sim.state;
    for (let i = 0; i < 80; i += 1) {
      fmc.networks.push({
        id: `net-${i}`,
        name: `lab-network-${i}`,
        type: 'Network',
        value: `10.${i}.0.0/16`,
      });
    }
    const link = `/api/fmc_config/v1/domain/${fmc.domainUid}/object/networks?limit=1000&expanded=true`;
    const { responseUrl } = await h.command(`gateway run cdfmc-acme GET ${link}`, { userId: USERS.operator });
    await h.sim.untilParked(1);
    h.sim.clock.advance(60_000);
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    expect(blocksText(reply.args)).toMatch(
      /Full output \(\d+ lines, \d+ KB\) attached as `.+` in your direct messages with fwbot\./,
    );
    const opened = await h.slack.waitFor((c) => c.method === 'conversations.open');
    expect(opened.args.users).toBe(USERS.operator);
    const upload = await h.slack.waitFor((c) => c.method === 'files.upload');
    expect(Number(upload.args.bytes)).toBeGreaterThan(3000);
    const complete = await h.slack.waitFor((c) => c.method === 'files.completeUploadExternal');
    expect(String(complete.args.channel_id)).toMatch(/^D/);
    expect(complete.args.channel_id).not.toBe(CHANNEL);
  });
});

describe('delivery where the bot is not a member', () => {
  const OUTSIDE = 'C0NOTMEMBER';
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ notMemberOf: [OUTSIDE] });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('announces through response_url instead and says why no thread follows', async () => {
    const { responseUrl } = await h.command('tenants mcd enable globex-apj', {
      userId: USERS.operator,
      channelId: OUTSIDE,
    });
    const announced = await h.reply(responseUrl, 0);
    expect(announced.args.response_type).toBe('in_channel');
    expect(blocksText(announced.args)).toContain(`<@${USERS.operator}>`);
    const note = await h.reply(responseUrl, 1);
    expect(note.args.response_type).toBe('ephemeral');
    expect(blocksText(note.args)).toContain('fwbot is not a member of this channel');
    expect(h.tracker.follows).toEqual([]);
  });
});
