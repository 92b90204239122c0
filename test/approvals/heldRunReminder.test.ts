// The reminder before a held run (src/catalogue/timed/heldRunReminder.ts), the first product user of timed
// work: a deploy approved in Slack for two days ahead is recalled in its card's thread fifteen minutes
// before it runs, once, by the pass over timed work on the driven clock, naming anyone who lost the role
// the run will check; a run cancelled before then cancels its reminder and nothing is said; a run held less
// than an hour ahead gets none. Real Bolt, real Redis, the simulator's staging model, the real notifier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldRunReminder } from '../../src/catalogue/timed/index.js';
import { AccessControl } from '../../src/policy/access.js';
import { stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { mutablePolicy, USERS } from './support/world.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('approvals: a reminder before a held run', () => {
  let env: ApprovalsEnv;
  const roles = mutablePolicy();
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  beforeAll(async () => {
    const access = new AccessControl({ policy: roles.policy, channels: new Map(), profiles: ['default'] });
    // Far from the machine's time: a reminder read off the machine's clock would not come.
    env = await startEnv({}, { timed: true, access, clockStart: Date.parse('2031-06-02T08:00:00Z') });
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) =>
    stageVlanDeletion(env.sim, env.bot.scc, device, hardwareName);

  /** Stages a change, asks for its deploy `--at` `aheadMs` from now, approves it: held. */
  async function heldDeploy(device: string, vlan: string, aheadMs: number) {
    await stage(device, vlan);
    const at = new Date(env.clock() + aheadMs).toISOString();
    const card = await driving(env.driver.ask(env.bot.eventsUrl, `deploy ${device} --at ${at}`, USERS.alice));
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await env.driver.threadReply(card, (t) => t.includes('scheduled for'));
    return card;
  }

  const reminders = (card: { ts: string }) =>
    env.driver
      .threadReplies(card as Parameters<typeof env.driver.threadReplies>[0])
      .filter((c) => JSON.stringify(c.args.blocks ?? '').includes('Reminder'));

  it('recalls a deploy held two days ahead fifteen minutes before it runs, once, naming who lost a role', async () => {
    const start = env.clock();
    const card = await heldDeploy('asa-branch-02', 'Vlan30', 48 * HOUR);
    await env.timedPass();
    expect(reminders(card)).toEqual([]);

    env.clock.advance(48 * HOUR - 15 * MINUTE - 1);
    await env.timedPass();
    expect(reminders(card)).toEqual([]);

    env.clock.advance(1);
    roles.take('approver', USERS.bob);
    try {
      await env.timedPass();
      const reminder = await env.driver.threadReply(card, (t) => t.includes('Reminder'));
      expect(reminder).toContain('*deploy to asa-branch-02* runs');
      expect(reminder).toContain('in 15 minutes');
      expect(reminder).toContain(`\`/fw deployments cancel ${card.id}\``);
      expect(reminder).toContain(
        'As things stand it would not run: <@U0BOB> no longer holds the approver role in <#C0OPS>. Unless that changes by then, nothing is run.',
      );
      await env.timedPass();
      expect(reminders(card)).toHaveLength(1);
    } finally {
      roles.give('approver', USERS.bob);
      env.clock.advance(start - env.clock());
    }
  });

  it('says nothing once the run was cancelled: its reminder is cancelled with it', async () => {
    const start = env.clock();
    const card = await heldDeploy('asa-dc-03', 'Vlan100', 3 * HOUR);
    const reminder = { kind: heldRunReminder.kind, profile: 'default', key: card.id };
    expect(await env.timed?.get(reminder)).toMatchObject({ state: 'scheduled' });
    await driving(env.driver.commandReply(env.bot.eventsUrl, `deployments cancel ${card.id}`, USERS.alice));
    expect(await env.timed?.get(reminder)).toMatchObject({ state: 'cancelled' });
    env.clock.advance(3 * HOUR - 15 * MINUTE);
    try {
      await env.timedPass();
      await env.driver.threadReply(card, (t) => t.includes('was cancelled by'));
      expect(reminders(card)).toEqual([]);
    } finally {
      env.clock.advance(start - env.clock());
    }
  });

  it('sets no reminder for a run held less than an hour ahead', async () => {
    const card = await heldDeploy('asa-hq-01', 'Vlan20', 45 * MINUTE);
    const runs = await env.bot.approvals.scheduled.list('default');
    expect(runs.map((run) => run.id)).toContain(card.id);
    expect(await env.timed?.get({ kind: heldRunReminder.kind, profile: 'default', key: card.id })).toBe(
      undefined,
    );
    env.clock.advance(30 * MINUTE);
    expect(await env.timedPass()).toBe(0);
    expect(reminders(card)).toEqual([]);
  });
});
