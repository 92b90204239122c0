// The installation store of OAuth mode on a real Redis: what is stored is encrypted (no token, no team
// name in clear), a record opens only under its own key name and with the right key, an org-wide install
// serves every workspace of its organization, a removal reaches the other processes' listeners, and the
// install flow's states are good for one callback only.
import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/redis/keys.js';
import { RedisInstallations } from '../../src/slack/installations.js';
import { INVALID_STATE, RedisInstallStates } from '../../src/slack/installStates.js';
import type { WorkspaceRef } from '../../src/slackApi/installationTokens.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const log = pino({ level: 'silent' });
const TOKEN = 'xoxb-second-workspace-0123456789';

function teamInstall(teamId: string, token: string, enterpriseId?: string): Installation {
  return {
    team: { id: teamId, name: 'Contoso Ltd' },
    enterprise: enterpriseId === undefined ? undefined : { id: enterpriseId },
    user: { id: 'U0INSTALL01', token: undefined, scopes: undefined },
    bot: { token, scopes: ['commands'], id: 'B0FWBOT', userId: 'U0FWBOT' },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

function orgInstall(enterpriseId: string, token: string): Installation {
  return {
    team: undefined,
    enterprise: { id: enterpriseId, name: 'Fabrikam Group' },
    user: { id: 'U0INSTALL02', token: undefined, scopes: undefined },
    bot: { token, scopes: ['commands'], id: 'B0FWBOT', userId: 'U0FWBOT' },
    isEnterpriseInstall: true,
    authVersion: 'v2',
  };
}

describe('RedisInstallations', () => {
  let redis: Redis;
  const opened: RedisInstallations[] = [];
  const connections: Redis[] = [];
  const store = (prefix: string, key: Buffer, subscribe = false) => {
    const made = new RedisInstallations({
      redis,
      prefix,
      key,
      log,
      ...(subscribe
        ? {
            subscriber: () => {
              const connection = connectRedis();
              connections.push(connection);
              return connection;
            },
          }
        : {}),
    });
    opened.push(made);
    return made;
  };

  beforeAll(() => {
    redis = connectRedis();
  });
  afterEach(async () => {
    for (const made of opened.splice(0)) await made.close();
  });
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.quit().catch(() => undefined)));
    await redis.quit();
  });

  it('stores a workspace install encrypted, and gives its bot token back', async () => {
    const prefix = uniquePrefix('installs');
    const installs = store(prefix, randomBytes(32));
    await installs.storeInstallation(teamInstall('T0CUSTOMR1', TOKEN));

    const raw = await redis.get(installs.redisKey({ kind: 'team', teamId: 'T0CUSTOMR1' }));
    expect(raw).not.toBeNull();
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain('xoxb-');
    expect(raw).not.toContain('Contoso');
    expect(await installs.botToken({ teamId: 'T0CUSTOMR1' })).toBe(TOKEN);
    const fetched = await installs.fetchInstallation({
      teamId: 'T0CUSTOMR1',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(fetched.bot?.token).toBe(TOKEN);
  });

  it('opens nothing with another key, or under another workspace’s key name', async () => {
    const prefix = uniquePrefix('installs');
    const installs = store(prefix, randomBytes(32));
    await installs.storeInstallation(teamInstall('T0CUSTOMR1', TOKEN));
    // The same records, read by a process with another FWBOT_INSTALL_KEY.
    const otherKey = store(prefix, randomBytes(32));
    expect(await otherKey.botToken({ teamId: 'T0CUSTOMR1' })).toBeUndefined();
    await expect(
      otherKey.fetchInstallation({
        teamId: 'T0CUSTOMR1',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      }),
    ).rejects.toThrow('not installed');
    // A record copied under another workspace's key name does not open there: the name is authenticated.
    const stolen = await redis.get(installs.redisKey({ kind: 'team', teamId: 'T0CUSTOMR1' }));
    await redis.set(installs.redisKey({ kind: 'team', teamId: 'T0ATTACKER' }), stolen ?? '');
    expect(await installs.botToken({ teamId: 'T0ATTACKER' })).toBeUndefined();
  });

  it('serves every workspace of an organization from its org-wide install, the workspace’s own first', async () => {
    const installs = store(uniquePrefix('installs'), randomBytes(32));
    await installs.storeInstallation(orgInstall('E0FABRIKAM', 'xoxb-org-wide'));
    expect(await installs.botToken({ teamId: 'T0ANYTEAM1', enterpriseId: 'E0FABRIKAM' })).toBe(
      'xoxb-org-wide',
    );
    expect(await installs.botToken({ teamId: 'T0ANYTEAM1' })).toBeUndefined();
    await installs.storeInstallation(teamInstall('T0OWNTEAM1', 'xoxb-own', 'E0FABRIKAM'));
    expect(await installs.botToken({ teamId: 'T0OWNTEAM1', enterpriseId: 'E0FABRIKAM' })).toBe('xoxb-own');
    const org = await installs.fetchInstallation({
      teamId: undefined,
      enterpriseId: 'E0FABRIKAM',
      isEnterpriseInstall: true,
    });
    expect(org.bot?.token).toBe('xoxb-org-wide');
  });

  it('removes an install and tells the listeners of every process', async () => {
    const prefix = uniquePrefix('installs');
    const key = randomBytes(32);
    const here = store(prefix, key, true);
    const elsewhere = store(prefix, key, true);
    const heardHere: WorkspaceRef[] = [];
    const heardElsewhere: WorkspaceRef[] = [];
    here.onRemoved((removed) => heardHere.push(removed));
    elsewhere.onRemoved((removed) => heardElsewhere.push(removed));
    // The other process's subscription is in place once Redis counts it.
    await expect
      .poll(
        async () => (await redis.pubsub('NUMSUB', new RedisKeys(prefix).slackInstallationsRemoved()))[1],
        {
          timeout: 10_000,
        },
      )
      .toBe(2);
    await here.storeInstallation(teamInstall('T0CUSTOMR1', TOKEN));

    expect(await here.remove({ kind: 'team', teamId: 'T0CUSTOMR1' })).toBe(true);
    expect(await elsewhere.botToken({ teamId: 'T0CUSTOMR1' })).toBeUndefined();
    expect(heardHere).toEqual([{ teamId: 'T0CUSTOMR1' }]);
    await expect.poll(() => heardElsewhere, { timeout: 10_000 }).toEqual([{ teamId: 'T0CUSTOMR1' }]);
    expect(heardHere).toHaveLength(1);
  });
});

describe('RedisInstallStates', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('takes a state it issued once, and refuses it the second time', async () => {
    const states = new RedisInstallStates(redis, uniquePrefix('states'));
    const state = await states.generateStateParam({ scopes: ['commands'], metadata: 'm' }, new Date());
    expect(await states.verifyStateParam(new Date(), state)).toEqual({ scopes: ['commands'], metadata: 'm' });
    await expect(states.verifyStateParam(new Date(), state)).rejects.toMatchObject({ code: INVALID_STATE });
  });

  it('refuses a state it never issued, and one issued under another deployment’s prefix', async () => {
    const states = new RedisInstallStates(redis, uniquePrefix('states'));
    const other = new RedisInstallStates(redis, uniquePrefix('states'));
    const theirs = await other.generateStateParam({ scopes: ['commands'] }, new Date());
    await expect(states.verifyStateParam(new Date(), theirs)).rejects.toMatchObject({ code: INVALID_STATE });
    await expect(states.verifyStateParam(new Date(), 'forged')).rejects.toMatchObject({
      code: INVALID_STATE,
    });
  });
});
