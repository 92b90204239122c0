// Change tickets through Slack (issue 28): with `changes.ticket: required` and a pattern, a deploy without
// a ticket, or with one the pattern refuses, is one sentence before anything reaches SCC or a card; with a
// good one the card links it (ticket_url), the audit trail records it, SCC stores it first in the deploy's
// description, and, when the tenant tracks change requests, the change request of that name is found or
// opened before the deploy. Real Redis, the simulator, signed requests into a real Bolt app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChanges } from '../../src/config/profilesFileSchema.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { buttonsOf, textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const TICKET_URL = 'https://acme.service-now.com/change_request.do?number={ticket}';

describe('approvals: change tickets', () => {
  let env: ApprovalsEnv;
  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);

  beforeAll(async () => {
    env = await startEnv(
      {},
      {
        changes: {
          ...defaultChanges,
          ticket: 'required',
          ticketPattern: '^CHG[0-9]{7}$',
          ticketUrl: TICKET_URL,
        },
      },
    );
  });
  afterAll(async () => {
    await env.stop();
  });

  const stage = (device: string, hardwareName: string) => env.stage(device, hardwareName);

  /** Every tenant of the simulator tracks change requests (what an admin switches on in SCC's UI). */
  function trackChangeRequests(on: boolean): void {
    for (const tenant of env.sim.state.tenants.values())
      env.sim.state.tenantSettings.set(tenant.uid, {
        changeRequestSupport: on,
        scheduledDeployments: false,
        objectSharing: false,
      });
  }

  it('refuses a deploy without a ticket, or with one the pattern refuses, before asking SCC anything', async () => {
    const reads = await env.sccCalls('getDevices');
    const missing = await env.driver.command(env.bot.eventsUrl, 'deploy asa-branch-02', USERS.alice);
    expect(missing).toBe(
      '`ticket` is required: the policy asks for the change ticket of every change to SCC or a device (--ticket CHG…).',
    );
    const refused = await env.driver.command(
      env.bot.eventsUrl,
      'deploy asa-branch-02 --ticket CHG12',
      USERS.alice,
    );
    expect(refused).toBe('`ticket` must match the policy’s ticket pattern `^CHG[0-9]{7}$`.');
    const shaped = await env.driver.command(
      env.bot.eventsUrl,
      'deploy asa-branch-02 --ticket CHG0012345:x',
      USERS.alice,
    );
    expect(shaped).toMatch(/^`ticket` must be one word of letters, digits/);
    expect(await env.sccCalls('getDevices')).toBe(reads);
  });

  it('links the ticket on the card, audits it, puts it first in the deploy description, and opens its change request', async () => {
    trackChangeRequests(true);
    await stage('asa-branch-02', 'Vlan30');
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'deploy asa-branch-02 --ticket CHG0012345', USERS.alice),
    );
    expect(textOf(card.blocks)).toContain('*Change ticket:* `CHG0012345`');
    // The link is a button that opens the ticket (Slack text from fwbot carries no links).
    const link = buttonsOf(card.blocks).find((b) => JSON.stringify(b).includes('Open CHG0012345'));
    expect(JSON.stringify(link)).toContain(
      '"url":"https://acme.service-now.com/change_request.do?number=CHG0012345"',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.bot.tracker.followedIn(card.ts));

    const runs = [...env.sim.state.deploymentRuns.values()];
    const run = runs.find((r) => r.description?.startsWith('CHG0012345: '));
    expect(run?.description).toMatch(/^CHG0012345: \(fwbot request ap-[0-9a-f]+\)$/);
    const opened = [...env.sim.state.changeRequests.values()].filter((cr) => cr.name === 'CHG0012345');
    expect(opened).toHaveLength(1);
    // SCC ties the deploy to the change request of that name (the simulator's model of it).
    expect(run?.changeRequest).toEqual({ uid: opened[0]?.uid, name: 'CHG0012345' });

    const records = await env.bot.approvals.audit.latest(10);
    const mine = records.filter((r) => r.approvalId === card.id);
    expect(mine.map((r) => [r.action, r.ticket])).toEqual(
      expect.arrayContaining([
        ['requested', 'CHG0012345'],
        ['approved', 'CHG0012345'],
        ['executed', 'CHG0012345'],
      ]),
    );
  });

  it('records the ticket on a rejection too: every record of the request names it', async () => {
    await stage('asa-hq-01', 'Vlan10');
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'deploy asa-hq-01 --ticket CHG0054321', USERS.alice),
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'reject', USERS.bob, card));
    await driving(env.driver.submitReason(env.bot.eventsUrl, USERS.bob, 'not in this change'));
    await env.driver.cardUpdate(card, (t) => t.includes('Rejected by'));

    const records = await env.bot.approvals.audit.latest(10);
    const mine = records.filter((r) => r.approvalId === card.id);
    expect(mine.map((r) => [r.action, r.ticket])).toEqual([
      ['rejected', 'CHG0054321'],
      ['requested', 'CHG0054321'],
    ]);
  });

  it('finds the change request of that name instead of opening a second one', async () => {
    trackChangeRequests(true);
    await stage('asa-dc-03', 'Vlan100');
    const card = await driving(
      env.driver.ask(env.bot.eventsUrl, 'deploy asa-dc-03 --ticket CHG0012345', USERS.alice),
    );
    const creates = await env.sccCalls('createChangeRequest');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.bot.tracker.followedIn(card.ts));
    expect(await env.sccCalls('createChangeRequest')).toBe(creates);
    const named = [...env.sim.state.changeRequests.values()].filter((cr) => cr.name === 'CHG0012345');
    expect(named).toHaveLength(1);
    const runs = [...env.sim.state.deploymentRuns.values()].sort(
      (a, b) => a.submissionTime - b.submissionTime,
    );
    expect(runs.at(-1)?.description).toMatch(/^CHG0012345: /);
    expect(runs.at(-1)?.changeRequest?.name).toBe('CHG0012345');
  });
});
