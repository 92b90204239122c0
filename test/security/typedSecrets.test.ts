// A secret typed into a break-glass reason or a deploy's description is redacted everywhere the text is
// shown or kept (issue 34, outside test, attack 3): the approval card showed `password=…` verbatim, twice,
// and the request in Redis kept it, though the card's command line, the audit trail and the log redacted
// it. Now the text is redacted the moment it is read, so the card, its updates and thread, the request in
// Redis, the audit trail, SCC's deployment record and the list of scheduled deploys hold `[REDACTED]`; a
// rejection reason typed into the card's form is checked the same way. Signed requests into a real Bolt app
// with the approvals service on real Redis, the simulator's staging model, a driven clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, dailyWindow, startEnv } from '../approvals/support/env.js';
import { textOf } from '../approvals/support/slackDriver.js';
import { USERS } from '../approvals/support/world.js';
import { driveClock } from '../support/driveClock.js';

const HOUR = 3_600_000;
/** Secrets typed by people, each test its own (what earlier tests kept stays in Redis). */
const REASON_SECRET = 'hunter2-Zq9';
const DESCRIPTION_SECRET = 's3cr3t-Kw7';
const HELD_SECRET = 'held-Xy3';
const REJECTION_SECRET = 'rejected-Pw5';

describe('secrets typed into free text of a governed change', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  beforeAll(async () => {
    // The change window opens three hours from now: a deploy now needs break-glass.
    const opens = Math.floor((Date.now() + 3 * HOUR) / 60_000) * 60_000;
    env = await startEnv({}, { changes: dailyWindow(opens, HOUR) });
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) => env.stage(device, hardwareName);

  /** Every string value in fwbot's Redis keys of this test world: what is kept. */
  async function keptInRedis(): Promise<string> {
    const { redis } = env.bot;
    const parts: string[] = [];
    for (const key of await redis.keys(`${env.prefix}*`)) {
      const type = await redis.type(key);
      if (type === 'string') parts.push(String(await redis.get(key)));
      else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    }
    return parts.join('\n');
  }

  /** Nothing posted to Slack, kept in Redis, or written to SCC's deployment records holds these secrets. */
  async function expectNowhere(...secrets: string[]): Promise<void> {
    const posted = JSON.stringify(env.slack.calls);
    const kept = await keptInRedis();
    const deployed = JSON.stringify([...env.sim.state.deploymentRuns.values()].map((run) => run.description));
    for (const secret of secrets) {
      expect(posted, 'posted to Slack').not.toContain(secret);
      expect(kept, 'kept in Redis').not.toContain(secret);
      expect(deployed, "in SCC's deployment runs").not.toContain(secret);
    }
  }

  it('redacts a break-glass reason and a description on the card, in Redis, the thread, the trail and SCC', async () => {
    await stage('asa-hq-01', 'Vlan10');
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        `deploy asa-hq-01 --break-glass "password=${REASON_SECRET} core switch loop" --description "token: ${DESCRIPTION_SECRET} rollback"`,
        USERS.alice,
      ),
    );
    const shown = textOf(card.blocks);
    expect(shown).toContain('because: password=[REDACTED] core switch loop');
    expect(shown).toContain('token: [REDACTED] rollback');
    await expectNowhere(REASON_SECRET, DESCRIPTION_SECRET);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card));
    await driving(env.bot.tracker.followedIn(card.ts));
    const done = await env.driver.cardUpdate(card, (t) => t.includes('Approved by'));
    expect(textOf(done.blocks)).toContain('password=[REDACTED] core switch loop');
    const records = (await env.bot.approvals.audit.latest(20)).filter((r) => r.approvalId === card.id);
    expect(records.map((r) => r.breakGlass)).toContain('password=[REDACTED] core switch loop');
    await expectNowhere(REASON_SECRET, DESCRIPTION_SECRET);
  });

  it('redacts a break-glass reason in the list of scheduled deploys', async () => {
    await stage('asa-dc-03', 'Vlan100');
    const at = new Date(env.clock() + HOUR).toISOString();
    const card = await driving(
      env.driver.ask(
        env.bot.eventsUrl,
        `deploy asa-dc-03 --at ${at} --break-glass "passwd: ${HELD_SECRET}"`,
        USERS.alice,
      ),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.dave, card));
    await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    const listed = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'deployments scheduled', USERS.alice),
    );
    expect(textOf(listed.blocks)).toContain('passwd: [REDACTED]');
    await expectNowhere(HELD_SECRET);
  });

  it('redacts a secret typed into the reason of a rejection', async () => {
    await stage('asa-branch-02', 'Vlan30');
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'deploy asa-branch-02 --break-glass "outage"', USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'reject', USERS.bob, card));
    await env.driver.submitReason(env.bot.eventsUrl, USERS.bob, `wrong box, secret=${REJECTION_SECRET}`);
    const rejected = await env.driver.cardUpdate(card, (t) => t.includes('Rejected by'));
    expect(textOf(rejected.blocks)).toContain('secret=[REDACTED]');
    await expectNowhere(REJECTION_SECRET);
  });
});
