// A form's drop-down lookups are authorized exactly as the form (issue 34, outside test, attack 2). The
// options endpoint used to check the payload's team with the viewer role and never read who the workspace
// binding said the person is: an external person of a Slack Connect channel, sending a suggestion request
// with form metadata naming the MSP's own channel, was taken for a home person and offered every tenant of
// the portal and every MSP device. Now the lookup runs only for someone the form's own check lets in: as
// the person the binding settled (external stays external), the form operation's role in the form's
// channel, that channel's binding and tenancy. Signed block_suggestion payloads into the real Bolt app,
// behind the real workspace binding; what SCC was asked is read from the simulator's request log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RoleGrants, RolePolicy } from '../../src/config/policy.js';
import { CHANNEL, type Harness, startHarness, USERS } from '../slack/support/harness.js';

const NORTHWIND = 'C0NORTHWND1';
const NORTHWIND_TEAM = 'T0NORTHWND';
const NW_OPERATOR = 'U0NWOPER01';
/** The bot's own workspace in the fake Slack. */
const HOME_TEAM = 'T0FAKE';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

// As an MSP runs it: everyone at home reads, one operator; northwind's people operate in their channel only.
const POLICY: RolePolicy = {
  workspace: grants({ viewer: ['*'], operator: [USERS.operator], admin: [USERS.admin] }),
  channels: new Map(),
  external: new Map([[NORTHWIND, grants({ viewer: ['*'], operator: [NW_OPERATOR] })]]),
};

interface Options {
  options: { text: { text: string }; value: string }[];
}

describe('select lookups of a form', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      policy: POLICY,
      channelBindings: {
        [NORTHWIND]: { profile: 'default', tenant: 'northwind-us', tenantProfile: 'northwind' },
      },
      tokens: (sim) => ({ northwind: sim.mintTenantToken(sim.tenantUid('northwind-us')) }),
      optionsDeadlineMs: 2000,
    });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.requestLog.clear();
  });

  /**
   * A block_suggestion as Slack delivers it from a modal (no channel), with the form's metadata written by
   * the sender: the operation and the channel it claims the form was opened in.
   */
  async function lookup(
    who: { userId: string; ownTeam: string },
    form: { operationId: string; channelId: string },
    kind: 'tenant' | 'device',
  ): Promise<Options> {
    const http = await h.interact({
      type: 'block_suggestion',
      user: { id: who.userId, team_id: who.ownTeam },
      team: { id: HOME_TEAM },
      api_app_id: 'A0FWBOT',
      action_id: `fw.select.${kind}`,
      block_id: `f.${kind}`,
      value: '',
      view: {
        id: 'V0FORGED01',
        private_metadata: JSON.stringify({ v: 1, o: form.operationId, c: form.channelId, r: {} }),
        state: { values: {} },
      },
    });
    expect(http.status).toBe(200);
    return http.json() as Options;
  }

  const asked = (operationId: string) => h.sim.requestLog.list({ operationId }).length;
  const northwindOperator = { userId: NW_OPERATOR, ownTeam: NORTHWIND_TEAM };

  it('offers an external person nothing for a form claiming the MSP’s own channel, and asks SCC nothing', async () => {
    const tenants = await lookup(
      northwindOperator,
      { operationId: 'tenants.users.add', channelId: CHANNEL },
      'tenant',
    );
    const devices = await lookup(
      northwindOperator,
      { operationId: 'interfaces.edit', channelId: CHANNEL },
      'device',
    );
    expect(tenants.options).toEqual([]);
    expect(devices.options).toEqual([]);
    expect(asked('getMspManagedTenants')).toBe(0);
    expect(asked('getDevices')).toBe(0);
  });

  it('offers a home person nothing for a form whose operation needs a role they do not hold here', async () => {
    const viewer = { userId: USERS.viewer, ownTeam: HOME_TEAM };
    const answer = await lookup(viewer, { operationId: 'tenants.users.add', channelId: CHANNEL }, 'tenant');
    expect(answer.options).toEqual([]);
    expect(asked('getMspManagedTenants')).toBe(0);
    // Their own operator colleague, on the same form, gets the portal's tenants.
    const operator = { userId: USERS.operator, ownTeam: HOME_TEAM };
    const theirs = await lookup(operator, { operationId: 'tenants.users.add', channelId: CHANNEL }, 'tenant');
    expect(theirs.options.length).toBeGreaterThan(1);
  });

  it('offers the external operator their own tenant only, in their own channel’s form', async () => {
    const answer = await lookup(
      northwindOperator,
      { operationId: 'tenants.users.add', channelId: NORTHWIND },
      'tenant',
    );
    expect(answer.options.map((option) => option.value)).toEqual([h.sim.tenantUid('northwind-us')]);
    // Devices come from the tenant's own profile: northwind's, no one else's.
    const devices = await lookup(
      northwindOperator,
      { operationId: 'interfaces.edit', channelId: NORTHWIND },
      'device',
    );
    const names = devices.options.map((option) => option.text.text);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.startsWith('nw-'))).toBe(true);
  });
});
