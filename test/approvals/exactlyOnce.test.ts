// What approvals guarantee about execution: bound to the approved target, and exactly one SCC call
// however many clicks, deliveries, processes or crashes come between approval and execution.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../src/approvals/store.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, textOf } from './support/slackDriver.js';
import { MANY_APPROVERS, USERS } from './support/world.js';

/** The default execution lease, which is also the grace an approving process gets to claim its approval. */
const LEASE_MS = 60_000;

describe('approvals: exactly once, and only what was approved', () => {
  let env: ApprovalsEnv;
  const ask = (text: string) => env.driver.ask(env.bot.eventsUrl, text, USERS.alice);

  async function vlanUid(device: string, name: string): Promise<string> {
    const page = await env.bot.scc.interfaces.vlan.list(env.sim.deviceUid(device));
    const uid = page.items?.find((i) => i.name === name)?.uid;
    if (!uid) throw new Error(`no VLAN interface ${name} on ${device}`);
    return uid;
  }

  beforeAll(async () => {
    env = await startEnv();
  });

  afterAll(async () => {
    await env.stop();
  });

  it('deletes nothing when the target changed after the request, and says what changed', async () => {
    const card = await ask('interfaces delete asa-hq-01 iot');
    const device = env.sim.deviceUid('asa-hq-01');
    await env.bot.scc.interfaces.vlan.modify(device, await vlanUid('asa-hq-01', 'iot'), {
      name: 'iot-cameras',
      ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.21.0.1', netmask: '255.255.0.0' } },
    });

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);

    const reply = await env.driver.threadReply(card);
    expect(reply).toContain('Nothing was run: the target changed since the request.');
    expect(reply).toContain('• name changed from iot to iot-cameras');
    expect(reply).toContain('• IPv4 address changed from 10.20.0.1/24 to 10.21.0.1/16');
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(0);
    const final = await env.driver.cardUpdate(card, (t) => t.includes('Nothing was run'));
    expect(buttonsOf(final.blocks)).toEqual([]);
    const [audited] = await env.bot.approvals.audit.latest(1);
    expect(audited).toMatchObject({ action: 'aborted', actor: USERS.bob, approvalId: card.id });
    expect(audited?.outcome).toContain('IPv4 address changed from 10.20.0.1/24 to 10.21.0.1/16');
  });

  it('deletes nothing when the target is gone before execution', async () => {
    const card = await ask('interfaces delete asa-hq-01 guest');
    await env.bot.scc.interfaces.vlan.remove(
      env.sim.deviceUid('asa-hq-01'),
      await vlanUid('asa-hq-01', 'guest'),
    );

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);

    expect(await env.driver.threadReply(card)).toContain(
      'Nothing was run: the interface no longer exists on asa-hq-01.',
    );
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(1); // the removal above, by the test itself
  });

  it('makes one DELETE of fifty simultaneous approvals across two bot processes, duplicates included', async () => {
    const second = await env.startBot();
    const card = await ask('interfaces delete asa-branch-02 printers');
    // 45 approvers once each and five of them again (a double click, a redelivery), split over two processes.
    const clickers = [...MANY_APPROVERS.slice(0, 45), ...MANY_APPROVERS.slice(0, 5)];

    const statuses = await Promise.all(
      clickers.map((user, i) =>
        env.driver.click(i % 2 === 0 ? env.bot.eventsUrl : second.eventsUrl, 'approve', user, card),
      ),
    );

    expect(statuses.every((s) => s === 200)).toBe(true);
    await env.driver.threadReply(card);
    const final = await env.driver.cardUpdate(
      card,
      (t) => t.includes('Approved by') && !t.includes('running'),
    );
    expect(buttonsOf(final.blocks)).toEqual([]);
    expect(await env.sccCalls('deleteAsaVlanInterface')).toBe(2);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
    // Every other click, the winner's own second one included, is told it was already approved.
    const winner = /Approved by <@(U0APPR\d\d)>/.exec(textOf(final.blocks))?.[1];
    expect(clickers).toContain(winner);
    const alreadyApproved = () =>
      env.slack.calls.filter(
        (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes(`already approved`),
      ).length;
    await env.slack.waitFor(() => alreadyApproved() >= 49);
    expect(alreadyApproved()).toBe(49);
  });

  it('runs an approval that a crashed process left behind, once, from the recovery pass of a fresh one', async () => {
    const card = await ask('interfaces delete asa-hq-01 voice');
    // What a process leaves when it dies right after the approval transition: approved, nothing claimed.
    const store = new ApprovalStore({
      redis: env.bot.redis,
      prefix: env.prefix,
      retentionMs: 86_400_000,
      claimGraceMs: LEASE_MS,
    });
    const decided = await store.decide(card.id, 'approved', env.clock(), USERS.bob);
    expect(decided.outcome).toBe('decided');
    const restarted = [await env.startBot(), await env.startBot()];

    // The approving process gets the lease's time to run it itself; nobody else touches it before.
    await Promise.all(restarted.map((bot) => bot.approvals.recover()));
    expect(await env.sccCalls('deleteAsaSubInterface')).toBe(0);
    env.clock.advance(LEASE_MS);

    // Then both fresh processes' recovery passes run at the same time; a third pass comes later.
    await Promise.all(restarted.map((bot) => bot.approvals.recover()));
    await env.bot.approvals.recover();

    expect(await env.driver.threadReply(card)).toContain('<@U0BOB> approved');
    expect(await env.sccCalls('deleteAsaSubInterface')).toBe(1);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
    expect((await store.get(card.id))?.state).toBe('done');
  });

  it('finishes reporting an outcome after a failure, repeating no step that was done', async () => {
    const tenant = [...env.sim.state.tenants.values()].find((t) => t.name === 'hooli-uae');
    const username = tenant?.users.find((u) => !u.apiOnly)?.username;
    if (!username) throw new Error('the seed has no human user in hooli-uae');
    const card = await ask(`tenants users remove hooli-uae ${username}`);
    env.bot.tracker.failures = 1;
    // Earlier tests' outcomes may have been followed already (an approved delete follows its staged change).
    const before = env.bot.tracker.attempts;

    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    await env.bot.tracker.attempted(before + 1);
    expect(env.driver.threadReplies(card)).toHaveLength(1);
    expect(env.bot.tracker.follows.filter((f) => f.thread.threadTs === card.ts)).toEqual([]);

    await env.bot.approvals.recover();
    expect(env.bot.tracker.attempts).toBe(before + 1); // the notice is still held by the failed attempt
    env.clock.advance(LEASE_MS);
    await env.bot.approvals.recover();

    expect((await env.bot.tracker.followedIn(card.ts)).request.kind).toBe('transaction');
    expect(env.driver.threadReplies(card)).toHaveLength(1);
    expect(env.slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === card.ts)).toHaveLength(
      2,
    );
    expect(await env.sccCalls('deleteUsersFromTenantInMspPortal')).toBe(1);
  });
});
