// Untrusted text stays inside its own field on the approval card (issue 24, items 2, 3 and 4): names
// from SCC, values the requester typed and the rejection reason cannot add a line, markup, an emoji or a
// live mention to what an approver reads. Signed requests into a real Bolt app, the SCC simulator behind
// the real client (its world changed the way SCC's data could be), real Redis, the fake Slack Web API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { type Card, textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const HIDDEN = '⚠ (contains hidden or control characters)';
/** Characters that must never reach a reader raw from data: controls, bidirectional and zero-width ones. */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** The text of each mrkdwn section and field of a card, as Slack gets it. */
function sectionTexts(card: Pick<Card, 'blocks'>): string[] {
  return card.blocks.flatMap((block) => [
    ...(block.text?.text ? [block.text.text] : []),
    ...(block.fields ?? []).map((field) => field.text ?? ''),
  ]);
}

/** The value part of a field (`*Label*\nvalue`). */
function fieldValue(card: Pick<Card, 'blocks'>, label: string): string | undefined {
  const field = sectionTexts(card).find((text) => text.startsWith(`*${label}*\n`));
  return field?.slice(label.length + 3);
}

/** Lines an approver reads that begin with `pattern` (a forged field would). */
function linesStarting(card: Pick<Card, 'blocks'>, pattern: RegExp): string[] {
  return textOf(card.blocks)
    .split('\n')
    .filter((line) => pattern.test(line));
}

describe('approvals: untrusted text on the card', () => {
  let env: ApprovalsEnv;
  const ask = (text: string, user: string = USERS.alice) => env.driver.ask(env.bot.eventsUrl, text, user);

  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env.stop();
  });

  it('keeps an interface name from SCC inside its field: no forged Device line, no markup, no bidi override', async () => {
    const deviceUid = env.sim.deviceUid('asa-hq-01');
    const iot = [...env.sim.state.interfaces.values()].find(
      (i) => i.deviceUid === deviceUid && i.name === 'iot',
    );
    if (!iot) throw new Error('the seed has no iot VLAN on asa-hq-01');
    iot.name = 'iot\n*Device:* asa-lab-99 (harmless)\u202E';

    const card = await ask('interfaces delete asa-hq-01 Vlan20');

    expect(linesStarting(card, /^\*?Device:?\*?\s+asa-lab-99/)).toEqual([]);
    expect(fieldValue(card, 'Interface')).toBe(
      `\`iot\\n*Device:* asa-lab-99 (harmless)\\u202E (Vlan20)\` ${HIDDEN}`,
    );
    expect(fieldValue(card, 'Device')).toBe('asa-hq-01');
    const asks = sectionTexts(card).find((text) => text.includes(' asks to '));
    expect(asks).toBe(
      `<@U0ALICE> asks to *delete the VLAN interface \`iot\\n*Device:* asa-lab-99 (harmless)\\u202E (Vlan20)\` ${HIDDEN} on \`asa-hq-01\`*.`,
    );
    for (const text of sectionTexts(card)) expect(text).not.toMatch(/\u202E/);
    for (const label of ['Device', 'Interface', 'Kind', 'VLAN id', 'IPv4'])
      expect(fieldValue(card, label) ?? '').not.toMatch(INVISIBLE);
    // What the Approve button asks, and the notification text, are one line each, the name escaped.
    const confirm = card.blocks.flatMap((b) => b.elements ?? []).find((e) => e.confirm)?.confirm?.text?.text;
    expect(confirm).toBe(
      `fwbot will delete the VLAN interface iot\\n*Device:* asa-lab-99 (harmless)\\u202E (Vlan20) ${HIDDEN} on asa-hq-01 right away. This cannot be undone.`,
    );
    expect(JSON.stringify(card.blocks)).not.toMatch(/\u202E/);
  });

  it('keeps a tenant display name from SCC inside its field: no forged Tenant line', async () => {
    const tenant = env.sim.state.tenants.get(env.sim.tenantUid('globex-apj'));
    if (!tenant) throw new Error('the seed has no globex-apj');
    tenant.displayName = 'Globex\nTenant: sandbox-test\u2066';

    const card = await ask('tenants remove globex-apj');

    expect(linesStarting(card, /^\*?Tenant:?\*?\s+sandbox-test/)).toEqual([]);
    expect(fieldValue(card, 'Display name')).toBe(`Globex\\nTenant: sandbox-test\\u2066 ${HIDDEN}`);
    expect(fieldValue(card, 'Tenant')).toBe('globex-apj');
    for (const text of sectionTexts(card)) expect(text).not.toMatch(/\u2066/);
    expect(fieldValue(card, 'Display name')).not.toMatch(INVISIBLE);
  });

  it('shows what the requester typed as typed: no bold "already approved" line, no emoji, no mention', async () => {
    const dressed = 'ci-bot\n\n:white_check_mark: *Already approved by <@U0BOB>* — nothing to do';

    // API-only users are named freely (people sign in with an e-mail address).
    const card = await ask(`tenants users add globex-apj "${dressed}" --api-only`);

    expect(linesStarting(card, /^\s*(:white_check_mark:|✅|\*?Already approved)/)).toEqual([]);
    expect(fieldValue(card, 'Users')).toBe(
      `\`ci-bot\\n\\n:white_check_mark: *Already approved by &lt;@U0BOB&gt;* — nothing to do\` ${HIDDEN}`,
    );
    expect(textOf(card.blocks)).not.toContain('<@U0BOB>');
    // Still pending: the card's own buttons, nothing the requester wrote.
    expect(card.blocks.some((b) => b.type === 'actions')).toBe(true);
  });

  it('shows a rejection reason as typed, pinging nobody, however it was wrapped', async () => {
    const card = await ask('interfaces delete asa-branch-02 printers');

    await env.driver.click(env.bot.eventsUrl, 'reject', USERS.bob, card);
    // fwbot's own mention marks around ids (render/mrkdwn.ts), then markup and a second line.
    const reason = '\uE000<@U0VICTIM>\uE001 \uE000<#C0SECRET>\uE001 wrong box\n*Approved* :white_check_mark:';
    expect(await env.driver.submitReason(env.bot.eventsUrl, USERS.bob, reason)).toBe(200);

    const final = await env.driver.cardUpdate(card, (t) => t.includes('Rejected by'));
    const status = sectionTexts(final).find((text) => text.includes('Rejected by')) ?? '';
    expect(status).toBe(
      `:no_entry: Rejected by <@U0BOB> at ${/at (\d\d:\d\d UTC|\d{4}-\d\d-\d\d \d\d:\d\d UTC)/.exec(status)?.[1]}: \`&lt;@U0VICTIM&gt; &lt;#C0SECRET&gt; wrong box\\n*Approved* :white_check_mark:\` ${HIDDEN}`,
    );
    const reply = await env.driver.threadReply(card, (t) => t.includes('was rejected'));
    for (const text of [textOf(final.blocks), reply]) {
      expect(text).not.toContain('<@U0VICTIM>');
      expect(text).not.toContain('<#C0SECRET>');
      expect(text).not.toMatch(/[\uE000-\uE00F]/);
    }
    expect(reply).toContain('&lt;@U0VICTIM&gt;');
  });
});
