// Buttons under results: Previous/Next pages (state in the button value), Share in channel, and link
// buttons, each clicked through signed block_actions payloads into the real Bolt app.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, buttonsOf, clickPayload, type Harness, startHarness, USERS } from './support/harness.js';

describe('result buttons', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tokens: { readonly: 'sim-read-only' } });
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  async function addUsers(tenant: string, count: number): Promise<void> {
    const client = h.clients.get('default');
    if (!client) throw new Error('no default client');
    const users = Array.from({ length: count }, (_, i) => ({
      username: `extra.user${String(i).padStart(2, '0')}@contoso.example`,
      role: 'ROLE_READ_ONLY' as const,
      apiOnlyUser: false,
    }));
    await client.call('addUsersToTenantInMspPortal', {
      path: { tenantUid: h.sim.tenantUid(tenant) },
      body: { users },
    });
    h.sim.clock.advance(30 * 60_000);
  }

  it('pages with Previous/Next, replacing the message, with the state in the button', async () => {
    await addUsers('contoso-eu', 30);
    const { responseUrl } = await h.command('tenants users contoso-eu', { userId: USERS.viewer });
    const first = await h.reply(responseUrl);
    expect(blocksText(first.args)).toContain('1–25 of 35');
    const next = buttonsOf(first.args).find((b) => b.label === 'Next page');
    expect(next?.actionId).toMatch(/^fw\.page:\d+$/);
    expect(JSON.parse(next?.value ?? '{}')).toMatchObject({ o: 'tenants.users', n: 25 });

    const clickUrl = h.slack.responseUrl();
    const http = await h.interact(clickPayload(next ?? { actionId: '' }, USERS.viewer, clickUrl));
    expect(http.status).toBe(200);
    const second = await h.reply(clickUrl);
    expect(second.args.replace_original).toBe(true);
    expect(blocksText(second.args)).toContain('26–35 of 35');
    const previous = buttonsOf(second.args).find((b) => b.label === 'Previous page');
    expect(buttonsOf(second.args).some((b) => b.label === 'Next page')).toBe(false);

    const backUrl = h.slack.responseUrl();
    await h.interact(clickPayload(previous ?? { actionId: '' }, USERS.viewer, backUrl));
    expect(blocksText((await h.reply(backUrl)).args)).toContain('1–25 of 35');
  });

  it('refuses a page button whose state fwbot did not make', async () => {
    const url = h.slack.responseUrl();
    await h.interact(
      clickPayload({ actionId: 'fw.page:0', value: '{"o":"tenants.remove"}' }, USERS.viewer, url),
    );
    expect(blocksText((await h.reply(url)).args)).toBe(
      'This page button is not one fwbot made; run the command again.',
    );
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('shares a read in the channel as a snapshot, naming who shared it', async () => {
    const { responseUrl } = await h.command('devices', { userId: USERS.viewer });
    const share = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.label === 'Share in channel');
    expect(share?.value).toBe('devices');
    const url = h.slack.responseUrl();
    await h.interact(clickPayload(share ?? { actionId: '' }, USERS.viewer, url));
    const shared = await h.reply(url);
    expect(shared.args.response_type).toBe('in_channel');
    expect(blocksText(shared.args)).toContain('asa-hq-01');
    expect(blocksText(shared.args)).toContain(`Shared by <@${USERS.viewer}> · \`devices\``);
    expect(buttonsOf(shared.args)).toEqual([]);
  });

  it('keeps an admin’s --profile on the buttons, and checks the role again on click', async () => {
    const { responseUrl } = await h.command('devices --profile readonly', { userId: USERS.admin });
    const share = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.label === 'Share in channel');
    expect(share?.value).toBe('@profile=readonly devices');
    // The same button in someone else's hands (e.g. a copied payload) is checked for that person.
    const url = h.slack.responseUrl();
    await h.interact(clickPayload(share ?? { actionId: '' }, USERS.operator, url));
    expect(blocksText((await h.reply(url)).args)).toContain(
      'Choosing a profile with `--profile` needs the *admin* role',
    );
  });

  it('acknowledges link buttons (report downloads) without doing anything else', async () => {
    const { responseUrl } = await h.command('reports', { userId: USERS.viewer });
    const link = buttonsOf((await h.reply(responseUrl)).args).find((b) => b.url !== undefined);
    expect(link?.actionId).toMatch(/^fw\.url:\d+$/);
    expect(link?.url).toContain('/_sim/downloads/');
    const before = h.slack.calls.length;
    const http = await h.interact(
      clickPayload(link ?? { actionId: '' }, USERS.viewer, h.slack.responseUrl()),
    );
    expect(http.status).toBe(200);
    expect(http.body).toBe('');
    expect(h.slack.calls.length).toBe(before);
  });
});
