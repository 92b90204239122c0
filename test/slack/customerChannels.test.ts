// A customer channel (issue 29): a channel bound to one managed tenant of an MSP profile. Every command
// there stays inside that tenant, as each operation's declared tenancy says: portal-wide commands are
// refused, a command naming a tenant works on the channel's tenant only (another tenant's name and a name
// that resolves to nothing get the same sentence), device commands need the tenant's own profile, and
// `--profile` is refused even for an admin. Through Bolt, signed requests, the simulator's MSP portal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  blocksText,
  CHANNEL,
  type Harness,
  STANDARD_POLICY,
  startHarness,
  USERS,
} from './support/harness.js';

const CUSTOMER = 'C0NORTHWND1';
const CUSTOMER_WITH_PROFILE = 'C0NORTHWND2';
const SCOPED = 'This channel is scoped to the tenant `northwind-us`';

describe('a customer channel', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      policy: STANDARD_POLICY,
      channelBindings: {
        [CUSTOMER]: { profile: 'default', tenant: 'northwind-us' },
        [CUSTOMER_WITH_PROFILE]: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
      },
      // The tenant's own profile; its token is one SCC does not know, so a call on it says so.
      tokens: { northwind: 'not-a-known-token' },
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  async function answer(text: string, channelId = CUSTOMER, userId: string = USERS.viewer) {
    const { responseUrl } = await h.command(text, { channelId, userId });
    return blocksText((await h.reply(responseUrl)).args);
  }

  it('refuses commands that span every tenant of the portal', async () => {
    expect(await answer('tenants list')).toMatch(
      /`\/fw tenants list` spans every tenant of the MSP portal, so it is not available in this channel: it is scoped to the tenant `northwind-us`/,
    );
    expect(await answer('msp devices')).toMatch(/`\/fw msp devices` spans every tenant/);
  });

  it('works on its own tenant when a command names it', async () => {
    const text = await answer('tenants show northwind-us');
    expect(text).not.toMatch(/scoped to the tenant/);
    expect(text).toMatch(/northwind/i);
  });

  it('answers another tenant and an unknown name with the same sentence', async () => {
    const other = await answer('tenants users globex-apj');
    const unknown = await answer('tenants users no-such-tenant');
    expect(other).toMatch(SCOPED);
    expect(unknown).toBe(other);
  });

  it('runs device commands on the tenant’s own profile, and says which key sets it when there is none', async () => {
    expect(await answer('devices')).toMatch(
      /acts inside the tenant `northwind-us`.*`channels\.C0NORTHWND1\.tenant_profile`/s,
    );
    // With tenant_profile, the call goes to SCC with that profile's token (which SCC refuses here).
    expect(await answer('devices', CUSTOMER_WITH_PROFILE)).not.toMatch(/tenant_profile/);
  });

  it('refuses --profile, even for an admin', async () => {
    expect(await answer('devices --profile default', CUSTOMER, USERS.admin)).toMatch(
      /`--profile` cannot be used in this channel, even by an admin: it is scoped to the tenant `northwind-us`/,
    );
    expect(h.sim.requestLog.list()).toEqual([]);
  });

  it('leaves other channels as they were', async () => {
    expect(await answer('tenants list', CHANNEL)).not.toMatch(/scoped/);
  });
});

// The strong form of "device commands run on the tenant's own profile": two profiles on the simulator, the
// portal's super-admin token (`default`) and a token of the tenant northwind-us itself (`northwind`). The
// simulator's request log says which token SCC saw (by the tenant it acts on), and the answer lists that
// tenant's devices and nobody else's. Its own rig: tokens minted in the simulator last until it is reset.
describe('a device command in a customer channel', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      policy: STANDARD_POLICY,
      channelBindings: {
        [CUSTOMER_WITH_PROFILE]: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
      },
      tokens: (sim) => ({ northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')) }),
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.slack.reset();
  });

  /** Runs `/fw devices` there; the answer and the tenants whose tokens SCC saw meanwhile. */
  async function devicesIn(channelId: string) {
    const since = h.sim.requestLog.list().at(-1)?.seq ?? 0;
    const { responseUrl } = await h.command('devices', { channelId, userId: USERS.viewer });
    const text = blocksText((await h.reply(responseUrl)).args);
    const requests = h.sim.requestLog.list({ since });
    return { text, requests, callers: new Set(requests.map((request) => request.tenant)) };
  }

  it('reaches SCC with the tenant’s own token and lists that tenant’s devices only', async () => {
    const { text, requests, callers } = await devicesIn(CUSTOMER_WITH_PROFILE);
    expect(requests.map((request) => request.operationId)).toContain('getDevices');
    expect([...callers]).toEqual(['northwind-us']);
    for (const name of ['nw-asa-hq', 'nw-asa-branch', 'nw-ftd-edge']) expect(text).toContain(name);
    // Not the portal's own devices, nor another customer's.
    for (const name of ['asa-hq-01', 'ftd-edge-01', 'globex-asa-01', 'initech-asa-01'])
      expect(text).not.toContain(name);
  });

  it('refuses, in one sentence, to subscribe it from the MSP’s channel to the portal’s alerts', async () => {
    const since = h.sim.requestLog.list().at(-1)?.seq ?? 0;
    const { responseUrl } = await h.command(`alerts subscribe connectivity ${CUSTOMER_WITH_PROFILE}`, {
      userId: USERS.operator,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(
      /^:no_entry: <#C0NORTHWND2> uses the SCC profile `northwind`, not `default` like this channel; run `\/fw alerts subscribe` there instead\.$/,
    );
    expect(h.sim.requestLog.list({ since })).toEqual([]);
  });

  it('reaches SCC with the portal’s token in the MSP’s own channel', async () => {
    const { text, callers } = await devicesIn(CHANNEL);
    expect([...callers]).toEqual(['acme-msp']);
    expect(text).toContain('asa-hq-01');
    expect(text).not.toContain('nw-asa-hq');
  });
});
