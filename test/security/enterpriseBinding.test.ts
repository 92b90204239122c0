// A request is bound to its installation's own organization (issue 34, outside test, the Enterprise Grid
// case). Bolt finds an org-wide installation by the organization a request names and takes the workspace
// from the request itself, so a request through another organization's install that named the home
// workspace's team id was answered with the home workspace's policy. On the bot `npm start` assembles in
// OAuth mode (HTTP, the simulator, the fake Slack, real Redis with the installations encrypted as fwbot
// keeps them): such a request is refused and audited, as is one naming an organization its installation
// is not of; the organization's own workspaces are served with the organization's policy.
import type { Installation } from '@slack/bolt';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/app/bot.js';
import { AuditTrail } from '../../src/approvals/audit.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { RedisInstallations } from '../../src/slack/installations.js';
import { startOAuthBot } from '../slack/support/oauthBot.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { connectRedis } from '../support/testRedis.js';

const SIGNING_SECRET = 'enterprise-binding-signing-secret';
const HOME = 'T0MSPHOME1';
/** Another organization that installed fwbot org-wide, one of its workspaces, and a person of it. */
const OTHER_ORG = 'E0FABRIKAM';
const OTHER_WORKSPACE = 'T0FABTEAM1';
const OTHER_PERSON = 'U0FABRIK01';
/** A workspace installed on its own, in no organization. */
const CUSTOMER = 'T0CUSTOMR1';
const CUSTOMER_PERSON = 'U0CUST0001';

function install(fields: {
  team?: string;
  enterprise?: string;
  orgWide: boolean;
  token: string;
}): Installation {
  return {
    team: fields.team === undefined ? undefined : { id: fields.team, name: 'A workspace' },
    enterprise:
      fields.enterprise === undefined ? undefined : { id: fields.enterprise, name: 'Fabrikam Group' },
    user: { id: 'U0INSTALL01', token: undefined, scopes: undefined },
    bot: { token: fields.token, scopes: ['commands'], id: 'B0FWBOT', userId: 'U0FWBOT' },
    isEnterpriseInstall: fields.orgWide,
    authVersion: 'v2',
  };
}

describe('a request bound to its installation’s organization', () => {
  let slack: FakeSlack;
  let sim: SimulatorHandle;
  let bot: RunningBot;
  let redis: Redis;
  let base: string;
  let prefix: string;

  beforeAll(async () => {
    slack = await startFakeSlack({ teamId: HOME });
    sim = await startSimulator({ port: 0, clock: 'manual' });
    redis = connectRedis();
    // No top-level policy: at home everyone reads. The organization's own policy lets its person read.
    const started = await startOAuthBot({
      slack,
      sim,
      home: HOME,
      signingSecret: SIGNING_SECRET,
      profiles: [
        'workspaces:',
        `  ${OTHER_ORG}:`,
        '    profile: msp',
        '    policy:',
        `      workspace: { viewer: [${OTHER_PERSON}] }`,
        `  ${CUSTOMER}:`,
        '    profile: msp',
        '    policy:',
        `      workspace: { viewer: [${CUSTOMER_PERSON}] }`,
      ],
      log: pino({ level: 'silent' }),
      name: 'enterprise-binding',
    });
    ({ bot, base, prefix } = started);
    const key = started.installKey;
    // The installs, kept as fwbot keeps them (what the install flow would have stored).
    const installs = new RedisInstallations({ redis, prefix, key, log: pino({ level: 'silent' }) });
    await installs.storeInstallation(
      install({ enterprise: OTHER_ORG, orgWide: true, token: 'xoxb-fabrikam-org' }),
    );
    await installs.storeInstallation(install({ team: CUSTOMER, orgWide: false, token: 'xoxb-customer-ws' }));
  });
  afterAll(async () => {
    await bot?.stop();
    await redis?.quit();
    await sim?.stop();
    await slack?.stop();
  });

  const audit = () => new AuditTrail({ redis, prefix: `${prefix}:`, retentionDays: 1, clock: Date.now });

  /** `/fw devices` as Slack delivers it for these identifiers; the response_url it carries. */
  async function devices(fields: {
    teamId: string;
    userId: string;
    enterpriseId?: string;
    isEnterpriseInstall?: boolean;
  }): Promise<string> {
    const responseUrl = slack.responseUrl();
    const body = slashCommandBody({ text: 'devices', responseUrl, channelId: 'C0SOMECH01', ...fields });
    expect((await postSigned(`${base}/slack/events`, SIGNING_SECRET, body)).status).toBe(200);
    return responseUrl;
  }

  const answered = (responseUrl: string) =>
    slack.waitFor(
      (call) => call.method === 'response_url' && responseUrl.endsWith(`/${String(call.args.responseUrlId)}`),
      15_000,
    );
  const refusal = async (actor: string) =>
    (await audit().latest(50)).find((record) => record.action === 'refused' && record.actor === actor);

  it('serves a workspace of the organization with the organization’s policy', async () => {
    const responseUrl = await devices({
      teamId: OTHER_WORKSPACE,
      userId: OTHER_PERSON,
      enterpriseId: OTHER_ORG,
      isEnterpriseInstall: true,
    });
    expect(JSON.stringify((await answered(responseUrl)).args)).toContain('asa-hq-01');
  });

  it('refuses and audits a request through the organization’s install naming the home workspace', async () => {
    const responseUrl = await devices({
      teamId: HOME,
      userId: 'U0FABRIK02',
      enterpriseId: OTHER_ORG,
      isEnterpriseInstall: true,
    });
    await expect.poll(() => refusal('U0FABRIK02'), { timeout: 15_000 }).toBeDefined();
    expect((await refusal('U0FABRIK02'))?.outcome).toContain(
      `team_id: the home workspace ${HOME}, which is not of organization ${OTHER_ORG}`,
    );
    expect(slack.calls.filter((call) => responseUrl.endsWith(`/${String(call.args.responseUrlId)}`))).toEqual(
      [],
    );
  });

  it('refuses a request through the organization’s install naming a workspace installed on its own', async () => {
    await devices({
      teamId: CUSTOMER,
      userId: 'U0FABRIK03',
      enterpriseId: OTHER_ORG,
      isEnterpriseInstall: true,
    });
    await expect.poll(() => refusal('U0FABRIK03'), { timeout: 15_000 }).toBeDefined();
    expect((await refusal('U0FABRIK03'))?.outcome).toContain(
      `team_id: ${CUSTOMER}, a workspace installed outside organization ${OTHER_ORG}`,
    );
  });

  it('refuses and audits a request naming an organization its installation is not of', async () => {
    const responseUrl = await devices({ teamId: CUSTOMER, userId: CUSTOMER_PERSON, enterpriseId: OTHER_ORG });
    await expect.poll(() => refusal(CUSTOMER_PERSON), { timeout: 15_000 }).toBeDefined();
    expect((await refusal(CUSTOMER_PERSON))?.outcome).toContain(
      `enterprise_id: ${OTHER_ORG}, not the organization of the installation that serves it (none)`,
    );
    expect(slack.calls.filter((call) => responseUrl.endsWith(`/${String(call.args.responseUrlId)}`))).toEqual(
      [],
    );
    // Without the organization, the workspace's own request is served.
    const own = await devices({ teamId: CUSTOMER, userId: CUSTOMER_PERSON });
    expect(JSON.stringify((await answered(own)).args)).toContain('asa-hq-01');
  });
});
