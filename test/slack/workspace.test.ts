// fwbot serves the workspace it was installed in and nothing else (issue 12, item 4): signed requests
// from another team_id, enterprise_id or api_app_id are acknowledged and refused before any listener,
// nothing reaches SCC or Slack, and the refusal is in the audit trail; the right workspace works.
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/approvals/audit.js';
import {
  learnWorkspace,
  type RefusalAudit,
  type TokenIdentity,
  workspaceBinding,
} from '../../src/slack/workspaceBinding.js';
import { postSigned, slashCommandBody } from '../support/slackRequests.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';
import {
  buttonsOf,
  CHANNEL,
  clickPayload,
  type Harness,
  newTriggerId,
  SIGNING_SECRET,
  startHarness,
  USERS,
} from './support/harness.js';

const OTHER_TEAM = 'T0OTHERTEAM1';
const OTHER_APP = 'A0OTHERAPP01';

/** A signed /fw command as Slack sends it, from the given team and app. */
async function commandFrom(
  h: Harness,
  text: string,
  origin: { teamId?: string; appId?: string; userId?: string },
): Promise<{ status: number; responseUrl: string }> {
  const responseUrl = h.slack.responseUrl();
  const fields = new URLSearchParams(
    slashCommandBody({
      text,
      responseUrl,
      userId: origin.userId ?? USERS.viewer,
      channelId: CHANNEL,
      triggerId: newTriggerId(),
      ...(origin.teamId ? { teamId: origin.teamId } : {}),
    }),
  );
  if (origin.appId) fields.set('api_app_id', origin.appId);
  const http = await postSigned(h.eventsUrl, SIGNING_SECRET, fields.toString());
  return { status: http.status, responseUrl };
}

/** Slack calls besides Bolt's and the binding's start-up auth.test. */
const slackCalls = (h: Harness) => h.slack.calls.filter((call) => call.method !== 'auth.test');

describe('workspace binding: the bot token’s own workspace (auth.test)', () => {
  let h: Harness;
  let redis: Redis;
  let audit: AuditTrail;

  beforeAll(async () => {
    redis = connectRedis();
    audit = new AuditTrail({ redis, prefix: uniquePrefix('workspace'), retentionDays: 1, clock: Date.now });
    h = await startHarness({ workspace: { audit } });
  });
  afterAll(async () => {
    await h.stop();
    await redis.quit();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  it('serves its own workspace', async () => {
    const { status, responseUrl } = await commandFrom(h, 'devices', {});
    expect(status).toBe(200);
    await h.reply(responseUrl);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });

  it('refuses a signed slash command from another workspace: nothing runs, the refusal is audited', async () => {
    const { status } = await commandFrom(h, 'devices', { teamId: OTHER_TEAM, userId: 'U0STRANGER1' });

    expect(status).toBe(200);
    const warning = JSON.parse(await h.waitForLog(`"teamId":"${OTHER_TEAM}"`));
    expect(warning).toMatchObject({ kind: 'command', mismatched: ['team_id'], userId: 'U0STRANGER1' });
    await expect.poll(() => audit.latest(10), { timeout: 10_000 }).toHaveLength(1);
    const [record] = await audit.latest(10);
    expect(record).toMatchObject({
      actor: 'U0STRANGER1',
      action: 'refused',
      operationId: 'slack:command',
      target: expect.stringContaining(`team ${OTHER_TEAM}`),
      outcome: expect.stringContaining('team_id'),
    });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls(h)).toEqual([]);
  });

  it('refuses a signed button click from another workspace the same way', async () => {
    const { responseUrl } = await commandFrom(h, 'devices', {});
    const share = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.label === 'Share in channel');
    expect(share).toBeDefined();
    h.sim.reset();
    h.slack.reset();
    const click = {
      ...clickPayload(share ?? { actionId: '' }, 'U0STRANGER2', h.slack.responseUrl()),
      team: { id: OTHER_TEAM },
    };

    const http = await h.interact(click);

    expect(http.status).toBe(200);
    expect(JSON.parse(await h.waitForLog('"userId":"U0STRANGER2"'))).toMatchObject({
      kind: 'block_actions',
      mismatched: ['team_id'],
    });
    await expect
      .poll(async () => (await audit.latest(10)).filter((r) => r.actor === 'U0STRANGER2'), {
        timeout: 10_000,
      })
      .toHaveLength(1);
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls(h)).toEqual([]);
  });

  it('refuses a request that names no workspace at all', async () => {
    const { team: _team, ...anonymous } = clickPayload(
      { actionId: 'fw.share', value: 'devices' },
      'U0STRANGER3',
      h.slack.responseUrl(),
    );

    expect((await h.interact(anonymous)).status).toBe(200);

    expect(JSON.parse(await h.waitForLog('"userId":"U0STRANGER3"'))).toMatchObject({ teamId: 'none' });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls(h)).toEqual([]);
  });
});

describe('workspace binding: a configured app id (SLACK_APP_ID)', () => {
  let h: Harness;
  const records: Parameters<RefusalAudit['record']>[0][] = [];

  beforeAll(async () => {
    h = await startHarness({
      workspace: {
        appId: 'A0FWBOT',
        audit: {
          record: async (entry) => {
            records.push(entry);
          },
        },
      },
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  it('refuses a signed command from another app in the right workspace, and serves its own app', async () => {
    const other = await commandFrom(h, 'devices', { appId: OTHER_APP, userId: 'U0STRANGER4' });
    expect(other.status).toBe(200);
    expect(JSON.parse(await h.waitForLog(`"appId":"${OTHER_APP}"`))).toMatchObject({
      mismatched: ['api_app_id'],
    });
    await expect.poll(() => records.length, { timeout: 10_000 }).toBe(1);
    expect(records[0]).toMatchObject({ actor: 'U0STRANGER4', action: 'refused' });
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls(h)).toEqual([]);

    const own = await commandFrom(h, 'devices', {});
    await h.reply(own.responseUrl);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });

  it('refuses a signed button click from another app, or from none', async () => {
    const url = h.slack.responseUrl();
    const share = { actionId: 'fw.share', value: 'devices' };
    await h.interact({ ...clickPayload(share, 'U0STRANGER5', url), api_app_id: OTHER_APP });
    await h.interact(clickPayload(share, 'U0STRANGER6', url));
    await h.waitForLog('"userId":"U0STRANGER5"');
    await h.waitForLog('"userId":"U0STRANGER6"');
    expect(h.sim.requestLog.list()).toEqual([]);
    expect(slackCalls(h)).toEqual([]);

    await h.interact({ ...clickPayload(share, USERS.viewer, url), api_app_id: 'A0FWBOT' });
    await h.reply(url);
    expect(h.sim.requestLog.list().map((entry) => entry.operationId)).toEqual(['getDevices']);
  });
});

describe('which workspace is bound', () => {
  /** auth.test's answer as SlackApi.authTest gives it, and how often it was asked. */
  const tokenSays = (identity: TokenIdentity) => {
    let calls = 0;
    return {
      calls: () => calls,
      whoAmI: async () => {
        calls += 1;
        return identity;
      },
    };
  };

  it('is the token’s workspace, its organization on Enterprise Grid, and an app id auth.test reports', async () => {
    const { whoAmI } = tokenSays({ teamId: 'T0AAAAAAAA', enterpriseId: 'E0BBBBBBBB', appId: 'A0CCCCCCCC' });
    expect(await learnWorkspace(whoAmI, {})).toEqual({
      teamId: 'T0AAAAAAAA',
      enterpriseId: 'E0BBBBBBBB',
      appId: 'A0CCCCCCCC',
    });
  });

  it('is what is configured, without asking Slack; an organization alone binds all its workspaces', async () => {
    const { whoAmI, calls } = tokenSays({ teamId: 'T0AAAAAAAA' });
    expect(await learnWorkspace(whoAmI, { teamId: 'T0CONFIGURED', appId: 'A0CONFIGURED' })).toEqual({
      teamId: 'T0CONFIGURED',
      enterpriseId: undefined,
      appId: 'A0CONFIGURED',
    });
    expect(await learnWorkspace(whoAmI, { enterpriseId: 'E0CONFIGURED' })).toEqual({
      teamId: undefined,
      enterpriseId: 'E0CONFIGURED',
      appId: undefined,
    });
    expect(calls()).toBe(0);
  });

  it('cannot be guessed when auth.test names no workspace: fwbot does not start', async () => {
    const { whoAmI } = tokenSays({ teamId: '' });
    await expect(learnWorkspace(whoAmI, {})).rejects.toThrow(/set SLACK_TEAM_ID/);
  });
});

describe('audit records of refusals', () => {
  it('are written at most once a minute per origin and person, so a flood cannot flood the trail', async () => {
    const records: unknown[] = [];
    let now = 1_000_000;
    const binding = workspaceBinding({
      whoAmI: async () => ({ teamId: 'T0FAKE' }),
      configured: {},
      log: pino({ level: 'silent' }),
      audit: { record: async (entry) => void records.push(entry) },
      now: () => now,
    });
    const refused = { team_id: OTHER_TEAM, user_id: 'U0STRANGER7', command: '/fw' };
    const deliver = async (body: Record<string, unknown>) => {
      let ran = false;
      let acked = 0;
      await binding.middleware({
        body,
        ack: async () => {
          acked += 1;
        },
        next: async () => {
          ran = true;
        },
      } as unknown as Parameters<typeof binding.middleware>[0]);
      return { ran, acked };
    };

    for (let i = 0; i < 100; i += 1) expect(await deliver(refused)).toEqual({ ran: false, acked: 1 });
    expect(records).toHaveLength(1);
    await deliver({ ...refused, user_id: 'U0STRANGER8' });
    expect(records).toHaveLength(2);
    now += 60_000;
    await deliver(refused);
    expect(records).toHaveLength(3);
    expect(await deliver({ team_id: 'T0FAKE', user_id: USERS.viewer, command: '/fw' })).toEqual({
      ran: true,
      acked: 0,
    });
  });
});
