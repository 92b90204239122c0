// Generated API tokens: the command offers a "Reveal token" button; the click opens a modal at once
// ("Generating…", the trigger id lives 3 seconds), then the token is generated and the modal updated.
// The token never appears in a channel, a thread, a response_url post, or a log line. `tenants token`
// waits for a second person by default; here the policy lowers it to the operator role, which is what
// offers the button at once (the approved path is tested in test/approvals/ and the console).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  blocksText,
  buttonsOf,
  clickPayload,
  type Harness,
  startHarness,
  textOf,
  USERS,
} from './support/harness.js';

describe('token reveal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ approvalRules: { 'tenants.token': 'operator' } });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  function apiUser(tenant: string): string {
    const record = h.sim.state.tenants.get(h.sim.tenantUid(tenant));
    const user = record?.users.find((u) => u.apiOnly);
    if (!user) throw new Error(`no API-only user in ${tenant}`);
    return user.uid;
  }

  async function offer(userId: string = USERS.operator) {
    const { responseUrl } = await h.command(`tenants token contoso-eu ${apiUser('contoso-eu')}`, { userId });
    const reply = await h.reply(responseUrl);
    return { reply, reveal: buttonsOf(reply.args).find((b) => b.label === 'Reveal token') };
  }

  it('answers the command with a private Reveal button and generates nothing yet', async () => {
    const { reply, reveal } = await offer();
    expect(reply.args.response_type).toBe('ephemeral');
    expect(reveal?.actionId).toMatch(/^fw\.reveal:\d+$/);
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('opens a modal at once, fills it with the token, and keeps the token out of every message and log', async () => {
    const { reveal } = await offer();
    const clickUrl = h.slack.responseUrl();
    const click = clickPayload(reveal ?? { actionId: '' }, USERS.operator, clickUrl);
    await h.interact(click);
    const opened = await h.slack.waitFor((c) => c.method === 'views.open');
    expect(opened.args.trigger_id).toBe(click.trigger_id);
    expect(textOf(opened.args)).toContain('Generating…');
    const updated = await h.slack.waitFor((c) => c.method === 'views.update');
    const token = [...h.sim.state.tokens.keys()].find((t) => textOf(updated.args).includes(t));
    expect(token).toBeDefined();
    expect(token).not.toMatch(/^sim-/);
    // The one-time button is gone from the requester's message, and the channel learns only that a token was made.
    const replaced = await h.reply(clickUrl);
    expect(replaced.args.replace_original).toBe(true);
    expect(buttonsOf(replaced.args)).toEqual([]);
    const announcement = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(blocksText(announcement.args)).toContain('generated a new API token');

    const everywhereButTheModal = h.slack.calls.filter((c) => c !== updated);
    expect(JSON.stringify(everywhereButTheModal)).not.toContain(String(token));
    expect(h.logs.join('\n')).not.toContain(String(token));
  });

  it('says in the modal why nothing was generated (a user who is not API-only)', async () => {
    const human = h.sim.state.tenants.get(h.sim.tenantUid('contoso-eu'))?.users.find((u) => !u.apiOnly);
    const { responseUrl } = await h.command(`tenants token contoso-eu ${human?.uid}`, {
      userId: USERS.operator,
    });
    const reveal = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.label === 'Reveal token');
    await h.interact(clickPayload(reveal ?? { actionId: '' }, USERS.operator, h.slack.responseUrl()));
    const updated = await h.slack.waitFor((c) => c.method === 'views.update');
    expect(textOf(updated.args)).toMatch(/Tenant contoso-eu has no API-only user with the UUID/);
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('reveals once: a second click on the same button generates nothing', async () => {
    const { reveal } = await offer();
    await h.interact(clickPayload(reveal ?? { actionId: '' }, USERS.operator, h.slack.responseUrl()));
    await h.slack.waitFor((c) => c.method === 'views.update');
    const again = h.slack.responseUrl();
    await h.interact(clickPayload(reveal ?? { actionId: '' }, USERS.operator, again));
    expect(blocksText((await h.reply(again)).args)).toMatch(/already used or has expired/);
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(1);
  });

  it('runs nothing a button value names: a forged value naming an operation and its arguments', async () => {
    const forged = JSON.stringify({
      v: 1,
      o: 'interfaces.delete',
      a: { device: 'asa-hq-01', interface: 'Vlan20' },
      u: USERS.operator,
    });
    const url = h.slack.responseUrl();
    await h.interact(clickPayload({ actionId: 'fw.reveal:0', value: forged }, USERS.operator, url));
    expect(blocksText((await h.reply(url)).args)).toMatch(/not one fwbot made/);
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    expect(h.sim.requestLog.list().filter((e) => e.method === 'DELETE')).toHaveLength(0);
  });

  it('refuses the button to anyone but the requester', async () => {
    const { reveal } = await offer();
    const url = h.slack.responseUrl();
    await h.interact(clickPayload(reveal ?? { actionId: '' }, USERS.admin, url));
    expect(blocksText((await h.reply(url)).args)).toBe('Only the person who asked can reveal it.');
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    expect(h.sim.requestLog.list({ operationId: 'generateApiTokenForUserInTenant' })).toHaveLength(0);
  });

  it('audits a token made without a second person because the policy lowered the rule', async () => {
    const { reveal } = await offer();
    await h.interact(clickPayload(reveal ?? { actionId: '' }, USERS.operator, h.slack.responseUrl()));
    await h.slack.waitFor((c) => c.method === 'views.update');
    const record = h.audit.find((r) => r.operationId === 'tenants.token');
    expect(record).toMatchObject({ actor: USERS.operator, action: 'executed' });
    expect(JSON.stringify(h.audit)).not.toMatch(/eyJ/);
  });
});
