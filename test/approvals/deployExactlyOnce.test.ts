// A deploy is governed like a deletion but does not remove its target, so the exactly-once cases are
// repeated for it: many simultaneous approvals across two processes make one deploy call; a process killed
// while sending it is replaced by one that never sends it again: when SCC took it, the new process finds
// the run by the request id its description carries and follows it; when SCC shows no run, it says what
// to check. Real Redis, the simulator's staging model, signed requests into real Bolt apps.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { redisUrl } from '../support/testRedis.js';
import { type ChildBot, type ChildBots, childBots } from './support/childBot.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type HoldMode, startHoldingProxy } from './support/holdingProxy.js';
import { buttonsOf } from './support/slackDriver.js';
import { MANY_APPROVERS, USERS } from './support/world.js';

const LEASE_MS = 1_000;
const DEPLOY = 'deployChangesToMultipleAsaDevices';

describe('approvals: a deploy is sent once', () => {
  let env: ApprovalsEnv;
  let children: ChildBots;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

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

  /** Stages the deletion of a VLAN interface on `device` directly in SCC (as the SCC UI would). */
  const stage = (device: string, hardwareName: string) => env.stage(device, hardwareName);

  const child = (sccBaseUrl: string): Promise<ChildBot> => children.start(sccBaseUrl);

  it('makes one deploy call of twenty simultaneous approvals across two processes, duplicates included', async () => {
    await stage('asa-branch-02', 'Vlan30');
    const second = await env.startBot();
    const before = await env.sccCalls(DEPLOY);
    const card = await driving(env.driver.ask(env.bot.eventsUrl, 'deploy asa-branch-02', USERS.alice));
    const clickers = [...MANY_APPROVERS.slice(0, 16), ...MANY_APPROVERS.slice(0, 4)];

    const statuses = await driving(
      Promise.all(
        clickers.map((user, i) =>
          env.driver.click(i % 2 === 0 ? env.bot.eventsUrl : second.eventsUrl, 'approve', user, card),
        ),
      ),
    );

    expect(statuses.every((s) => s === 200)).toBe(true);
    const final = await driving(
      env.driver.cardUpdate(card, (t) => t.includes('Approved by') && !t.includes('running')),
    );
    expect(buttonsOf(final.blocks)).toEqual([]);
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
  });

  async function killMidDeploy(mode: HoldMode, device: string) {
    const proxy = await startHoldingProxy(
      env.sim.url,
      mode,
      (method, path) => method === 'POST' && path.startsWith('/v1/inventory/devices/asas/deploy'),
    );
    const doomed = await child(proxy.url);
    const card = await driving(env.driver.ask(doomed.eventsUrl, `deploy ${device}`, USERS.alice));
    await driving(env.driver.click(doomed.eventsUrl, 'approve', USERS.bob, card));
    await driving(proxy.deleteHeld);
    await doomed.kill('SIGKILL');
    await proxy.stop();
    return card;
  }

  it('does not send it again when SCC shows no run for it, and says what to check', async () => {
    // The dead process may have sent it: a 202 whose run SCC has not created yet looks the same as a call
    // that never arrived, so nothing is sent again (a deletion, whose target disappears, can tell them apart).
    await stage('asa-hq-01', 'Vlan10');
    const before = await env.sccCalls(DEPLOY);
    const card = await killMidDeploy('hold', 'asa-hq-01');
    expect(await env.sccCalls(DEPLOY)).toBe(before);

    // Its start-up recovery pass reads the target again (a calculation, on simulated time).
    await driving(child(env.sim.url));

    const reply = await driving(env.driver.threadReply(card, (t) => t.includes('Not run again')));
    expect(reply).toContain('fwbot restarted while sending it');
    expect(reply).toContain('Check in SCC whether it happened (deploy to asa-hq-01)');
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
  }, 60_000);

  it('does not send it again when SCC had taken it, and finds and follows its run', async () => {
    await stage('asa-dc-03', 'Vlan100');
    const before = await env.sccCalls(DEPLOY);
    const card = await killMidDeploy('forward', 'asa-dc-03');
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    const run = [...env.sim.state.deploymentRuns.values()].find((r) =>
      r.description?.includes(`(fwbot request ${card.id})`),
    );
    expect(run).toBeDefined();

    // Its start-up recovery pass reads the target again (a calculation, on simulated time).
    await driving(child(env.sim.url));

    const reply = await driving(env.driver.threadReply(card, (t) => t.includes('approved')));
    expect(reply).toContain('The deploy sent before fwbot restarted reached SCC');
    expect(reply).toContain(String(run?.uid));
    expect(reply).toContain('it was not sent again');
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
  }, 60_000);
});
