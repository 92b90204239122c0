// `rules remove|disable` verified once a deploy carries the change (src/follow/ruleVerify.ts), through Slack
// with Bolt real, the simulator and a real Redis, the tracking workers real: the card and the outcome say
// which packet-tracer line will check it; a separate `/fw deploy`, approved, runs; then the rule change's
// thread says which line decides that traffic now (ALLOW by a broader rule, DROP by a later deny), no longer
// the rule. A rule with no single flow is said plainly, and nothing is followed for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DENY_130 =
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log';
const BROADER = 'access-list outside_access_in extended permit tcp any object WEB-01 eq https';
const PARTNER_DENY = 'access-list outside_access_in extended deny ip object PARTNER-NET any log';
const NEW_RULE =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443';

describe('approvals: a removed or disabled rule is verified after its deploy', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const ask = (text: string, user: string = USERS.alice) =>
    driving(env.driver.ask(env.bot.eventsUrl, text, user));
  /** A message posted in the thread of `card` whose text matches, within a generous bound. */
  const inThread = async (card: { ts: string }, pattern: RegExp) =>
    String(
      (
        await driving(
          env.slack.waitFor(
            (c) =>
              c.method === 'chat.postMessage' &&
              c.args.thread_ts === card.ts &&
              pattern.test(String(c.args.text ?? '')),
            60_000,
          ),
        )
      ).args.text,
    );
  const deploy = async (device: string) => {
    const card = await ask(`deploy ${device}`);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    return card;
  };

  it('remove → deploy → verified: ALLOW by the broader rule above, no longer by the removed deny', async () => {
    const card = await ask('rules remove asa-hq-01 130');
    const script = 'packet-tracer input outside tcp 198.51.100.66 49152 172.16.0.10 443';
    expect(textOf(card.blocks)).toContain(`fwbot runs \`${script}\``);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const outcome = await driving(env.driver.threadReply(card, (t) => t.includes('removed the access rule')));
    expect(outcome).toContain(`Once a deploy of \`asa-hq-01\` carries it, fwbot runs \`${script}\``);
    const tracesBefore = await env.sccCalls('executeCliCommand');

    await deploy('asa-hq-01');
    const verified = await inThread(card, /verified:/);
    expect(verified).toMatch(/verified: ALLOW by line 128 \(`access-list outside_access_in/);
    expect(verified).toContain(BROADER);
    expect(verified).toContain('no longer by the removed rule');
    expect(verified).toContain(DENY_130.replace(/^access-list /, ''));
    expect(await env.sccCalls('executeCliCommand')).toBe(tracesBefore + 1);
  });

  it('disable → deploy → verified: DROP by the later deny, no longer by the disabled permit', async () => {
    // The permit is made by an access request, itself deployed and verified.
    const request = await ask(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, request));
    const allowed = await inThread(request, /verified: ALLOW/);
    const line = /by line (\d+)/.exec(allowed)?.[1] ?? '';
    expect(line).not.toBe('');

    const card = await ask(`rules disable asa-dc-03 ${line}`);
    expect(textOf(card.blocks)).toContain(
      'fwbot runs `packet-tracer input outside tcp 198.51.100.1 49152 172.20.41.5 8443`',
    );
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    await driving(env.driver.threadReply(card, (t) => t.includes('disabled the access rule')));
    await deploy('asa-dc-03');
    const verified = await inThread(card, /verified:/);
    expect(verified).toMatch(/verified: DROP by line \d+ \(`/);
    expect(verified).toContain(PARTNER_DENY.replace(/^access-list /, ''));
    expect(verified).toContain('no longer by the disabled rule');
    expect(verified).toContain(NEW_RULE.replace(/^access-list /, ''));
    expect(verified).not.toContain('NOT verified');
  });

  it('says plainly that a rule matching any source has no single flow, and follows nothing for it', async () => {
    // Named by its UUID: the lines below the removed deny moved up.
    const page = await env.bot.scc.lookups.accessRules({
      q: `entityUid:${env.sim.deviceUid('asa-hq-01')}`,
      limit: 200,
    });
    const icmp = (page.items ?? []).find((r) => r.ruleConfigurationText?.includes('permit icmp any any'));
    const card = await ask(`rules remove asa-hq-01 ${icmp?.uid ?? 'none'}`);
    const text = textOf(card.blocks);
    expect(text).toContain('permit icmp any any echo-reply');
    expect(text).toContain('has no single flow to trace (its source is any)');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const outcome = await driving(env.driver.threadReply(card, (t) => t.includes('removed the access rule')));
    expect(outcome).toContain('It will not be verified after the deploy');
    expect(outcome).toContain('has no single flow to trace (its source is any)');
  });
});
