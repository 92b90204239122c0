// The MSP's upgrade day through the approval flow: one command reaches several customers' firewalls, so a
// second person approves a card that lists tenants and devices; then exactly one cross-tenant upgrade
// call is made and the run is followed. Signed requests into a real Bolt app, the simulator, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: Secure Client upgrades across tenants', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  it('waits for a second person, then upgrades once and follows the run', async () => {
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      'msp vpn upgrade nw-asa-hq globex-asa-01 --version 5.1.8.105 --name "june"',
      USERS.alice,
    );
    const text = textOf(card.blocks);
    expect(text).toContain('nw-asa-hq');
    expect(text).toContain('globex-asa-01');
    expect(await env.sccCalls('upgradeMspManagedAsaSecureClientPackages')).toBe(0);

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    const followed = await env.bot.tracker.followedIn(card.ts);
    expect(followed.request.kind).toBe('mspUpgradeRun');
    expect(await env.sccCalls('upgradeMspManagedAsaSecureClientPackages')).toBe(1);
  });

  it('refuses the requester as approver (four eyes)', async () => {
    const card = await env.driver.ask(
      env.bot.eventsUrl,
      'msp vpn upgrade nw-asa-branch --version 5.1.8.105',
      USERS.alice,
    );
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.alice, card);
    expect(await env.driver.ephemeral(USERS.alice)).toContain('you cannot approve it');
    expect(await env.sccCalls('upgradeMspManagedAsaSecureClientPackages')).toBe(1); // the first test's only
  });
});
