// The whole change workflow through Bolt, with nothing standing in for fwbot's own parts: signed requests
// into the real app, the approvals in Redis, the real tracking workers following the deploy, the simulator
// staging the change and deploying it. A deletion approved in Slack ends on the device.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: a deletion approved in Slack ends on the device', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const ask = (text: string, user: string = USERS.alice) =>
    driving(env.driver.ask(env.bot.eventsUrl, text, user));

  it('delete → staged → preview → deploy approval → DEPLOY_COMPLETED → SYNCED, Vlan20 gone from the device', async () => {
    const hq = env.sim.deviceUid('asa-hq-01');
    const deleteCard = await ask('interfaces delete asa-hq-01 iot');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deleteCard));
    const staged = await env.driver.threadReply(deleteCard, (t) => t.includes('staged the deletion'));
    expect(staged).toMatch(
      /A deploy of asa-hq-01 would now push \*1 staged change\*.*interface Vlan20 \(removed\)/,
    );
    const { data: before } = await env.bot.scc.call('getDevice', { path: { deviceUid: hq } });
    expect(before.configState).toBe('NOT_SYNCED');

    const preview = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'changes asa-hq-01', USERS.carol))).blocks,
    );
    expect(preview).toContain('no interface Vlan20');

    const card = await ask('deploy asa-hq-01');
    expect(textOf(card.blocks)).toContain('no interface Vlan20');
    expect(textOf(card.blocks)).toMatch(
      /<@U0ALICE> deleted VLAN interface iot \(Vlan20\), approved by <@U0BOB>/,
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));

    // The real tracking workers follow the run and post the final reply in the card's thread.
    const reply = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /deployed:|deploy failed/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );
    const final = String(reply.args.text);
    expect(final).toMatch(/deploy to asa-hq-01\*: deployed: the changes are on the devices now/);
    expect(final).toContain('• asa-hq-01: DONE');
    expect(final).toMatch(/`\/fw deployments show [0-9a-f-]{36}`/);

    const { data: after } = await env.bot.scc.call('getDevice', { path: { deviceUid: hq } });
    expect(after.configState).toBe('SYNCED');
    const { data: config } = await env.bot.scc.call('getAsaConfiguration', { path: { deviceUid: hq } });
    expect(config.configOnDevice).not.toMatch(/^interface Vlan20$/m);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1);
  });
});
