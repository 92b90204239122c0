// What the dispatcher decides for every Slack call, tried the way an attacker with a signed request would:
// privileged calls that are not deletes go to a second person, buttons reach only what their declaration
// allows, an operation that acts on another channel is checked there, and a huge or hostile SCC cannot
// make a name lookup page without end. Judged by effects: the simulator's request log, the approval gate,
// the fake Slack's calls and the audit records.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpgradeWatch, WatchRegistry } from '../../src/catalogue/operation.js';
import type { RoleGrants } from '../../src/config/policy.js';
import { COMMAND_ACTION, encodePageState, PAGE_ACTION, SHARE_ACTION } from '../../src/render/paging.js';
import {
  blocksText,
  CHANNEL,
  clickPayload,
  type Harness,
  LAB_CHANNEL,
  STANDARD_POLICY,
  startHarness,
  USERS,
} from './support/harness.js';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

describe('governance: privileged calls and what buttons can reach', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
    h.gate.requests.length = 0;
    h.audit.length = 0;
  });

  it('sends a gateway request that is not a GET to a second person, with the FMC bound by UUID', async () => {
    await h.command('gateway run cdfmc-acme DELETE /api/fmc_config/v1/domain/d1/object/networks/n1', {
      userId: USERS.operator,
    });
    await vi.waitFor(() => expect(h.gate.requests).toHaveLength(1), { timeout: 10_000 });
    const [asked] = h.gate.requests;
    expect(asked?.operation.id).toBe('gateway.run');
    expect(asked?.raw['fmc-device']).toBe(h.sim.deviceUid('cdfmc-acme'));
    expect(asked?.target.description.warnings.join(' ')).toMatch(/no undo/);
    expect(h.sim.requestLog.list({ operationId: 'executeDeviceCommand' })).toHaveLength(0);
  });

  it('runs a gateway GET at once, and still leaves an audit record of it', async () => {
    const { responseUrl } = await h.command(
      'gateway run cdfmc-acme GET /api/fmc_platform/v1/info/serverversion --async',
      { userId: USERS.operator },
    );
    await vi.waitFor(() => expect(h.audit).toHaveLength(1), { timeout: 10_000 });
    expect(h.gate.requests).toHaveLength(0);
    expect(h.audit[0]).toMatchObject({
      actor: USERS.operator,
      action: 'executed',
      operationId: 'gateway.run',
      target: 'GET /api/fmc_platform/v1/info/serverversion on FMC cdfmc-acme',
    });
    expect(h.sim.requestLog.list({ operationId: 'executeDeviceCommand' })).toHaveLength(1);
    expect(responseUrl).toBeDefined();
  });

  it('refuses a "Share in channel" button whose value is a change, and runs nothing', async () => {
    const url = h.slack.responseUrl();
    const value = '/fw tenants users add contoso-eu mallory@evil.example --role super-admin';
    await h.interact(clickPayload({ actionId: `${SHARE_ACTION}:0`, value }, USERS.operator, url));
    expect(blocksText((await h.reply(url)).args)).toMatch(/cannot run this/);
    expect(h.gate.requests).toHaveLength(0);
    expect(h.sim.requestLog.list({ operationId: 'addUsersToTenantInMspPortal' })).toHaveLength(0);
    expect(h.audit).toMatchObject([{ action: 'refused', operationId: 'tenants.users.add' }]);
  });

  it('refuses a paging button that names an operation without pages', async () => {
    const url = h.slack.responseUrl();
    const value = encodePageState('tenants.remove', { tenant: 'contoso-eu' }, 0) ?? '';
    await h.interact(clickPayload({ actionId: `${PAGE_ACTION}:0`, value }, USERS.operator, url));
    expect(blocksText((await h.reply(url)).args)).toMatch(/cannot run this/);
    expect(h.gate.requests).toHaveLength(0);
  });

  it('runs a command button only for operations offered as buttons, and with the clicker’s roles', async () => {
    const refused = h.slack.responseUrl();
    const value = 'tenants remove contoso-eu';
    await h.interact(clickPayload({ actionId: `${COMMAND_ACTION}:0`, value }, USERS.operator, refused));
    expect(blocksText((await h.reply(refused)).args)).toMatch(/cannot run this/);
    const viewer = h.slack.responseUrl();
    await h.interact(
      clickPayload({ actionId: `${COMMAND_ACTION}:1`, value: 'deploy asa-hq-01' }, USERS.viewer, viewer),
    );
    expect(blocksText((await h.reply(viewer)).args)).toMatch(/needs the \*operator\* role/);
    expect(h.gate.requests).toHaveLength(0);
  });

  it('refuses a command carrying something that looks like a token before anything runs', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
    const { responseUrl } = await h.command(`tenants show ${jwt}`, { userId: USERS.viewer });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(/looks like it contains an API token/);
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });
});

describe('governance: an operation that acts on another channel', () => {
  const watches: UpgradeWatch[] = [];
  const registry: WatchRegistry = {
    async watch(watch) {
      watches.push(watch);
      return { created: true };
    },
    async unwatch() {
      return { removed: true };
    },
    async list() {
      return watches;
    },
  };
  const OTHER_PROFILE_CHANNEL = 'C0OTHERPRO1';
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      policy: {
        workspace: grants({ viewer: ['*'] }),
        // The operator runs changes in #ops and in the channel bound to another profile, not in #lab.
        channels: new Map([
          [CHANNEL, grants({ operator: [USERS.operator] })],
          [OTHER_PROFILE_CHANNEL, grants({ operator: [USERS.operator] })],
        ]),
      },
      channelProfiles: { [OTHER_PROFILE_CHANNEL]: 'other' },
      tokens: { other: 'unused-token' },
      services: { watches: registry },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('needs the role in the channel that will be told, not only where it is typed', async () => {
    const { responseUrl } = await h.command(`vpn watch <#${LAB_CHANNEL}|lab>`, { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(/needs the \*operator\* role/);
    expect(watches).toHaveLength(0);
  });

  it('refuses a channel bound to another SCC profile', async () => {
    const { responseUrl } = await h.command(`vpn watch <#${OTHER_PROFILE_CHANNEL}|other>`, {
      userId: USERS.operator,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(/uses the SCC profile `other`/);
    expect(watches).toHaveLength(0);
  });

  it('watches this channel when the requester may', async () => {
    await h.command('vpn watch', { userId: USERS.operator });
    await vi.waitFor(() => expect(watches).toHaveLength(1), { timeout: 10_000 });
    expect(watches[0]).toMatchObject({ channelId: CHANNEL, profile: 'default' });
  });
});

describe('governance: name lookups are bounded', () => {
  // An SCC that claims a billion devices, all matching, 200 per page, for as long as it is asked.
  let hostile: Server;
  let requests = 0;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ policy: STANDARD_POLICY, tokens: { default: 'hostile-token' } });
    const template = await (
      await fetch(`${h.sim.url}/v1/inventory/devices?limit=1`, {
        headers: { authorization: `Bearer ${h.sim.tokens.superAdmin}` },
      })
    ).json();
    const one = (template as { items: Record<string, unknown>[] }).items[0] ?? {};
    hostile = createServer((req, res) => {
      requests += 1;
      const url = new URL(req.url ?? '/', 'http://x');
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const items = Array.from({ length: 200 }, (_, i) => ({
        ...one,
        uid: `00000000-0000-4000-8000-${String(offset + i).padStart(12, '0')}`,
        name: `asa-${offset + i}`,
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ count: 1_000_000_000, limit: 200, offset, items }));
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    await h.stop();
    const port = (hostile.address() as AddressInfo).port;
    h = await startHarness({ baseUrls: { default: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await h.stop();
    await new Promise((resolve) => hostile.close(resolve));
  });

  it('stops after 1,000 candidates and asks to narrow it down', async () => {
    const { responseUrl } = await h.command('interfaces delete asa 10', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(/more than 1,000 .*Narrow it down/);
    expect(requests).toBeLessThanOrEqual(6);
    expect(h.gate.requests).toHaveLength(0);
  });
});
