// Roles are checked again when it matters, and a replayed click has one effect: signed requests into a
// real Bolt app, real Redis, the simulator behind the real client. A role is taken away by changing the
// policy the running bot reads, as an admin editing the profiles file and restarting would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../src/approvals/store.js';
import { AccessControl } from '../../src/policy/access.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { mutablePolicy, USERS } from './support/world.js';

describe('approvals: roles checked again, clicks counted once', () => {
  let env: ApprovalsEnv;
  const roles = mutablePolicy();
  const ask = (text: string, user: string = USERS.alice) => env.driver.ask(env.bot.eventsUrl, text, user);

  beforeAll(async () => {
    const access = new AccessControl({ policy: roles.policy, channels: new Map(), profiles: ['default'] });
    env = await startEnv({}, { access });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('ends the request, and sends nothing to SCC, when the requester lost the role before approval', async () => {
    const card = await ask('interfaces delete asa-hq-01 guest');
    roles.take('operator', USERS.alice);
    try {
      await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
      expect(await env.driver.ephemeral(USERS.bob)).toMatch(/who asked, no longer holds the operator role/);
      const final = await env.driver.cardUpdate(card, (t) => t.includes('Cancelled'));
      expect(final.blocks.some((b) => b.type === 'actions')).toBe(false);
      expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(0);
    } finally {
      roles.give('operator', USERS.alice);
    }
  });

  it('does not run an approved request whose approver lost the role before it ran (recovery pass)', async () => {
    const card = await ask('interfaces delete asa-hq-01 iot');
    // Approved in Redis by a process that then died before running it.
    const store = new ApprovalStore({
      redis: env.bot.redis,
      prefix: env.prefix,
      retentionMs: 60_000,
      claimGraceMs: 60_000,
    });
    await store.decide(card.id, 'approved', env.clock(), USERS.bob);
    roles.take('approver', USERS.bob);
    try {
      env.clock.advance(5 * 60_000);
      await env.bot.approvals.recover();
      const reply = await env.driver.threadReply(card);
      expect(reply).toMatch(/who approved, no longer holds the approver role/);
      expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(0);
      const audit = await env.bot.approvals.audit.latest(5);
      expect(audit.find((r) => r.approvalId === card.id && r.action === 'aborted')).toBeDefined();
    } finally {
      roles.give('approver', USERS.bob);
    }
  });

  it('answers a click Slack delivers twice (same trigger id) once, with one effect', async () => {
    const card = await ask('tenants remove hooli-uae');
    const trigger = `trigger-replayed-${Date.now()}`;
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.carol, card, trigger);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.carol, card, trigger);
    await env.driver.ephemeral(USERS.carol);
    // A later, different click gets its own answer: so the first two had exactly one between them.
    await env.driver.click(env.bot.eventsUrl, 'cancel', USERS.carol, card);
    await env.driver.ephemeral(USERS.carol, (t) => t.includes('can cancel'));
    expect(env.driver.ephemeralsTo(USERS.carol).filter((t) => t.includes('approver role'))).toHaveLength(1);
  });

  it('writes one audit record for a flood of refused clicks, not one each', async () => {
    const card = await ask('tenants users remove contoso-eu ana@contoso.example');
    for (let i = 0; i < 30; i += 1) await env.driver.click(env.bot.eventsUrl, 'approve', USERS.carol, card);
    const refused = (await env.bot.approvals.audit.latest(200)).filter(
      (r) => r.approvalId === card.id && r.action === 'refused',
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actor: USERS.carol, outcome: 'approve refused: not an approver' });
  });
});
