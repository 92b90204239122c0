// Removing a tenant from the MSP portal end to end: the card says the tenant is revoked from the portal
// and not deleted; once someone else approves, one revoke call (never the deprecated DELETE), and its
// transaction handed to the tracking queue in the card's thread. Signed requests into a real Bolt app,
// the simulator behind the real client, real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('approvals: removing a tenant revokes it from the portal', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  it('says on the card that the tenant is not deleted, then revokes it once and follows the transaction', async () => {
    const card = await env.driver.ask(env.bot.eventsUrl, 'tenants remove northwind-us', USERS.alice);
    const text = textOf(card.blocks);
    expect(text).toContain('asks to *remove tenant `northwind-us` from the MSP portal*');
    expect(text).toContain('This removes the tenant from the MSP portal; it does not delete the tenant.');
    expect(await env.sccCalls('revokeTenantFromMspPortal')).toBe(0);

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    const followed = await env.bot.tracker.followedIn(card.ts);

    expect(followed.request).toMatchObject({
      kind: 'transaction',
      transactionUid: expect.any(String),
      label: 'remove tenant northwind-us from the MSP portal',
    });
    expect(await env.driver.threadReply(card)).toContain(
      'SCC revokes the portal’s management of the tenant; the tenant itself is not deleted.',
    );
    expect(await env.sccCalls('revokeTenantFromMspPortal')).toBe(1);
    expect(await env.sccCalls('removeTenantFromMspPortal')).toBe(0);
  });
});
