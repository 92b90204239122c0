// External people in a shared customer channel (issue 29, Slack Connect), through Bolt with signed
// requests and the command queue as the bot runs it: a customer typing /fw in their tenant's channel, from
// their own workspace, is let in once Slack says the channel is shared (conversations.info: the command's
// payload does not say), and the command worker runs it as that external person, with the channel's
// `external` grants only. They see their tenant's devices and no other customer's, and naming another
// tenant gets the channel's one sentence. A channel Slack says is not shared lets them in nowhere (audited).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commandHandling } from '../../src/app/assemble.js';
import { createLogger } from '../../src/app/logger.js';
import type { RoleGrants, RolePolicy } from '../../src/config/policy.js';
import type { AuditEntry } from '../../src/dispatch/ports.js';
import {
  type CommandIntake,
  type CommandWorkers,
  createCommandIntake,
  startCommandWorkers,
} from '../../src/jobs/commandQueue.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { blocksText, type Harness, startHarness, USERS } from './support/harness.js';

const NORTHWIND = 'C0NORTHWND1';
const GLOBEX = 'C0GLOBEX001';
const NOT_SHARED = 'C0NWINTERN1';
const CUSTOMER_TEAM = 'T0NORTHWND';
const CUSTOMER = 'U0NWCUST01';
const CUSTOMER_LEAD = 'U0NWLEAD01';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

// The home workspace's grants name its own people only (no '*'): a customer reaching the policy as one of
// them would hold nothing. The customer channels grant external people reading, and an approver who may
// not approve (no allow_external_approvers).
const POLICY: RolePolicy = {
  workspace: grants({ viewer: [USERS.viewer], operator: [USERS.operator], admin: [USERS.admin] }),
  channels: new Map(),
  external: new Map([
    [NORTHWIND, grants({ viewer: ['*'], approver: [CUSTOMER_LEAD] })],
    [NOT_SHARED, grants({ viewer: ['*'] })],
    [GLOBEX, grants({ viewer: ['*'] })],
  ]),
};

describe('an external customer in a shared customer channel', () => {
  let h: Harness;
  let intake: CommandIntake;
  let workers: CommandWorkers;
  const refusals: AuditEntry[] = [];

  beforeAll(async () => {
    const prefix = uniquePrefix('external-customers').slice(0, -1);
    intake = createCommandIntake({ redisUrl: redisUrl(), prefix, log: createLogger('silent') });
    await intake.ready();
    h = await startHarness({
      policy: POLICY,
      channelBindings: {
        [NORTHWIND]: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
        [NOT_SHARED]: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
        [GLOBEX]: { profile: 'default', tenant: 'globex-apj', tenantProfile: 'globex' },
      },
      tokens: (sim) => ({
        northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')),
        globex: sim.mintTenantToken(sim.tenantUid('globex-apj')),
      }),
      fakeSlack: { sharedChannels: [NORTHWIND, GLOBEX] },
      workspace: { audit: { record: async (entry) => void refusals.push(entry) } },
      commandIntake: intake,
    });
    workers = await startCommandWorkers({
      redisUrl: redisUrl(),
      prefix,
      ...commandHandling(h.surfaceDeps),
      concurrency: 2,
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      log: createLogger('silent'),
    });
  });
  afterAll(async () => {
    await intake.close();
    await workers?.close();
    await h.stop();
  });
  beforeEach(() => {
    h.slack.reset();
    refusals.length = 0;
  });

  /** /fw <text> typed by the customer from their own workspace; the answer's text. */
  async function customerAsks(text: string, channelId = NORTHWIND, userId = CUSTOMER) {
    const { http, responseUrl } = await h.command(text, { channelId, userId, teamId: CUSTOMER_TEAM });
    expect(http.status).toBe(200);
    return blocksText((await h.reply(responseUrl)).args);
  }

  // The command worker runs it as the external person: as a home person, the customer would hold nothing.
  it('lists their tenant’s devices, as an external person, and no other customer’s', async () => {
    const text = await customerAsks('devices');
    for (const name of ['nw-asa-hq', 'nw-asa-branch', 'nw-ftd-edge']) expect(text).toContain(name);
    for (const name of ['asa-hq-01', 'globex-asa-01', 'initech-asa-01']) expect(text).not.toContain(name);
    // Slack was asked whether the channel is shared, with the bot's own token.
    expect(h.slack.callsTo('conversations.info').map((call) => call.args.channel)).toEqual([NORTHWIND]);
  });

  it('refuses another tenant named in their channel with the channel’s one sentence', async () => {
    expect(await customerAsks('tenants users globex-apj')).toMatch(
      /This channel is scoped to the tenant `northwind-us`/,
    );
  });

  it('does not let them in where Slack says the channel is not shared, and audits it', async () => {
    const { http } = await h.command('devices', {
      channelId: NOT_SHARED,
      userId: CUSTOMER,
      teamId: CUSTOMER_TEAM,
    });
    expect(http.status).toBe(200);
    await h.slack.waitFor((call) => call.method === 'conversations.info');
    await h.waitForLog('refused a Slack request from another workspace or app');
    expect(refusals).toEqual([
      expect.objectContaining({
        actor: CUSTOMER,
        action: 'refused',
        outcome: `refused: external person: Slack says channel ${NOT_SHARED} is not shared`,
      }),
    ]);
    expect(h.slack.callsTo('response_url')).toEqual([]);
  });
});
