// A bot process killed (SIGKILL) between approval and the end of execution: the request is run exactly
// once by a restarted process, never zero times and never twice. The dying process is frozen inside its
// SCC DELETE by a proxy, once before SCC saw the call and once after SCC carried it out.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../src/approvals/store.js';
import { redisUrl } from '../support/testRedis.js';
import { type ChildBot, type ChildBots, childBots } from './support/childBot.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type HoldMode, startHoldingProxy } from './support/holdingProxy.js';
import { USERS } from './support/world.js';

const LEASE_MS = 1_000;

describe('approvals: a process killed after approval', () => {
  let env: ApprovalsEnv;
  let children: ChildBots;

  beforeAll(async () => {
    env = await startEnv();
    children = childBots(env, { redisUrl: redisUrl(), executionLeaseMs: LEASE_MS });
  });

  afterEach(async () => {
    await children.stopAll();
  });

  afterAll(async () => {
    await env.stop();
  });

  const child = (sccBaseUrl: string): Promise<ChildBot> => children.start(sccBaseUrl);

  async function killMidDelete(mode: HoldMode, command: string) {
    const proxy = await startHoldingProxy(env.sim.url, mode);
    const doomed = await child(proxy.url);
    const card = await env.driver.ask(doomed.eventsUrl, command, USERS.alice);
    await env.driver.click(doomed.eventsUrl, 'approve', USERS.bob, card);
    await proxy.deleteHeld;
    await doomed.kill('SIGKILL');
    await proxy.stop();
    return card;
  }

  it('runs the delete once after a restart when the dead process never reached SCC', async () => {
    const before = await env.sccCalls('deleteAsaVlanInterface');
    const card = await killMidDelete('hold', 'interfaces delete asa-hq-01 iot');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(before);

    await child(env.sim.url);

    expect(await env.driver.threadReply(card, (t) => t.includes('approved'))).toContain('<@U0BOB> approved');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(before + 1);
    const store = new ApprovalStore({
      redis: env.bot.redis,
      prefix: env.prefix,
      retentionMs: 86_400_000,
      claimGraceMs: LEASE_MS,
    });
    const record = await store.get(card.id);
    expect(record?.state).toBe('done');
    expect(record?.attempts).toBe(2);
  }, 60_000);

  it('does not call SCC again when the dead process’s DELETE had already taken effect', async () => {
    const before = await env.sccCalls('deleteAsaVlanInterface');
    const card = await killMidDelete('forward', 'interfaces delete asa-hq-01 guest');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(before + 1);

    await child(env.sim.url);

    const reply = await env.driver.threadReply(card, (t) => t.includes('approved'));
    expect(reply).toContain('the call sent before fwbot restarted took effect');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(before + 1);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
  }, 60_000);
});
