import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type Harness, OPERATORS_GROUP, startHarness, USERS } from './support/harness.js';

async function reply(h: Harness, text: string, userId: string): Promise<string> {
  const { responseUrl } = await h.command(text, { userId });
  return blocksText((await h.reply(responseUrl)).args);
}

describe('permissions under a role policy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tokens: { readonly: 'sim-read-only' } });
  });
  afterAll(async () => {
    await h.stop();
  });
  afterEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  it('refuses a change to a viewer, naming the role, before any SCC call', async () => {
    const text = await reply(h, 'tenants create acme-new', USERS.viewer);
    expect(text).toBe(
      ':no_entry: `/fw tenants create` needs the *operator* role in this channel; you hold viewer. An admin ' +
        'can grant it in the `policy` section of the profiles file; see docs/operating/roles-and-permissions.md.',
    );
    expect(h.sim.requestLog.list()).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('does not open a form for someone who may not use it', async () => {
    const text = await reply(h, 'tenants create', USERS.viewer);
    expect(text).toContain('needs the *operator* role');
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
  });

  it('lets an admin choose another profile with --profile, and refuses it to others', async () => {
    const refused = await reply(h, 'devices --profile readonly', USERS.operator);
    expect(refused).toContain(
      'Choosing a profile with `--profile` needs the *admin* role; you hold viewer, operator.',
    );
    expect(h.sim.requestLog.list()).toHaveLength(0);
    // The read-only profile's token cannot change anything: SCC's 403 shows the override took effect.
    const forbidden = await reply(h, 'tenants mcd enable globex-apj --profile readonly', USERS.admin);
    expect(forbidden).toMatch(/^Could not .*SCC refused the request \(403 FORBIDDEN\): /);
  });

  it('refuses an unknown profile by name', async () => {
    expect(await reply(h, 'devices --profile nope', USERS.admin)).toBe(
      'There is no SCC profile named `nope`. Profiles: `default`, `readonly`.',
    );
  });
});

describe('permissions granted to a user group', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('grants roles to members of a user group, looked up once in Slack (Tier 2) and cached', async () => {
    await h.command('tenants mcd enable globex-apj', { userId: USERS.groupMember });
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(blocksText(post.args)).toContain(`<@${USERS.groupMember}>`);
    const refused = await reply(h, 'tenants mcd enable contoso-eu', USERS.outsider);
    expect(refused).toContain('needs the *operator* role');
    expect(h.slack.callsTo('usergroups.users.list').map((c) => c.args.usergroup)).toEqual([OPERATORS_GROUP]);
  });
});

describe('permissions with no policy configured', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ policy: null });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('lets everyone read', async () => {
    expect(await reply(h, 'devices', USERS.outsider)).toContain('asa-hq-01');
  });

  it('lets nobody change anything, and says how to grant roles', async () => {
    const text = await reply(h, 'tenants mcd enable globex-apj', USERS.admin);
    expect(text).toBe(
      ':no_entry: `/fw tenants mcd enable` changes SCC, and no role policy is configured: everyone may read, ' +
        'nobody may change anything. An admin grants roles in the `policy` section of the profiles file ' +
        '(FWBOT_PROFILES); see docs/operating/roles-and-permissions.md.',
    );
    expect(
      h.sim.requestLog.list({ operationId: 'enableMulticloudDefenseForTenantInMspPortal' }),
    ).toHaveLength(0);
  });
});
