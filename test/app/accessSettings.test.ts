// The policy the bot assembles from its configuration (src/app/surface.ts accessSettingsFrom), loaded from
// a real environment and profiles file in OAuth mode (issue 29): a workspace the profiles file does not
// list holds no role (it does not fall back to the home workspace's policy), and a customer channel lets
// external people in (Slack Connect) even without `external` grants, while they hold nothing there.
import { describe, expect, it } from 'vitest';
import { accessSettingsFrom } from '../../src/app/surface.js';
import { loadConfig } from '../../src/config.js';
import { AccessControl } from '../../src/policy/access.js';
import { fake } from '../config/support.js';

const HOME = 'T0MSPHOME1';
const CUSTOMER_WORKSPACE = 'T0CUSTOMR1';
const UNLISTED = 'T0STRANGER';

const oauthEnv = {
  SCC_API_TOKEN: fake.sccToken,
  ACME_SCC_TOKEN: fake.acmeToken,
  SLACK_CLIENT_ID: '1111111111.2222222222',
  SLACK_CLIENT_SECRET: '5ec4e7c11e47a7d1f0e2d3c4b5a69788',
  FWBOT_INSTALL_KEY: Buffer.alloc(32, 7).toString('base64'),
  SLACK_SIGNING_SECRET: fake.signingSecret,
  SLACK_TEAM_ID: HOME,
  FWBOT_PROFILES: '/profiles.yaml',
};

const profilesFile = `profiles:
  acme: { region: eu, token_env: ACME_SCC_TOKEN }
channels:
  C0MSPOPS01: acme
  C0CONTOSO1: { profile: acme, tenant: contoso-eu }
policy:
  workspace: { viewer: '*', operator: [U0MSPOPS01] }
workspaces:
  ${CUSTOMER_WORKSPACE}:
    profile: acme
    channels:
      C0CUSTCH01: { profile: acme, tenant: contoso-eu }
    policy:
      workspace: { viewer: '*' }
`;

function access(mode: 'oauth' | 'single' = 'oauth'): AccessControl {
  const env =
    mode === 'oauth'
      ? oauthEnv
      : {
          SCC_API_TOKEN: fake.sccToken,
          ACME_SCC_TOKEN: fake.acmeToken,
          SLACK_BOT_TOKEN: fake.botToken,
          SLACK_SIGNING_SECRET: fake.signingSecret,
          FWBOT_PROFILES: '/profiles.yaml',
        };
  const config = loadConfig(env, { require: { slack: true, scc: true }, readFile: () => profilesFile });
  return new AccessControl(accessSettingsFrom(config));
}

describe('the policy the bot assembles', () => {
  it('gives nobody a role in a workspace the profiles file does not list (OAuth mode)', async () => {
    const policy = access();
    expect(await policy.rolesOf('U0ANYONE01', 'C0THEIRS01', { teamId: UNLISTED })).toEqual(new Set());
    await expect(
      policy.authorize({
        userId: 'U0ANYONE01',
        channelId: 'C0THEIRS01',
        teamId: UNLISTED,
        needs: 'viewer',
        action: '`/fw devices`',
      }),
    ).rejects.toThrow(`workspaces.${UNLISTED}`);
    // The home workspace and a listed one keep their own policies.
    expect(await policy.rolesOf('U0MSPOPS01', 'C0MSPOPS01', { teamId: HOME })).toContain('operator');
    expect(await policy.rolesOf('U0CUST0001', 'C0CUSTCH01', { teamId: CUSTOMER_WORKSPACE })).toEqual(
      new Set(['viewer']),
    );
  });

  it('lets external people into customer channels (home and a workspace’s), holding nothing there', async () => {
    const policy = access();
    expect(policy.admitsExternal('C0CONTOSO1', { teamId: HOME })).toBe(true);
    expect(policy.admitsExternal('C0CUSTCH01', { teamId: CUSTOMER_WORKSPACE })).toBe(true);
    expect(policy.admitsExternal('C0MSPOPS01', { teamId: HOME })).toBe(false);
    expect(await policy.rolesOf('U0CUST0001', 'C0CONTOSO1', { teamId: HOME, external: true })).toEqual(
      new Set(),
    );
  });

  it('takes every workspace for the home one in single-workspace mode (the binding lets no other in)', async () => {
    const policy = access('single');
    expect(await policy.rolesOf('U0MSPOPS01', 'C0MSPOPS01', { teamId: 'T0WHATEVER' })).toContain('operator');
  });
});
