// Every button of an alert message in a customer channel (issue 34), through Slack: signed clicks into the
// real Bolt app, the workers' scan and desk posting to the fake Slack, the simulator's MSP portal behind.
// The channel is bound to the managed tenant northwind-us with its own profile; it subscribes, is told what
// is already wrong (certificates: a notice each, in the summary's thread), then a conflict on its ASA. Each
// button runs as the clicker: Acknowledge and Mute (which used to carry `--profile`, refused in a customer
// channel), the change-log diff, the pending commands, and Accept the device's configuration…, which under
// `changes.ticket: required` opens a form for the ticket (views.open) and, submitted, asks for approval
// with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { defaultChanges } from '../../src/config/profilesFileSchema.js';
import { channelScopes } from '../../src/config/scope.js';
import { simulatorControls } from '../../src/demo/worldControls.js';
import { startWorkers, type Workers } from '../../src/jobs/workers.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { quietLog, TEST_SCHEDULE } from '../jobs/support/harness.js';
import { driveClock } from '../support/driveClock.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import {
  blocksText,
  buttonsOf,
  clickPayload,
  type Harness,
  STANDARD_POLICY,
  startHarness,
  USERS,
} from './support/harness.js';
import { submissionPayload } from './support/modals.js';

const CUSTOMER = 'C0NORTHWND2';
const BINDING = { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' };

describe('an alert message’s buttons in a customer channel', () => {
  let h: Harness;
  let workers: Workers;
  const services: OperationServices = {};

  beforeAll(async () => {
    h = await startHarness({
      services,
      policy: STANDARD_POLICY,
      channelBindings: { [CUSTOMER]: BINDING },
      tokens: (sim) => ({ northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')) }),
      changes: { ...defaultChanges, ticket: 'required', ticketPattern: '^CHG[0-9]{7}$' },
    });
    workers = await startWorkers({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('slack-alert-buttons'),
      clients: sccClientsFrom(h.clients),
      chat: slackChatOf(createWorkerSlackClient('xoxb-test', h.slack.apiUrl), quietLog),
      schedule: TEST_SCHEDULE,
      logger: quietLog,
      channelScope: channelScopes({ channelBindings: new Map([[CUSTOMER, BINDING]]), workspaces: new Map() }),
    });
    services.alerts = workers.jobs.alerts;
  });
  afterAll(async () => {
    await workers.close();
    await h.stop();
  });

  const inCustomer = (c: RecordedCall, method: string) =>
    c.method === method && c.status === 200 && c.args.channel === CUSTOMER;
  /** Clicks a button of a message as `userId`; resolves with the private answer. */
  async function click(message: RecordedCall, label: string, userId: string = USERS.operator) {
    const button = buttonsOf(message.args).find((b) => b.label === label);
    if (!button) throw new Error(`no button “${label}”: ${buttonsOf(message.args).map((b) => b.label)}`);
    const url = h.slack.responseUrl();
    const payload = clickPayload(button, userId, url, CUSTOMER);
    await h.interact(payload);
    return { url, triggerId: String(payload.trigger_id) };
  }

  it('acknowledges, mutes, shows the diff and the pending commands, and asks for the ticket before accepting', {
    timeout: 120_000,
  }, async () => {
    const subscribed = await h.command('alerts subscribe conflict certificates', {
      channelId: CUSTOMER,
      userId: USERS.operator,
    });
    expect(subscribed.http.status).toBe(200);
    // What is already wrong there (the simulator's certificates, on its seed's clock): one summary, each
    // notice in its thread with its buttons.
    // (Another device than the one whose conflict follows: muting it here would keep that from being told.)
    const notice = await h.slack.waitFor(
      (c) =>
        inCustomer(c, 'chat.postMessage') &&
        c.args.thread_ts !== undefined &&
        /^:bell: nw-asa-branch: the \S+ certificate/.test(blocksText(c.args)),
      20_000,
    );
    const noticeAck = await click(notice, 'Acknowledge');
    expect(blocksText((await h.reply(noticeAck.url)).args)).toMatch(/acknowledged nw-asa-branch/);
    await h.slack.waitFor(
      (c) =>
        inCustomer(c, 'chat.update') && c.args.ts !== undefined && /Acknowledged by/.test(blocksText(c.args)),
      20_000,
    );
    await click(notice, 'Mute 8 h');
    await h.slack.waitFor(
      (c) => inCustomer(c, 'chat.postMessage') && /muted nw-asa-branch in .* for 8h/.test(blocksText(c.args)),
      20_000,
    );

    // A change on the tenant's ASA outside SCC: an incident of its own, with every button.
    expect(await simulatorControls(h.sim.url).run(['conflict', 'nw-asa-hq'])).toContain('conflict');
    const incident = await h.slack.waitFor(
      (c) =>
        inCustomer(c, 'chat.postMessage') && /nw-asa-hq\S* was changed outside SCC/.test(blocksText(c.args)),
      20_000,
    );

    const ack = await click(incident, 'Acknowledge');
    expect(blocksText((await h.reply(ack.url)).args)).toMatch(/acknowledged nw-asa-hq/);
    await h.slack.waitFor(
      (c) => inCustomer(c, 'chat.update') && /nw-asa-hq[\s\S]*Acknowledged by/.test(blocksText(c.args)),
      20_000,
    );

    await click(incident, 'Mute 1 h');
    await h.slack.waitFor(
      (c) => inCustomer(c, 'chat.postMessage') && /muted nw-asa-hq\S* in .* for 1h/.test(blocksText(c.args)),
      20_000,
    );

    const diff = await click(incident, 'Show the change-log diff');
    expect(blocksText((await h.reply(diff.url)).args)).toMatch(
      /Change log of nw-asa-hq[\s\S]*changed on the device console/,
    );

    const pending = await click(incident, 'Show the pending commands');
    const commands = await driveClock(h.sim.clock, h.reply(pending.url));
    expect(blocksText(commands.args)).toMatch(/nw-asa-hq/);
    expect(blocksText(commands.args)).not.toMatch(/cannot be used in this channel/);

    // Accept…: the policy requires a ticket, which the button cannot carry: a form asks for it; not of
    // someone who may not ask for it, who is refused before any form opens.
    const viewer = await click(incident, 'Accept the device’s configuration…', USERS.viewer);
    expect(blocksText((await h.reply(viewer.url)).args)).toMatch(/needs the \*operator\* role/);
    expect(
      h.slack.calls.some((c) => c.method === 'views.open' && c.args.trigger_id === viewer.triggerId),
    ).toBe(false);
    const before = h.gate.requests.length;
    const accept = await click(incident, 'Accept the device’s configuration…');
    const form = await h.openedModal(accept.triggerId);
    expect(JSON.stringify(form.view)).toContain('Change ticket');
    expect(h.gate.requests).toHaveLength(before);
    // A ticket the policy's pattern refuses is said under its field; the form stays open.
    const refused = await h.interact(submissionPayload(form, USERS.operator, { ticket: 'CHG12' }));
    expect(JSON.parse(refused.body)).toMatchObject({
      response_action: 'errors',
      errors: { 'f.ticket': 'Must match the policy’s ticket pattern “^CHG[0-9]{7}$”.' },
    });
    await driveClock(
      h.sim.clock,
      h.interact(submissionPayload(form, USERS.operator, { ticket: 'CHG0000034' })).then(async () => {
        for (let i = 0; i < 400 && h.gate.requests.length === before; i += 1)
          await new Promise((resolve) => setTimeout(resolve, 25));
      }),
    );
    const asked = h.gate.requests.at(-1);
    expect(asked?.operation.id).toBe('discard');
    expect(asked?.ticket).toBe('CHG0000034');
    expect(asked?.raw).toMatchObject({ ticket: 'CHG0000034' });
    expect(asked?.ctx.profile).toBe('northwind');
  });
});
