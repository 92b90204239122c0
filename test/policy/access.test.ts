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
  return { policy, channels: new Map([[LAB, { profile: 'lab' }]]), profiles: ['default', 'lab'] };
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
      scope: { profile: 'default', bindingKey: `channels.${OPS}` },
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

  it('scopes a channel by its binding in the workspace the request came from (issue 29)', () => {
    const customerTeam = 'T0CUSTOMR1';
    const access = new AccessControl({
      ...settings(policy),
      channels: new Map([[OPS, { profile: 'msp', tenant: 'contoso-eu', tenantProfile: 'contoso' }]]),
      homeTeamId: 'T0MSPHOME01',
      workspaces: new Map([
        [
          customerTeam,
          {
            policy: null,
            binding: { profile: 'contoso' },
            channels: new Map([[LAB, { profile: 'msp', tenant: 'contoso-eu' }]]),
          },
        ],
      ]),
    });
    expect(access.scopeFor({ channelId: OPS })).toEqual({
      profile: 'msp',
      tenant: 'contoso-eu',
      tenantProfile: 'contoso',
      bindingKey: `channels.${OPS}`,
    });
    expect(access.scopeFor({ channelId: LAB, teamId: customerTeam })).toEqual({
      profile: 'msp',
      tenant: 'contoso-eu',
      bindingKey: `workspaces.${customerTeam}.channels.${LAB}`,
    });
    expect(access.scopeFor({ channelId: 'C0ELSEWHR1', teamId: customerTeam })).toEqual({
      profile: 'contoso',
      bindingKey: `workspaces.${customerTeam}`,
    });
    expect(access.scopeFor({ channelId: 'C0ELSEWHR1' })).toEqual({
      profile: 'default',
      bindingKey: 'channels.C0ELSEWHR1',
    });
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

describe('access control for an MSP and its customers (issue 29)', () => {
  const HOME = 'T0MSPHOME01';
  const CUSTOMER_TEAM = 'T0CUSTOMR1';
  const STRANGER_TEAM = 'T0STRANGE1';
  const SHARED = 'C0CONTOSO1';
  const CUSTOMER = 'U0CUST0001';
  const CUSTOMER_LEAD = 'U0CUSTLEAD';
  const MSP_LEAD = 'U0MSPLEAD1';
  const CUSTOMER_OWN = 'C0CUSTCH01';

  const msp: RolePolicy = {
    workspace: grants({ viewer: ['*'], operator: [ALICE], admin: [CAROL] }),
    channels: new Map([[SHARED, grants({ approver: [MSP_LEAD] })]]),
    external: new Map([[SHARED, grants({ viewer: ['*'], operator: [CUSTOMER], approver: [CUSTOMER_LEAD] })]]),
  };
  const external = { teamId: HOME, external: true };

  function mspSettings(policy: RolePolicy, extra: Partial<AccessSettings> = {}): AccessSettings {
    return {
      policy,
      channels: new Map(),
      profiles: ['default'],
      homeTeamId: HOME,
      workspaces: new Map([
        [
          CUSTOMER_TEAM,
          {
            policy: {
              workspace: grants({ viewer: ['*'] }),
              channels: new Map([[CUSTOMER_OWN, grants({ operator: [CUSTOMER] })]]),
            },
          },
        ],
      ]),
      ...extra,
    };
  }

  it('gives an external person only the channel’s external grants, never the workspace’s', async () => {
    const access = new AccessControl(mspSettings(msp));
    // Alice is an operator workspace-wide; as a guest from another organization she is a viewer in the
    // shared channel (everyone external is) and nothing elsewhere.
    await expect(access.holds(ALICE, SHARED, 'operator', external)).resolves.toBe(false);
    await expect(access.holds(ALICE, SHARED, 'viewer', external)).resolves.toBe(true);
    await expect(access.holds(ALICE, OPS, 'viewer', external)).resolves.toBe(false);
    await expect(access.holds(CUSTOMER, SHARED, 'operator', external)).resolves.toBe(true);
    await expect(access.holds(CUSTOMER, SHARED, 'operator', { teamId: HOME })).resolves.toBe(false);
  });

  it('lets an external approver approve only where the channel allows external approvers', async () => {
    const refused = new AccessControl(mspSettings(msp));
    await expect(refused.holds(CUSTOMER_LEAD, SHARED, 'approver', external)).resolves.toBe(false);
    await expect(refused.holds(CUSTOMER_LEAD, SHARED, 'viewer', external)).resolves.toBe(true);
    const allowed = new AccessControl(mspSettings({ ...msp, externalApprovers: new Set([SHARED]) }));
    await expect(allowed.holds(CUSTOMER_LEAD, SHARED, 'approver', external)).resolves.toBe(true);
    await expect(allowed.holds(CUSTOMER, SHARED, 'approver', external)).resolves.toBe(false);
  });

  it('grants external people nothing without a policy, though the home workspace’s people may read', async () => {
    const access = new AccessControl(mspSettings(msp, { policy: null }));
    await expect(access.holds(CUSTOMER, SHARED, 'viewer', external)).resolves.toBe(false);
    await expect(access.holds(CUSTOMER, SHARED, 'viewer', { teamId: HOME })).resolves.toBe(true);
  });

  it('refuses a guest in one sentence that names the external grants', async () => {
    const access = new AccessControl(mspSettings(msp));
    const refusal = access.authorize({
      userId: ALICE,
      channelId: SHARED,
      needs: 'operator',
      action: '`/fw devices delete`',
      ...external,
    });
    await expect(refusal).rejects.toBeInstanceOf(PermissionError);
    await expect(refusal).rejects.toThrow(
      /guest from another organization; you hold viewer.*policy\.channels\.<channel>\.external/,
    );
  });

  it('looks roles up in the policy of the workspace the request came from', async () => {
    const access = new AccessControl(mspSettings(msp));
    const customerSide = { teamId: CUSTOMER_TEAM };
    await expect(access.holds(CUSTOMER, CUSTOMER_OWN, 'operator', customerSide)).resolves.toBe(true);
    // The home workspace's grants do not reach the customer's workspace: Alice is nobody there but a viewer.
    await expect(access.holds(ALICE, CUSTOMER_OWN, 'operator', customerSide)).resolves.toBe(false);
    await expect(access.holds(CAROL, CUSTOMER_OWN, 'admin', customerSide)).resolves.toBe(false);
    await expect(access.holds(ALICE, OPS, 'operator', { teamId: HOME })).resolves.toBe(true);
  });

  it('gives nobody a role in a workspace the profiles file does not configure, and says how to add it', async () => {
    const access = new AccessControl(mspSettings(msp));
    await expect(access.holds(CAROL, OPS, 'viewer', { teamId: STRANGER_TEAM })).resolves.toBe(false);
    await expect(
      access.authorize({
        userId: CAROL,
        channelId: OPS,
        needs: 'viewer',
        action: '`/fw devices`',
        teamId: STRANGER_TEAM,
      }),
    ).rejects.toThrow(
      `fwbot is not set up for this Slack workspace (${STRANGER_TEAM}), so nobody holds a role here; an admin of fwbot adds it under \`workspaces.${STRANGER_TEAM}\``,
    );
  });

  it('lets external people into customer channels and channels with external grants only', () => {
    const access = new AccessControl(mspSettings(msp, { customerChannels: new Set(['C0FABRIK01']) }));
    expect(access.admitsExternal(SHARED)).toBe(true);
    expect(access.admitsExternal('C0FABRIK01')).toBe(true);
    expect(access.admitsExternal(OPS)).toBe(false);
  });

  it('counts every channel of a workspace bound to a tenant as a customer channel, and a tenant binding as one', () => {
    const CONTOSO_TEAM = 'T0CONTOSO1';
    const access = new AccessControl(
      mspSettings(msp, {
        channels: new Map([['C0NORTHWND1', { profile: 'default', tenant: 'northwind-us' }]]),
        workspaces: new Map([
          [CONTOSO_TEAM, { policy: null, binding: { profile: 'default', tenant: 'contoso-eu' } }],
          [CUSTOMER_TEAM, { policy: null, binding: { profile: 'default' } }],
        ]),
      }),
    );
    // workspaces.<team>.tenant alone makes any channel of that workspace one of the tenant's.
    expect(access.admitsExternal('C0ANYCHAN1', { teamId: CONTOSO_TEAM })).toBe(true);
    expect(access.admitsExternal('C0ANYCHAN1', { teamId: CUSTOMER_TEAM })).toBe(false);
    expect(access.admitsExternal('C0ANYCHAN1', { teamId: HOME })).toBe(false);
    // A channel bound to a tenant in the profiles file, though not listed among customerChannels.
    expect(access.admitsExternal('C0NORTHWND1', { teamId: HOME })).toBe(true);
  });
});
