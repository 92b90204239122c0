// Two access requests on one ASA above the same deny, both on cards before either runs (issue 36 item 5: a
// request waits its turn). The first's rule goes in directly above the deny, which moves down; when the
// second's turn comes, the read before its run finds the deny moved, runs packet-tracer, sees the same deny
// still deciding, and places the rule directly above it at its new place: both verified, nothing asked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const PARTNER_DENY = 'access-list outside_access_in extended deny ip object PARTNER-NET any log';
const FIRST =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443';
const SECOND =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8444';

describe('approvals: access requests on one ASA take their turns above the same deny', () => {
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
  const dc = () => env.sim.deviceUid('asa-dc-03');
  const ruleTexts = async () => {
    const page = await env.bot.scc.lookups.accessRules({ q: `entityUid:${dc()}`, limit: 200 });
    return (page.items ?? [])
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((rule) => rule.ruleConfigurationText);
  };
  const verifiedIn = (card: { ts: string }) =>
    driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          /verified: ALLOW|NOT verified/.test(String(c.args.text ?? '')),
        60_000,
      ),
    );

  it('places the second rule above the deny at its new place, and verifies both', async () => {
    const first = await ask(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
    );
    const second = await ask(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8444 --in outside --reason "partner api"',
      USERS.olga,
    );
    // Both cards put their rule where the deny is today.
    expect(textOf(first.blocks)).toContain('access-list outside_access_in line 2 remark');
    expect(textOf(second.blocks)).toContain('access-list outside_access_in line 2 remark');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, first));
    expect(String((await verifiedIn(first)).args.text)).toContain('verified: ALLOW by line');

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, second));
    const staged = await driving(env.driver.threadReply(second, (t) => t.includes('add the access rule')));
    expect(staged).toMatch(
      /The rule that denies the traffic moved from #\d+ to #\d+ of `outside_access_in` since the card \(rules went in above it\); packet-tracer showed that it still decides/,
    );
    const verified = String((await verifiedIn(second)).args.text);
    expect(verified).toContain('verified: ALLOW by line');
    expect(verified).toContain(SECOND);
    expect(verified).not.toContain('NOT verified');

    const rules = await ruleTexts();
    const deny = rules.indexOf(PARTNER_DENY);
    expect(rules.indexOf(FIRST)).toBeGreaterThanOrEqual(0);
    expect(rules.indexOf(SECOND)).toBeGreaterThanOrEqual(0);
    // Directly above the deny: the second went in where the deny was when its turn came.
    expect(rules.indexOf(SECOND)).toBe(deny - 1);
    expect(rules.indexOf(FIRST)).toBeLessThan(rules.indexOf(SECOND));
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(2);
    expect(await env.holds?.list(env.clock())).toEqual([]);
  });
});
