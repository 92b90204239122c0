import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleGrants, RolePolicy } from '../../src/config/policy.js';
import { PermissionError, UserError } from '../../src/model/errors.js';
import { AccessControl, type AccessSettings } from '../../src/policy/access.js';
import { UserGroupDirectory } from '../../src/policy/userGroups.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';

const ALICE = 'U0ALICE0001';
const BOB = 'U0BOB00001';
const CAROL = 'U0CAROL0001';
const OPS = 'C0OPS00001';
const LAB = 'C0LAB00001';
const NETWORK_TEAM = 'S0NETWORK01';
const silent = pino({ level: 'silent' });

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

function settings(policy: RolePolicy | null): AccessSettings {
  return { policy, channels: new Map([[LAB, 'lab']]), profiles: ['default', 'lab'] };
}

const policy: RolePolicy = {
  workspace: grants({ viewer: ['*'], operator: [ALICE], admin: [CAROL] }),
  channels: new Map([[LAB, grants({ operator: [BOB, NETWORK_TEAM] })]]),
};

describe('access control', () => {
  let slack: FakeSlack;
  let client: WebClient;
  const fetched: string[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack({ userGroups: { [NETWORK_TEAM]: [CAROL, 'U0DAVE00001'] } });
    client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => {
    await slack.stop();
  });

  function directory(now: () => number = Date.now): UserGroupDirectory {
    return new UserGroupDirectory({
      log: silent,
      now,
      fetchMembers: async (group) => {
        fetched.push(group);
        const answer = await client.usergroups.users.list({ usergroup: group });
        return answer.users ?? [];
      },
    });
  }

  it('lets everyone read and nobody change when no policy is configured, and says how to grant roles', async () => {
    const access = new AccessControl(settings(null));
    await expect(
      access.authorize({ userId: ALICE, channelId: OPS, needs: 'viewer', action: 'x' }),
    ).resolves.toEqual({
      profile: 'default',
      roles: new Set(['viewer']),
    });
    const refusal = access.authorize({
      userId: ALICE,
      channelId: OPS,
      needs: 'operator',
      action: '`/fw tenants create`',
    });
    await expect(refusal).rejects.toBeInstanceOf(PermissionError);
    await expect(refusal).rejects.toThrow(
      '`/fw tenants create` changes SCC, and no role policy is configured: everyone may read, nobody may change ' +
        'anything. An admin grants roles in the `policy` section of the profiles file (FWBOT_PROFILES); see ' +
        'docs/operating/roles-and-permissions.md.',
    );
  });

  it('names the role needed and the roles held when it refuses', async () => {
    const access = new AccessControl(settings(policy));
    await expect(
      access.authorize({ userId: BOB, channelId: OPS, needs: 'operator', action: '`/fw tenants create`' }),
    ).rejects.toThrow(
      '`/fw tenants create` needs the *operator* role in this channel; you hold viewer. An admin can grant it',
    );
  });

  it('applies channel grants only in their channel, on top of the workspace grants', async () => {
    const access = new AccessControl(settings(policy), directory());
    await expect(access.holds(BOB, LAB, 'operator')).resolves.toBe(true);
    await expect(access.holds(BOB, OPS, 'operator')).resolves.toBe(false);
    await expect(access.holds(ALICE, OPS, 'operator')).resolves.toBe(true);
  });

  it('picks the profile the channel is bound to, and `default` elsewhere', async () => {
    const access = new AccessControl(settings(policy));
    const lab = await access.authorize({ userId: BOB, channelId: LAB, needs: 'operator', action: 'x' });
    const ops = await access.authorize({ userId: ALICE, channelId: OPS, needs: 'operator', action: 'x' });
    expect([lab.profile, ops.profile]).toEqual(['lab', 'default']);
  });

  it('lets only admins choose another profile, and refuses unknown profiles', async () => {
    const access = new AccessControl(settings(policy));
    await expect(
      access.authorize({
        userId: CAROL,
        channelId: OPS,
        needs: 'viewer',
        action: 'x',
        profileOverride: 'lab',
      }),
    ).resolves.toMatchObject({ profile: 'lab' });
    await expect(
      access.authorize({
        userId: ALICE,
        channelId: OPS,
        needs: 'viewer',
        action: 'x',
        profileOverride: 'lab',
      }),
    ).rejects.toThrow(
      'Choosing a profile with `--profile` needs the *admin* role; you hold viewer, operator.',
    );
    await expect(
      access.authorize({
        userId: CAROL,
        channelId: OPS,
        needs: 'viewer',
        action: 'x',
        profileOverride: 'nope',
      }),
    ).rejects.toThrow(new UserError('There is no SCC profile named `nope`. Profiles: `default`, `lab`.'));
  });

  it('grants roles to user-group members, caching the Tier 2 lookup', async () => {
    let now = 0;
    fetched.length = 0;
    const access = new AccessControl(
      settings(policy),
      directory(() => now),
    );
    await expect(access.holds('U0DAVE00001', LAB, 'operator')).resolves.toBe(true);
    await expect(access.holds('U0EVE000001', LAB, 'operator')).resolves.toBe(false);
    expect(fetched).toEqual([NETWORK_TEAM]);
    now += 6 * 60_000;
    await expect(access.holds('U0DAVE00001', LAB, 'operator')).resolves.toBe(true);
    expect(fetched).toEqual([NETWORK_TEAM, NETWORK_TEAM]);
  });

  it('does not look up groups when a direct grant already answers', async () => {
    fetched.length = 0;
    const access = new AccessControl(settings(policy), directory());
    await access.authorize({ userId: BOB, channelId: LAB, needs: 'operator', action: 'x' });
    expect(fetched).toEqual([]);
  });

  it('shares one lookup between concurrent checks', async () => {
    fetched.length = 0;
    const access = new AccessControl(settings(policy), directory());
    await Promise.all([
      access.holds('U0DAVE00001', LAB, 'operator'),
      access.holds('U0EVE000001', LAB, 'operator'),
      access.holds('U0FRANK0001', LAB, 'operator'),
    ]);
    expect(fetched).toEqual([NETWORK_TEAM]);
  });
});

describe('access control on a free Slack plan', () => {
  let server: ReturnType<typeof createServer>;
  let apiUrl = '';
  const warnings: string[] = [];

  beforeAll(async () => {
    // Free workspaces answer every user-group method with plan_upgrade_required.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'plan_upgrade_required' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('still honours grants to user ids, treats groups as empty, and warns once', async () => {
    const client = new WebClient('xoxb-test', { slackApiUrl: apiUrl, retryConfig: { retries: 0 } });
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const groups = new UserGroupDirectory({
      log,
      fetchMembers: async (group) => (await client.usergroups.users.list({ usergroup: group })).users ?? [],
    });
    const access = new AccessControl(settings(policy), groups);
    await expect(access.holds(BOB, LAB, 'operator')).resolves.toBe(true);
    await expect(access.holds('U0DAVE00001', LAB, 'operator')).resolves.toBe(false);
    await expect(access.holds('U0EVE000001', LAB, 'operator')).resolves.toBe(false);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({ slackError: 'plan_upgrade_required' });
  });
});
