// `/fw access request` through Slack with Bolt real, the simulator and a real Redis (issue 36): hostile
// values are refused before any SCC call; traffic already allowed is said with its rule and nothing is
// staged; otherwise the card shows the verdict before, the rule placed directly above the deny, the
// objects reused and created and the predicted commands; a second person approves, the rule is staged,
// SCC's calculated commands are shown, the device is deployed and packet-tracer verifies the new rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const PARTNER_DENY = 'access-list outside_access_in extended deny ip object PARTNER-NET any log';
const NEW_RULE =
  'access-list outside_access_in extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443';

describe('approvals: an access request from the ask to a verified rule', () => {
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
    return (page.items ?? []).map((rule) => rule.ruleConfigurationText);
  };

  it('refuses a hostile source before any call to SCC', async () => {
    const reply = await driving(
      env.driver.command(
        env.bot.eventsUrl,
        'access request asa-dc-03 tcp 198.51.100.7;reload 172.20.41.5 8443 --reason "x"',
        USERS.alice,
      ),
    );
    expect(reply).toContain('`source` must be an IPv4 host');
    expect(await env.sccCalls('getDevices')).toBe(0);
    expect(await env.sccCalls('executeCliCommand')).toBe(0);
  });

  it('says which rule allows traffic already allowed, and stages nothing', async () => {
    const reply = await driving(
      env.driver.command(
        env.bot.eventsUrl,
        'access request asa-dc-03 tcp 198.51.100.7 172.20.40.10 443 --in outside --reason "web"',
        USERS.alice,
      ),
    );
    expect(reply).toContain('No change needed: asa-dc-03 already lets this through, allowed by line');
    expect(reply).toContain('permit tcp any object DC-WEB eq https');
    expect(await env.sccCalls('createAccessRule')).toBe(0);
    expect(await env.sccCalls('executeCliCommand')).toBe(1);
  });

  it('request → card → approved → staged above the deny → deployed → verified ALLOW by the new rule', async () => {
    const card = await ask(
      'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
    );
    const text = textOf(card.blocks);
    expect(text).toContain('<@U0ALICE> asks to *let `198.51.100.0/24` reach `172.20.41.5` on tcp/8443');
    expect(text).toContain(`DROP by line`);
    expect(text).toContain(PARTNER_DENY);
    expect(text).toContain('198.51.100.0/24 → PARTNER-NET (existing object reused)');
    expect(text).toContain('172.20.41.5 → fwbot-h-172.20.41.5 (new object)');
    expect(text).toContain('! predicted by fwbot');
    expect(text).toContain('access-list outside_access_in line 2 remark fwbot: U0ALICE partner sync');
    expect(text).toContain(
      'access-list outside_access_in line 3 extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443',
    );
    expect(await env.sccCalls('createAccessRule')).toBe(0);

    // The requester cannot approve their own.
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.alice, card));
    expect(await env.driver.ephemeral(USERS.alice)).toContain('you cannot approve it');
    expect(await env.sccCalls('createAccessRule')).toBe(0);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const staged = await driving(env.driver.threadReply(card, (t) => t.includes('add the access rule')));
    expect(staged).toContain('object network fwbot-h-172.20.41.5');
    expect(staged).toContain(
      'line 3 extended permit tcp object PARTNER-NET object fwbot-h-172.20.41.5 eq 8443',
    );
    // The verification is followed work that starts when the deploy's run ends: a generous bound.
    const verifiedCall = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('verified: ALLOW'),
        60_000,
      ),
    );
    const verified = String(verifiedCall.args.text);
    expect(verified).toContain('verified: ALLOW by line 112 (the new rule');
    expect(verified).toContain(NEW_RULE);
    expect(await env.sccCalls('createAccessRule')).toBe(1);
    expect(await env.sccCalls('createObject')).toBe(1);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(1);
    const rules = await ruleTexts();
    expect(rules.indexOf(NEW_RULE)).toBeGreaterThanOrEqual(0);
    expect(rules.indexOf(NEW_RULE)).toBeLessThan(rules.indexOf(PARTNER_DENY));
    const { data: device } = await env.bot.scc.call('getDevice', { path: { deviceUid: dc() } });
    expect(device.configState).toBe('SYNCED');
    // The device's access hold (the per-device change lock) ended with the verification.
    expect(await env.holds?.list(env.clock())).toEqual([]);
    // The rule is fwbot's: kept with who asked and why, listed by /fw access list.
    const listed = textOf(
      (await driving(env.driver.commandReply(env.bot.eventsUrl, 'access list asa-dc-03', USERS.alice)))
        .blocks,
    );
    expect(listed).toContain('asa-dc-03');
    expect(listed).toContain('outside_access_in');
    expect(listed).toContain('tcp 198.51.100.0/24 → 172.20.41.5 8443');
    expect(listed).toContain('partner sync');
    expect(listed).toContain('permanent');
  });

  it('refuses a request for a device another request holds, before anyone is asked to approve', async () => {
    const holds = env.holds;
    if (!holds) throw new Error('no device holds');
    const now = env.clock();
    await holds.take(
      {
        profile: 'default',
        devices: [{ uid: dc(), name: 'asa-dc-03' }],
        holder: { kind: 'access', id: 'ap-0123456789', requesterId: USERS.olga },
        reason: 'access request on asa-dc-03',
        until: now + 3_600_000,
      },
      now,
    );
    try {
      const reply = await driving(
        env.driver.command(
          env.bot.eventsUrl,
          'access request asa-dc-03 udp 198.51.100.0/24 172.20.41.5 514 --in outside --reason "syslog"',
          USERS.alice,
        ),
      );
      expect(reply).toContain('asa-dc-03 is held by an access request (request `ap-0123456789`');
      expect(await env.sccCalls('createAccessRule')).toBe(1);
    } finally {
      await holds.release('ap-0123456789');
    }
  });

  it('refuses a second request for the same access: the rule exists now, no duplicate', async () => {
    const reply = await driving(
      env.driver.command(
        env.bot.eventsUrl,
        'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "again"',
        USERS.alice,
      ),
    );
    expect(reply).toContain('No change needed');
    expect(reply).toContain(NEW_RULE);
  });
});
