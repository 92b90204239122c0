// The FWBOT_PROFILES file: profiles, channel bindings, the role policy, approval and audit settings, and
// every way the file can be wrong, each reported with the file and line.
import { afterAll, describe, expect, it } from 'vitest';
import { profilesFileExample } from '../../src/config/reference.js';
import { type Config, type Environment, loadConfig } from '../../src/config.js';
import { fake, issueAbout, issuesOf, ProfilesFiles } from './support.js';

const files = new ProfilesFiles();
afterAll(() => files.cleanup());

const tokens = { ACME_SCC_TOKEN: fake.acmeToken, LAB_SCC_TOKEN: fake.labToken };

async function load(yaml: string, env: Environment = tokens): Promise<Config> {
  return loadConfig({ ...env, FWBOT_PROFILES: await files.write(yaml) });
}

/** Writes the file and returns its path and the issues loadConfig reports for it. */
async function problems(yaml: string, env: Environment = tokens) {
  const path = await files.write(yaml);
  return { path, issues: issuesOf({ ...env, FWBOT_PROFILES: path }) };
}

const acme = 'profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN }\n';

describe('a good profiles file', () => {
  it('loads the README example: profiles, bindings, policy, approvals and audit', async () => {
    const config = await load(profilesFileExample, { ...tokens, SCC_API_TOKEN: fake.sccToken });

    expect([...config.profiles.keys()]).toEqual(['default', 'acme', 'lab']);
    expect(config.profiles.get('acme')).toMatchObject({
      name: 'acme',
      baseUrl: 'https://api.eu.security.cisco.com/firewall',
      region: 'eu',
      tokenVariable: 'ACME_SCC_TOKEN',
      source: 'file',
    });
    expect(config.profiles.get('acme')?.token.reveal()).toBe(fake.acmeToken);
    expect(config.profiles.get('lab')).toMatchObject({ baseUrl: 'http://127.0.0.1:4010', source: 'file' });
    expect(config.profiles.get('lab')?.region).toBeUndefined();

    expect(Object.fromEntries(config.channelBindings)).toEqual({
      C0123ABCD: { profile: 'acme' },
      G0123ABCD: { profile: 'lab' },
    });
    expect(config.profileForChannel('C0123ABCD')?.name).toBe('acme');
    expect(config.profileForChannel('G0123ABCD')?.name).toBe('lab');
    expect(config.profileForChannel('C9999ZZZZ')?.name).toBe('default');

    expect(config.policy?.workspace).toEqual({
      viewer: ['*'],
      operator: [],
      approver: [],
      admin: ['U0123ADMIN'],
    });
    expect(config.policy?.channels.get('C0123ABCD')).toEqual({
      viewer: [],
      operator: ['U0123OPER1', 'S0123NETOPS'],
      approver: ['U0123APPR1'],
      admin: [],
    });
    expect(config.approvals).toEqual({
      expiryMinutes: 30,
      allowSelfApproval: false,
      requireForVpnUpgrades: true,
      deployWithChange: false,
      operations: { 'vpn.upgrade': 'four-eyes' },
      approvers: [],
    });
    expect(config.audit).toEqual({ retentionDays: 90 });
  });

  it('leaves channels without a binding with no profile when SCC_API_TOKEN is unset', async () => {
    const config = await load(`${acme}channels:\n  C0123ABCD: acme\n`);
    expect(config.profileForChannel('C0123ABCD')?.name).toBe('acme');
    expect(config.profileForChannel('C9999ZZZZ')).toBeUndefined();
  });

  it('may define the profile default itself when SCC_API_TOKEN is unset', async () => {
    const config = await load('profiles:\n  default: { region: apj, token_env: ACME_SCC_TOKEN }\n');
    expect(config.profileForChannel('C9999ZZZZ')?.baseUrl).toBe(
      'https://api.apj.security.cisco.com/firewall',
    );
  });

  it('accepts a profile that no channel is bound to (admins can still choose it)', async () => {
    expect((await load(acme)).profiles.get('acme')?.name).toBe('acme');
  });

  it('binds a channel to the default profile of SCC_API_TOKEN', async () => {
    const config = await load('channels:\n  D0123ABCD: default\n', { SCC_API_TOKEN: fake.sccToken });
    expect(config.profileForChannel('D0123ABCD')?.source).toBe('env');
  });

  it('treats an empty file as one that configures nothing', async () => {
    const config = await load('# nothing here yet\n');
    expect(config.policy).toBeNull();
    expect(config.profiles.size).toBe(0);
    expect(config.approvals.expiryMinutes).toBe(30);
  });

  it('records where it came from', async () => {
    const path = await files.write(acme);
    expect(loadConfig({ ...tokens, FWBOT_PROFILES: path }).profilesFile).toBe(path);
  });

  it('can be read through an injected reader', () => {
    const config = loadConfig(
      { ...tokens, FWBOT_PROFILES: '/virtual/profiles.yaml' },
      { readFile: () => acme },
    );
    expect(config.profiles.get('acme')?.region).toBe('eu');
  });
});

describe('YAML errors', () => {
  it.each([
    ['an unclosed flow map', `profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN\nchannels: {}\n`, 3],
    ['a duplicate key', `${acme}  acme: { region: us, token_env: ACME_SCC_TOKEN }\n`, 3],
    ['a tab as indentation', 'profiles:\n\tacme: {}\n', 2],
    ['a bad indent', 'profiles:\n  acme:\n    region: eu\n   token_env: ACME_SCC_TOKEN\n', 4],
    ['two documents', `${acme}---\naudit: {}\n`, 3],
    ['an unknown tag', 'profiles: !custom {}\n', 1],
  ])('reports %s with the file and line', async (_what, yaml, line) => {
    const { path, issues } = await problems(yaml);
    const issue = issueAbout(issues, path);
    expect(issue.line).toBe(line);
    expect(issue.problem).toMatch(/^is not valid YAML: /);
  });

  it('puts file:line in the message', async () => {
    const path = await files.write('profiles:\n\tacme: {}\n');
    expect(() => loadConfig({ FWBOT_PROFILES: path })).toThrow(
      `${path}:2: is not valid YAML: Tabs are not allowed`,
    );
  });

  it('refuses a file that is not a mapping', async () => {
    const { path, issues } = await problems('- acme\n- lab\n');
    expect(issueAbout(issues, path).problem).toMatch(/must be a mapping with the keys profiles, channels/);
  });

  it('reports a file that cannot be read', () => {
    const issue = issueAbout(
      issuesOf({ FWBOT_PROFILES: '/nonexistent/fwbot/profiles.yaml' }),
      'FWBOT_PROFILES',
    );
    expect(issue.problem).toBe(
      'names the file /nonexistent/fwbot/profiles.yaml, which cannot be read (no such file)',
    );
  });
});

describe('unknown keys', () => {
  it.each([
    [
      'profiles:\n  acme:\n    regoin: eu\n    token_env: ACME_SCC_TOKEN\n',
      'profiles.acme.regoin',
      3,
      'region',
    ],
    [`${acme}chanels:\n  C0123ABCD: acme\n`, 'chanels', 3, 'channels'],
    ['policy:\n  workspace:\n    operater: [U0123ABCD]\n', 'policy.workspace.operater', 3, 'operator'],
    ['approvals:\n  expiry_minute: 30\n', 'approvals.expiry_minute', 2, 'expiry_minutes'],
    ['audit: { retention: 30 }\n', 'audit.retention', 1, undefined],
  ])('refuses %j, suggesting the key meant', async (yaml, key, line, suggestion) => {
    const { path, issues } = await problems(yaml);
    const issue = issueAbout(issues, path, key);
    expect(issue.line).toBe(line);
    expect(issue.problem).toMatch(/^is not a known key/);
    if (suggestion === undefined) expect(issue.problem).not.toMatch(/did you mean/);
    else expect(issue.problem).toMatch(`did you mean ${suggestion}?`);
    expect(issue.problem).toMatch(/Keys allowed here: /);
  });

  it('reports unknown keys even when other values are wrong too', async () => {
    const { path, issues } = await problems(
      'profiles:\n  acme: { region: mars, token_env: ACME_SCC_TOKEN, tls: no }\n',
    );
    expect(issueAbout(issues, path, 'profiles.acme.region').problem).toMatch(/not an SCC region/);
    expect(issueAbout(issues, path, 'profiles.acme.tls').problem).toMatch(/not a known key/);
  });
});

describe('profiles', () => {
  it('refuses a literal token in the file, without repeating it', async () => {
    const { path, issues } = await problems(
      `profiles:\n  acme:\n    region: eu\n    token: ${fake.acmeToken}\n    token_env: ACME_SCC_TOKEN\n`,
    );
    const issue = issueAbout(issues, path);
    expect(issue).toMatchObject({
      line: 4,
      key: 'profiles.acme.token',
      example: 'token_env: ACME_SCC_TOKEN',
    });
    expect(issue.problem).toMatch(/looks like a token written into the file; tokens never go in this file/);
    expect(JSON.stringify(issues)).not.toContain(fake.acmeToken.slice(0, 20));
  });

  it('refuses a token under any credential-like key, even one that does not look like a token', async () => {
    const { path, issues } = await problems(
      'profiles:\n  acme:\n    region: eu\n    api_key: plain-value-123\n    token_env: ACME_SCC_TOKEN\n',
    );
    expect(issueAbout(issues, path).problem).toMatch(/looks like a token written into the file/);
  });

  it('refuses a token given where token_env expects a variable name', async () => {
    const { path, issues } = await problems(
      `profiles:\n  acme: { region: eu, token_env: ${fake.acmeToken} }\n`,
    );
    const issue = issueAbout(issues, path);
    expect(issue.line).toBe(2);
    expect(issue.problem).toMatch(/looks like a token/);
  });

  it('refuses a token_env that is not a variable name', async () => {
    const { path, issues } = await problems('profiles:\n  acme: { region: eu, token_env: acme-token }\n');
    expect(issueAbout(issues, path, 'profiles.acme.token_env').problem).toMatch(
      /name of an environment variable/,
    );
  });

  it('refuses a token_env that names one of fwbot’s own settings', async () => {
    const { path, issues } = await problems(
      'profiles:\n  acme: { region: eu, token_env: SLACK_BOT_TOKEN }\n',
      {
        SLACK_BOT_TOKEN: fake.botToken,
        SLACK_APP_TOKEN: fake.appToken,
      },
    );
    expect(issueAbout(issues, path, 'profiles.acme.token_env').problem).toMatch(/fwbot’s own settings/);
  });

  it.each([
    ['unset', {}],
    ['empty', { ACME_SCC_TOKEN: '' }],
    ['blank', { ACME_SCC_TOKEN: '  ' }],
  ])('refuses a token_env variable that is %s', async (_what, env) => {
    const { path, issues } = await problems(acme, env);
    const issue = issueAbout(issues, path, 'profiles.acme.token_env');
    expect(issue.line).toBe(2);
    expect(issue.problem).toBe(
      "names ACME_SCC_TOKEN, which is not set (or is empty); set it to this profile's SCC API token",
    );
  });

  it('checks the token found in the token_env variable like SCC_API_TOKEN', async () => {
    const { path, issues } = await problems(acme, { ACME_SCC_TOKEN: `Bearer ${fake.acmeToken}` });
    expect(issueAbout(issues, path, 'profiles.acme.token_env').problem).toMatch(
      /value of ACME_SCC_TOKEN starts with "Bearer "/,
    );
  });

  it.each([
    [
      'both region and base_url',
      '{ region: eu, base_url: https://proxy.example.net, token_env: ACME_SCC_TOKEN }',
      /both region and base_url/,
    ],
    ['neither region nor base_url', '{ token_env: ACME_SCC_TOKEN }', /needs either region or base_url/],
  ])('refuses a profile with %s', async (_what, profile, problem) => {
    const { path, issues } = await problems(`profiles:\n  acme: ${profile}\n`);
    expect(issueAbout(issues, path, 'profiles.acme').problem).toMatch(problem);
  });

  it('applies the loopback rule to base_url', async () => {
    const { path, issues } = await problems(
      'profiles:\n  lab: { base_url: http://10.0.0.1:4010, token_env: LAB_SCC_TOKEN }\n',
    );
    const issue = issueAbout(issues, path, 'profiles.lab.base_url');
    expect(issue.problem).toMatch(/not a loopback address/);
    expect(issue.example).toBe('base_url: https://scc-proxy.example.net/firewall');
  });

  it('refuses a region that is not known', async () => {
    const { path, issues } = await problems(
      'profiles:\n  acme: { region: emea, token_env: ACME_SCC_TOKEN }\n',
    );
    expect(issueAbout(issues, path, 'profiles.acme.region')).toMatchObject({
      line: 2,
      example: 'region: eu',
    });
  });

  it.each(['Acme', '1st', 'a'.repeat(31)])('refuses the profile name %s', async (name) => {
    const { path, issues } = await problems(
      `profiles:\n  ${name}: { region: eu, token_env: ACME_SCC_TOKEN }\n`,
    );
    expect(issueAbout(issues, path).problem).toMatch(/must be a profile name/);
  });

  it('refuses a file profile named default while SCC_API_TOKEN defines it', async () => {
    const { path, issues } = await problems(
      'profiles:\n  default: { region: eu, token_env: ACME_SCC_TOKEN }\n',
      {
        ...tokens,
        SCC_API_TOKEN: fake.sccToken,
      },
    );
    expect(issueAbout(issues, path, 'profiles.default').problem).toMatch(
      /clashes with the profile `default`/,
    );
  });
});

describe('channel bindings', () => {
  it.each(['C0123ABCD', 'G0123ABCDEF', 'D0123ABCD'])('accepts the channel id %s', async (channel) => {
    expect((await load(`${acme}channels:\n  ${channel}: acme\n`)).channelBindings.get(channel)?.profile).toBe(
      'acme',
    );
  });

  it.each(['general', '"#general"', 'c0123abcd', 'U0123ABCD', 'C012'])(
    'refuses %s, which is not a channel id',
    async (channel) => {
      const { path, issues } = await problems(`${acme}channels:\n  ${channel}: acme\n`);
      const issue = issueAbout(issues, path);
      expect(issue.line).toBe(4);
      expect(issue.problem).toMatch(/is not a Slack channel id/);
      expect(issue.example).toBe('C0123ABCD: acme');
    },
  );

  it('refuses a binding to a profile that is not defined, suggesting the one meant', async () => {
    const { path, issues } = await problems(`${acme}channels:\n  C0123ABCD: acmee\n`);
    const issue = issueAbout(issues, path, 'channels.C0123ABCD');
    expect(issue.line).toBe(4);
    expect(issue.problem).toBe(
      'is bound to profile acmee, which is not defined (defined profiles: acme). Did you mean acme?',
    );
  });

  it('refuses a binding to default when nothing defines it', async () => {
    const { path, issues } = await problems(`${acme}channels:\n  C0123ABCD: default\n`);
    expect(issueAbout(issues, path, 'channels.C0123ABCD').problem).toMatch(
      /profile default, which is not defined/,
    );
  });
});

describe('customer channels and other workspaces (issue 29)', () => {
  const both = `profiles:
  acme: { region: eu, token_env: ACME_SCC_TOKEN }
  lab: { base_url: "http://127.0.0.1:4010", token_env: LAB_SCC_TOKEN }
`;

  it('reads a channel bound in the object form: a customer channel of one tenant, with its own profile', async () => {
    const config = await load(`${both}channels:
  C0123ABCD: acme
  C0CONTOSO1: { profile: acme, tenant: contoso-eu, tenant_profile: lab }
  C0NORTHWND1: { profile: acme, tenant: northwind-us }
`);
    expect(Object.fromEntries(config.channelBindings)).toEqual({
      C0123ABCD: { profile: 'acme' },
      C0CONTOSO1: { profile: 'acme', tenant: 'contoso-eu', tenantProfile: 'lab' },
      C0NORTHWND1: { profile: 'acme', tenant: 'northwind-us' },
    });
    // The channel's own profile is the MSP's; the tenant profile is for its device commands.
    expect(config.profileForChannel('C0CONTOSO1')?.name).toBe('acme');
  });

  it('reads workspaces.<team>: profile, tenant, tenant_profile, channels in both forms and its own policy', async () => {
    const config = await load(`${both}workspaces:
  T0CUSTOMR1:
    profile: acme
    tenant: contoso-eu
    tenant_profile: lab
    channels:
      C0CUSTCH01: lab
      C0CUSTCH02: { profile: acme, tenant: contoso-eu }
    policy:
      workspace: { viewer: '*' }
      channels:
        C0CUSTCH01: { operator: [U0CUST0001] }
  E0GRIDORG1:
    profile: acme
`);
    expect([...config.workspaces.keys()]).toEqual(['T0CUSTOMR1', 'E0GRIDORG1']);
    const customer = config.workspaces.get('T0CUSTOMR1');
    expect(customer?.teamId).toBe('T0CUSTOMR1');
    expect(customer?.binding).toEqual({ profile: 'acme', tenant: 'contoso-eu', tenantProfile: 'lab' });
    expect(Object.fromEntries(customer?.channels ?? [])).toEqual({
      C0CUSTCH01: { profile: 'lab' },
      C0CUSTCH02: { profile: 'acme', tenant: 'contoso-eu' },
    });
    expect(customer?.policy?.workspace.viewer).toEqual(['*']);
    expect(customer?.policy?.channels.get('C0CUSTCH01')?.operator).toEqual(['U0CUST0001']);
    // The home workspace's bindings and policy are untouched by a workspace's.
    expect(config.channelBindings.size).toBe(0);
    expect(config.policy).toBeNull();
    // An org-wide install: no tenant, no channels, no policy (nobody holds a role there).
    const grid = config.workspaces.get('E0GRIDORG1');
    expect(grid?.binding).toEqual({ profile: 'acme' });
    expect(grid?.channels.size).toBe(0);
    expect(grid?.policy).toBeNull();
  });

  it.each([
    [
      'channels.C0CONTOSO1.tenant_profile',
      'channels:\n  C0CONTOSO1: { profile: acme, tenant_profile: lab }\n',
    ],
    [
      'workspaces.T0CUSTOMR1.tenant_profile',
      'workspaces:\n  T0CUSTOMR1: { profile: acme, tenant_profile: lab }\n',
    ],
    [
      'workspaces.T0CUSTOMR1.channels.C0CUSTCH01.tenant_profile',
      'workspaces:\n  T0CUSTOMR1:\n    profile: acme\n    channels: { C0CUSTCH01: { profile: acme, tenant_profile: lab } }\n',
    ],
  ])('refuses tenant_profile without tenant, naming the key %s', async (key, yaml) => {
    const { path, issues } = await problems(`${both}${yaml}`);
    expect(issueAbout(issues, path, key).problem).toMatch(
      /^is set without tenant; .* so name the tenant too$/,
    );
  });

  it.each([
    [
      'channels.C0CONTOSO1.profile',
      'channels:\n  C0CONTOSO1: { profile: acmee, tenant: contoso-eu }\n',
      'acmee',
    ],
    [
      'channels.C0CONTOSO1.tenant_profile',
      'channels:\n  C0CONTOSO1: { profile: acme, tenant: contoso-eu, tenant_profile: lba }\n',
      'lba',
    ],
    ['workspaces.T0CUSTOMR1.profile', 'workspaces:\n  T0CUSTOMR1: { profile: acmee }\n', 'acmee'],
    [
      'workspaces.T0CUSTOMR1.tenant_profile',
      'workspaces:\n  T0CUSTOMR1: { profile: acme, tenant: contoso-eu, tenant_profile: lba }\n',
      'lba',
    ],
    [
      'workspaces.T0CUSTOMR1.channels.C0CUSTCH01.profile',
      'workspaces:\n  T0CUSTOMR1:\n    profile: acme\n    channels: { C0CUSTCH01: { profile: acmee } }\n',
      'acmee',
    ],
  ])('refuses an undefined profile at %s, suggesting the one meant', async (key, yaml, typed) => {
    const { path, issues } = await problems(`${both}${yaml}`);
    const meant = typed === 'lba' ? 'lab' : 'acme';
    expect(issueAbout(issues, path, key).problem).toBe(
      `names profile ${typed}, which is not defined (defined profiles: acme, lab). Did you mean ${meant}?`,
    );
  });

  it('refuses a channel of a workspace bound, in the short form, to an undefined profile', async () => {
    const { path, issues } = await problems(
      `${both}workspaces:\n  T0CUSTOMR1:\n    profile: acme\n    channels:\n      C0CUSTCH01: acmee\n`,
    );
    const issue = issueAbout(issues, path, 'workspaces.T0CUSTOMR1.channels.C0CUSTCH01');
    expect(issue.line).toBe(8);
    expect(issue.problem).toMatch(/^is bound to profile acmee, which is not defined .* Did you mean acme\?$/);
  });

  it.each(['customer', 't0customr1', 'C0CUSTCH01', 'U0CUST0001', 'T012'])(
    'refuses %s under workspaces, which is not a team id',
    async (team) => {
      const { path, issues } = await problems(`${both}workspaces:\n  ${team}: { profile: acme }\n`);
      const issue = issueAbout(issues, path);
      expect(issue.line).toBe(5);
      expect(issue.problem).toMatch(/is not a Slack team id \(T…, or E… for an Enterprise Grid organization/);
    },
  );
});

describe('role policy', () => {
  it('accepts users, Enterprise Grid users, user groups and everyone; a single id without brackets', async () => {
    const config = await load(
      'policy:\n  workspace:\n    viewer: "*"\n    operator: [U0123ABCD, W0123ABCD, S0123ABCD]\n    admin: U0123ADMIN\n',
    );
    expect(config.policy?.workspace).toEqual({
      viewer: ['*'],
      operator: ['U0123ABCD', 'W0123ABCD', 'S0123ABCD'],
      approver: [],
      admin: ['U0123ADMIN'],
    });
    expect(config.policy?.channels.size).toBe(0);
  });

  it('is configured, granting nothing, when the section is there but empty of grants', async () => {
    const config = await load('policy: {}\n');
    expect(config.policy).not.toBeNull();
    expect(config.policy?.workspace.viewer).toEqual([]);
  });

  it.each([
    ['@alice', /not a Slack user id/],
    ['C0123ABCD', /not a Slack user id/],
    ['u0123abcd', /not a Slack user id/],
  ])('refuses the grantee %s', async (grantee, problem) => {
    const { path, issues } = await problems(`policy:\n  workspace:\n    operator: ["${grantee}"]\n`);
    const issue = issueAbout(issues, path, 'policy.workspace.operator[0]');
    expect(issue.line).toBe(3);
    expect(issue.problem).toMatch(problem);
  });

  it('refuses admin for everyone', async () => {
    const { path, issues } = await problems('policy:\n  channels:\n    C0123ABCD:\n      admin: ["*"]\n');
    expect(issueAbout(issues, path, 'policy.channels.C0123ABCD.admin[0]').problem).toMatch(
      /admin cannot be granted to everyone/,
    );
  });

  it('refuses a per-channel grant under something that is not a channel id', async () => {
    const { path, issues } = await problems(
      'policy:\n  channels:\n    netops:\n      operator: [U0123ABCD]\n',
    );
    expect(issueAbout(issues, path, 'policy.channels.netops')).toMatchObject({ line: 3 });
  });

  it('refuses a grant list that is empty in YAML', async () => {
    const { path, issues } = await problems('policy:\n  workspace:\n    admin:\n');
    expect(issueAbout(issues, path, 'policy.workspace.admin').problem).toBe('is empty; expected a list');
  });
});

describe('approvals and audit', () => {
  it('takes the settings given and defaults the rest', async () => {
    const config = await load(
      'approvals: { expiry_minutes: 120, allow_self_approval: true }\naudit: { retention_days: 365 }\n',
    );
    expect(config.approvals).toEqual({
      expiryMinutes: 120,
      allowSelfApproval: true,
      requireForVpnUpgrades: false,
      deployWithChange: false,
      operations: {},
      approvers: [],
    });
    expect(config.audit).toEqual({ retentionDays: 365 });
  });

  it('reads approvers rules with their keys, users once, min_approvers 1 unless given', async () => {
    const config = await load(
      "approvals:\n  approvers:\n    - { devices: 'name:asa-hq-*', approvers: [U0LEAD00001, S0NETSEC01, U0LEAD00001], min_approvers: 2 }\n    - { tenant: contoso-eu, approvers: U0MSP00001 }\n",
    );
    expect(config.approvals.approvers).toEqual([
      {
        key: 'approvals.approvers[0]',
        devices: 'name:asa-hq-*',
        profile: undefined,
        tenant: undefined,
        approvers: ['U0LEAD00001', 'S0NETSEC01'],
        minApprovers: 2,
      },
      {
        key: 'approvals.approvers[1]',
        devices: undefined,
        profile: undefined,
        tenant: 'contoso-eu',
        approvers: ['U0MSP00001'],
        minApprovers: 1,
      },
    ]);
  });

  it('reads the customer’s side of a tenant’s rule (customer_approvers), people once', async () => {
    const config = await load(
      'approvals:\n  approvers:\n    - { tenant: contoso-eu, approvers: [U0MSPLEAD1], customer_approvers: [U0CUSTLEAD, S0CUSTOMER, U0CUSTLEAD] }\n',
    );
    expect(config.approvals.approvers[0]).toMatchObject({
      tenant: 'contoso-eu',
      approvers: ['U0MSPLEAD1'],
      customerApprovers: ['U0CUSTLEAD', 'S0CUSTOMER'],
    });
  });

  it.each([
    ['approvals: { expiry_minutes: 0 }', 'approvals.expiry_minutes', 'must be at least 1'],
    ['approvals: { expiry_minutes: 10081 }', 'approvals.expiry_minutes', 'must be at most 10080'],
    ['approvals: { expiry_minutes: 1.5 }', 'approvals.expiry_minutes', 'must be a whole number'],
    ['approvals: { expiry_minutes: "30" }', 'approvals.expiry_minutes', 'must be a number'],
    ['approvals: { allow_self_approval: yes }', 'approvals.allow_self_approval', 'must be true or false'],
    [
      'approvals: { require_for_vpn_upgrades: 1 }',
      'approvals.require_for_vpn_upgrades',
      'must be true or false',
    ],
    ['audit: { retention_days: 0 }', 'audit.retention_days', 'must be at least 1'],
    ['audit: { retention_days: 4000 }', 'audit.retention_days', 'must be at most 3650'],
    ['audit: 90', 'audit', 'must be a mapping (key: value)'],
  ])('refuses %s', async (yaml, key, problem) => {
    const { path, issues } = await problems(`${yaml}\n`);
    const issue = issueAbout(issues, path, key);
    expect(issue.problem).toBe(problem);
    expect(issue.line).toBe(1);
    expect(issue.example).toBeDefined();
  });
});

describe('what is shown of devices’ answers (device_output)', () => {
  it('masks serial numbers unless the file shows them', async () => {
    expect((await load(acme)).deviceOutput).toEqual({ serialNumbers: 'masked' });
    expect((await load('device_output: { serial_numbers: shown }\n')).deviceOutput).toEqual({
      serialNumbers: 'shown',
    });
  });

  it.each([
    ['device_output: { serial_numbers: yes }', 'device_output.serial_numbers', 'must be masked or shown'],
    ['device_output: { activation_keys: shown }', 'device_output.activation_keys', undefined],
  ])('refuses %s', async (yaml, key, problem) => {
    const { path, issues } = await problems(`${yaml}\n`);
    const issue = issueAbout(issues, path, key);
    if (problem) expect(issue.problem).toBe(problem);
    expect(issue.line).toBe(1);
  });
});

describe('the change process (changes)', () => {
  it('defaults to no tickets, no policy windows and 30 days of snapshots', async () => {
    const config = await load(acme);
    expect(config.changes).toEqual({
      ticket: 'off',
      ticketPattern: undefined,
      ticketUrl: undefined,
      windows: [],
      snapshotRetentionDays: 30,
    });
  });

  it('reads tickets, windows (one crossing midnight) and snapshot retention', async () => {
    const config = await load(
      `${acme}changes:
  ticket: required
  ticket_pattern: '^CHG[0-9]{7}$'
  ticket_url: 'https://acme.service-now.com/change_request.do?number={ticket}'
  windows:
    - devices: 'name:asa-*'
      profile: acme
      time_zone: Europe/Berlin
      open: [{ days: [sat, sun], from: '22:00', to: '04:00' }]
    - time_zone: UTC
      open: [{ days: wed, from: '01:30', to: '02:00' }]
  snapshots: { retention_days: 7 }
`,
    );
    expect(config.changes).toEqual({
      ticket: 'required',
      ticketPattern: '^CHG[0-9]{7}$',
      ticketUrl: 'https://acme.service-now.com/change_request.do?number={ticket}',
      windows: [
        {
          devices: 'name:asa-*',
          profile: 'acme',
          timeZone: 'Europe/Berlin',
          open: [{ days: ['sat', 'sun'], from: '22:00', to: '04:00', fromMinute: 1320, toMinute: 240 }],
        },
        {
          devices: undefined,
          profile: undefined,
          timeZone: 'UTC',
          open: [{ days: ['wed'], from: '01:30', to: '02:00', fromMinute: 90, toMinute: 120 }],
        },
      ],
      snapshotRetentionDays: 7,
    });
  });

  const window = (line: string) => `${acme}changes:\n  windows:\n    - ${line}\n`;

  it.each([
    ['changes: { ticket: maybe }', 'changes.ticket', 'must be required, optional or off', 1],
    [
      "changes: { ticket_pattern: '^CHG[0-9{7}$' }",
      'changes.ticket_pattern',
      'is not a valid regular expression',
      1,
    ],
    [
      "changes: { ticket_url: 'https://acme.service-now.com/change_request.do' }",
      'changes.ticket_url',
      'has no {ticket}, where the ticket goes',
      1,
    ],
    ["changes: { ticket_url: 'acme/{ticket}' }", 'changes.ticket_url', 'must be an http(s) URL', 1],
    [
      'changes: { snapshots: { retention_days: 0 } }',
      'changes.snapshots.retention_days',
      'must be at least 1',
      1,
    ],
    [
      "approvals: { approvers: [{ devices: 'name:asa-hq-*', approvers: [] }] }",
      'approvals.approvers[0].approvers',
      'names nobody; list the Slack user ids or user-group ids who approve',
      1,
    ],
    [
      "approvals: { approvers: [{ devices: 'name:asa-hq-*', approvers: [U0LEAD] }] }",
      'approvals.approvers[0].approvers[0]',
      'is not a Slack user id (U…/W…) or a user-group id (S…)',
      1,
    ],
    [
      "approvals: { approvers: [{ tenant: contoso-eu, approvers: ['*'] }] }",
      'approvals.approvers[0].approvers[0]',
      'is not a Slack user id (U…/W…) or a user-group id (S…)',
      1,
    ],
    [
      'approvals: { approvers: [{ approvers: [U0LEAD00001] }] }',
      'approvals.approvers[0]',
      'needs devices, profile or tenant: what its approvers approve',
      1,
    ],
    [
      'approvals: { approvers: [{ profile: default, approvers: [U0LEAD00001], min_approvers: 2 }] }',
      'approvals.approvers[0].min_approvers',
      'asks for 2 approvers but the rule names 1',
      1,
    ],
    [
      'approvals: { approvers: [{ profile: default, approvers: [U0LEAD00001], customer_approvers: [U0CUSTLEAD] }] }',
      'approvals.approvers[0].customer_approvers',
      'needs tenant: the customer’s approvers approve for one managed tenant; name it with tenant',
      1,
    ],
    [
      'approvals: { approvers: [{ tenant: contoso-eu, approvers: [U0LEAD00001], customer_approvers: [U0LEAD00001] }] }',
      'approvals.approvers[0].customer_approvers',
      'names U0LEAD00001 on both sides; one person cannot approve for the MSP and for the customer',
      1,
    ],
  ])('refuses %s, naming the key', async (yaml, key, problem, line) => {
    const { path, issues } = await problems(`${yaml}\n`);
    const issue = issueAbout(issues, path, key);
    expect(issue.problem).toBe(problem);
    expect(issue.line).toBe(line);
  });

  it.each([
    [
      "{ time_zone: Europe/Berlim, open: [{ days: [sat], from: '22:00', to: '04:00' }] }",
      'changes.windows[0].time_zone',
      /is not a time zone this system knows/,
    ],
    [
      "{ time_zone: UTC, open: [{ days: [sat], from: '24:00', to: '04:00' }] }",
      'changes.windows[0].open[0].from',
      /must be a time of day as HH:MM/,
    ],
    [
      "{ time_zone: UTC, open: [{ days: [saturday], from: '22:00', to: '04:00' }] }",
      'changes.windows[0].open[0].days[0]',
      /must be a day: mon, tue/,
    ],
    [
      "{ time_zone: UTC, open: [{ days: [sat], from: '22:00', to: '22:00' }] }",
      'changes.windows[0].open[0].to',
      /is the same time as from/,
    ],
    ['{ time_zone: UTC, open: [] }', 'changes.windows[0].open', /lists no opening/],
    [
      "{ profile: acm, time_zone: UTC, open: [{ days: [sat], from: '22:00', to: '04:00' }] }",
      'changes.windows[0].profile',
      /names profile acm, which is not defined. Did you mean acme\?/,
    ],
  ])('refuses the window %s, naming the key', async (yaml, key, problem) => {
    const { path, issues } = await problems(window(yaml));
    const issue = issueAbout(issues, path, key);
    expect(issue.problem).toMatch(problem);
    expect(issue.line).toBe(5);
  });
});

describe('the responder’s fast path (response)', () => {
  it('lets an operator shun alone up to 4h and disconnect alone, when the file says nothing', async () => {
    expect((await load(acme)).response).toEqual({ shunAloneUpToMs: 4 * 3_600_000, disconnectAlone: true });
  });

  it('reads shun_alone_up_to in minutes, hours or days, and 0 for never alone', async () => {
    expect((await load('response: { shun_alone_up_to: 90m }\n')).response.shunAloneUpToMs).toBe(5_400_000);
    expect((await load('response: { shun_alone_up_to: 2d }\n')).response.shunAloneUpToMs).toBe(172_800_000);
    expect((await load('response: { shun_alone_up_to: 0 }\n')).response.shunAloneUpToMs).toBe(0);
  });

  it('follows the shun policy for a disconnect the file leaves out, and the file when it says', async () => {
    expect((await load('response: { shun_alone_up_to: 0 }\n')).response.disconnectAlone).toBe(false);
    expect((await load('response: { shun_alone_up_to: 1h }\n')).response.disconnectAlone).toBe(true);
    expect((await load('response: { shun_alone_up_to: 0, disconnect_alone: true }\n')).response).toEqual({
      shunAloneUpToMs: 0,
      disconnectAlone: true,
    });
    expect((await load('response: { disconnect_alone: false }\n')).response).toEqual({
      shunAloneUpToMs: 4 * 3_600_000,
      disconnectAlone: false,
    });
  });

  const badDuration = 'must be a duration such as 4h, 90m or 1d (at most 30d), or 0 for never alone';
  it.each([
    ['response: { shun_alone_up_to: 4 }', 'response.shun_alone_up_to', badDuration],
    ['response: { shun_alone_up_to: [4h] }', 'response.shun_alone_up_to', badDuration],
    ['response: { shun_alone_up_to: 4 hours }', 'response.shun_alone_up_to', badDuration],
    ['response: { shun_alone_up_to: 31d }', 'response.shun_alone_up_to', badDuration],
    ['response: { shun_alone_up_to: -1h }', 'response.shun_alone_up_to', badDuration],
    ['response: { disconnect_alone: yes }', 'response.disconnect_alone', 'must be true or false'],
    ['response: { disconnect_alone: 1 }', 'response.disconnect_alone', 'must be true or false'],
    [
      'response: { shun_alone_for: 2h }',
      'response.shun_alone_for',
      'is not a known key; did you mean shun_alone_up_to? Keys allowed here: shun_alone_up_to, disconnect_alone',
    ],
  ])('refuses %s, naming the key', async (yaml, key, problem) => {
    const { path, issues } = await problems(`${yaml}\n`);
    const issue = issueAbout(issues, path, key);
    if (problem) expect(issue.problem).toBe(problem);
    expect(issue.line).toBe(1);
  });
});
