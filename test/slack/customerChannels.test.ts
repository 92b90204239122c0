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
  });

  it('leaves other channels as they were', async () => {
    expect(await answer('tenants list', CHANNEL)).not.toMatch(/scoped/);
  });
});
