// Scheduled runs listed and cancelled (issue 28): `/fw deployments scheduled` shows an approved deploy held
// until its time with who asked, who approved, when and why, and a Cancel… button; the held card has the
// same button. Only the requester and the request's approvers may cancel (others get one sentence and the
// hold stays); a cancel ends the request for good: the card and its thread say so, the audit trail records
// it, and when its time comes nothing is deployed. A run that already happened cannot be cancelled.
// Real Redis, the simulator's staging model, signed requests into real Bolt apps, a driven clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DEPLOY = 'deployChangesToMultipleAsaDevices';
const HOUR = 3_600_000;

describe('approvals: scheduled runs listed and cancelled', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  /** `/fw <text>` as `user`; a refusal's text without fwbot's mention marks (as Slack shows it). */
  const command = async (text: string, user: string) => {
    const reply = await driving(env.driver.commandReply(env.bot.eventsUrl, text, user));
    return { ...reply, text: stripSentinels(reply.text) };
  };

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) => env.stage(device, hardwareName);

  /** Stages a change, asks for its deploy `--at` two hours from now, approves it: held. */
  async function heldDeploy(device: string, vlan: string) {
    await stage(device, vlan);
    const at = new Date(env.clock() + 2 * HOUR).toISOString();
    const card = await driving(env.driver.ask(env.bot.eventsUrl, `deploy ${device} --at ${at}`, USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    const held = await env.driver.cardUpdate(card, (t) => t.includes('scheduled for'));
    return { card, held };
  }

  it('lists a held deploy with when, who and why, and a Cancel… button on the list and on the card', async () => {
    const { card, held } = await heldDeploy('asa-branch-02', 'Vlan30');
    const onCard = buttonsOf(held.blocks).find((b) => b.action_id?.startsWith('fw.command'));
    expect(onCard?.value).toBe(`deployments cancel ${card.id}`);

    // Any viewer may read the schedule.
    const list = await command('deployments scheduled', USERS.carol);
    const text = textOf(list.blocks);
    expect(text).toContain('deploy to asa-branch-02');
    expect(text).toContain(card.id);
    expect(text).toMatch(/Runs \w{3} \d\d:\d\d UTC, in 2 hours.* \(the time asked for\)/);
    expect(text).toContain('Asked by <@U0ALICE> · approved by <@U0BOB>');
    const inList = buttonsOf(list.blocks).filter((b) => b.action_id?.startsWith('fw.command'));
    expect(inList.map((b) => b.value)).toContain(`deployments cancel ${card.id}`);
    await cancelAndCheck(card);
  });

  /** Someone else is refused, then the approver cancels: card, thread, audit, and nothing at its time. */
  async function cancelAndCheck(card: { id: string; channel: string; ts: string; blocks: [] | unknown[] }) {
    const before = await env.sccCalls(DEPLOY);
    // dave holds the approver role, but did not approve this request: not his to withdraw.
    const refused = await command(`deployments cancel ${card.id}`, USERS.dave);
    expect(refused.text).toContain(
      `Only <@U0ALICE> or <@U0BOB> (who asked for it and who approved it) may cancel request ${card.id}.`,
    );
    expect(textOf((await command('deployments scheduled', USERS.carol)).blocks)).toContain(card.id);

    const done = await command(`deployments cancel ${card.id}`, USERS.bob);
    expect(textOf(done.blocks)).toContain(`Cancelled the scheduled run of request \`${card.id}\``);
    const updated = await env.driver.cardUpdate(card as Parameters<typeof env.driver.cardUpdate>[0], (t) =>
      t.includes('cancelled by'),
    );
    expect(textOf(updated.blocks)).toMatch(
      /Approved by <@U0BOB>.*its scheduled run was cancelled by <@U0BOB>.*Nothing was run\./,
    );
    expect(buttonsOf(updated.blocks).filter((b) => b.action_id?.startsWith('fw.command'))).toEqual([]);
    const told = await env.driver.threadReply(card as Parameters<typeof env.driver.threadReply>[0], (t) =>
      t.includes('was cancelled by'),
    );
    expect(told).toContain('<@U0ALICE>, the scheduled run of this request was cancelled by <@U0BOB>');
    const records = await env.bot.approvals.audit.latest(20);
    const record = records.find((r) => r.approvalId === card.id && r.action === 'cancelled');
    expect(record?.actor).toBe(USERS.bob);
    expect(record?.outcome).toContain('cancelled before it ran');
    expect(
      records.some((r) => r.approvalId === card.id && r.action === 'refused' && r.actor === USERS.dave),
    ).toBe(true);

    // Its time comes: nothing runs, and the list no longer has it.
    env.clock.advance(2 * HOUR + 60_000);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before);
    expect(textOf((await command('deployments scheduled', USERS.carol)).blocks)).not.toContain(card.id);
    const again = await command(`deployments cancel ${card.id}`, USERS.alice);
    expect(again.text).toContain(`Request ${card.id} was cancelled already by <@U0BOB>.`);
    env.clock.advance(-2 * HOUR - 60_000);
  }

  it('lets the requester cancel too, and says a run that already happened cannot be cancelled', async () => {
    const { card } = await heldDeploy('asa-dc-03', 'Vlan100');
    const before = await env.sccCalls(DEPLOY);
    env.clock.advance(2 * HOUR + 60_000);
    await driving(env.bot.approvals.recover());
    expect(await env.sccCalls(DEPLOY)).toBe(before + 1);
    const late = await command(`deployments cancel ${card.id}`, USERS.alice);
    expect(late.text).toMatch(new RegExp(`Request ${card.id} (has run already|is running already)`));
    env.clock.advance(-2 * HOUR - 60_000);

    const second = await heldDeploy('asa-hq-01', 'Vlan10');
    const done = await command(`deployments cancel ${second.card.id}`, USERS.alice);
    expect(textOf(done.blocks)).toContain('nothing was run');
  });

  it('refuses a request id that is not one, in a sentence', async () => {
    const reply = await command('deployments cancel nonsense', USERS.alice);
    expect(reply.text).toContain('must be a request id from /fw deployments scheduled');
    const unknown = await command('deployments cancel ap-0000000000', USERS.alice);
    expect(unknown.text).toContain('No scheduled request ap-0000000000 is known');
  });
});
