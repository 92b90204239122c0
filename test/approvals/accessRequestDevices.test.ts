// `/fw access request --devices <query>` through Slack with Bolt real, the simulator and a real Redis
// (issue 36 item 1): the same access asked on every ASA a device query finds. One card lists each ASA's
// verdict before, the rule's place and the predicted verdict after; an ASA that lets the traffic through
// already says by which rule and gets nothing; one held by other work is left out and named with why. On
// approval each ASA is staged, deployed on its own and verified on its own, and the thread says so for each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACCESS_DEVICES } from '../../src/catalogue/accessRequest.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const ASK =
  'access request --devices name:asa-* tcp 198.51.100.7 172.16.0.10 443 --in outside --reason "partner portal"';
const RULE = (acl: string) =>
  `access-list ${acl} extended permit tcp object fwbot-h-198.51.100.7 object fwbot-h-172.16.0.10 eq https`;

describe('approvals: an access request on several ASAs', () => {
  let env: ApprovalsEnv;

  beforeAll(async () => {
    env = await startEnv({}, { realTracking: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  const driving = <T>(work: Promise<T>): Promise<T> => driveClock(env.sim.clock, work);
  const ruleTexts = async (device: string) => {
    const page = await env.bot.scc.lookups.accessRules({
      q: `entityUid:${env.sim.deviceUid(device)}`,
      limit: 200,
    });
    return (page.items ?? []).map((rule) => rule.ruleConfigurationText);
  };
  const verifiedOn = (card: { ts: string }, device: string) =>
    driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('verified: ALLOW') &&
          String(c.args.text ?? '').includes(device),
        60_000,
      ),
    );

  it('reads the line without <asa> when --devices is given, before any call to SCC', async () => {
    const both = await driving(
      env.driver.command(
        env.bot.eventsUrl,
        'access request asa-dc-03 --devices name:asa-* tcp 198.51.100.7 172.16.0.10 443 --reason "x"',
        USERS.alice,
      ),
    );
    // --devices takes the place of <asa>: an ASA named as well is read as the protocol.
    expect(both).toContain('`protocol`: “asa-dc-03” is not one of tcp, udp, icmp, ip.');
    expect(await env.sccCalls('getDevices')).toBe(0);
  });

  it('one card, each ASA on its own: allowed already, staged, deployed and verified per device', async () => {
    const card = await driving(env.driver.ask(env.bot.eventsUrl, ASK, USERS.alice));
    const text = textOf(card.blocks);
    expect(text).toContain('through 2 ASAs (access request on `asa-branch-02`, `asa-dc-03`)');
    // asa-hq-01 publishes WEB-01 on https: said with its rule, nothing for it on the card.
    expect(text).toContain('Allowed already (nothing staged)');
    expect(text).toContain('asa-hq-01: allowed by line');
    expect(text).not.toContain('! asa-hq-01');
    // Each ASA's verdict before, where its rule goes, and the verdict predicted after.
    expect(text).toContain(
      '`asa-branch-02`: before DROP by line 91 (access-list outside_access_in extended deny ip any any log); the rule goes at #3 of `outside_access_in`',
    );
    expect(text).toContain(
      '`asa-dc-03`: before DROP by line 109 (access-list outside_access_in extended deny ip object PARTNER-NET any log); the rule goes at #2 of `outside_access_in`',
    );
    expect(text).toContain('after (predicted): ALLOW by the new rule at #4');
    expect(text).toContain('after (predicted): ALLOW by the new rule at #3');
    expect(text).toContain(`access-list outside_access_in line 4 extended permit tcp`);
    expect(text).toContain(`access-list outside_access_in line 3 extended permit tcp`);
    expect(await env.sccCalls('createAccessRule')).toBe(0);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const branch = await verifiedOn(card, 'asa-branch-02');
    const dc = await verifiedOn(card, 'asa-dc-03');
    expect(String(branch.args.text)).toContain(RULE('outside_access_in'));
    expect(String(dc.args.text)).toContain(RULE('outside_access_in'));
    // Each ASA had its own deploy: no deploy carried two devices' changes.
    expect(await env.sccCalls('createAccessRule')).toBe(2);
    expect(await env.sccCalls('deployChangesToMultipleAsaDevices')).toBe(2);
    // SCC's calculated commands, each ASA's own: the objects the first made are added to the second.
    const staged = await driving(env.driver.threadReply(card, (t) => t.includes('add the access rule')));
    expect(staged).toContain(`${RULE('outside_access_in')} to asa-branch-02 and deploy it`);
    expect(staged).toContain(`${RULE('outside_access_in')} to asa-dc-03 and deploy it`);
    expect(staged).toContain(
      'access-list outside_access_in line 4 extended permit tcp object fwbot-h-198.51.100.7',
    );
    expect(staged).toContain(
      'access-list outside_access_in line 3 extended permit tcp object fwbot-h-198.51.100.7',
    );
    expect(staged.match(/object network fwbot-h-172\.16\.0\.10/g)?.length).toBe(2);
    for (const device of ['asa-branch-02', 'asa-dc-03']) {
      const rules = await ruleTexts(device);
      expect(rules).toContain(RULE('outside_access_in'));
    }
    expect(await ruleTexts('asa-hq-01')).not.toContain(RULE('outside_access_in'));
    // Every device's hold ended with its own verification.
    expect(await env.holds?.list(env.clock())).toEqual([]);
  }, 180_000);

  it('leaves out a held ASA and names why; with nothing left to stage it says so for each', async () => {
    const holds = env.holds;
    if (!holds) throw new Error('no device holds');
    const now = env.clock();
    await holds.take(
      {
        profile: 'default',
        devices: [{ uid: env.sim.deviceUid('asa-branch-02'), name: 'asa-branch-02' }],
        holder: { kind: 'access', id: 'ap-0123456789', requesterId: USERS.olga },
        reason: 'access request on asa-branch-02',
        until: now + 3_600_000,
      },
      now,
    );
    try {
      const reply = await driving(env.driver.command(env.bot.eventsUrl, ASK, USERS.alice));
      expect(reply).toContain('Nothing to stage on the 3 ASAs `name:asa-*` finds');
      expect(reply).toContain('`asa-hq-01` lets it through already');
      // The rule the first request made lets it through now.
      expect(reply).toMatch(
        /`asa-dc-03` lets it through already, allowed by line \d+ .*fwbot-h-172\.16\.0\.10/,
      );
      expect(reply).toContain(
        '`asa-branch-02` is left out: held by an access request (request `ap-0123456789`',
      );
      expect(await env.sccCalls('createAccessRule')).toBe(2);
    } finally {
      await holds.release('ap-0123456789');
    }
  });

  it(`refuses a query that finds more than ${MAX_ACCESS_DEVICES} ASAs, saying how many`, async () => {
    const [hq] = [...env.sim.state.devices.values()].filter((record) => record.device.name === 'asa-hq-01');
    if (!hq) throw new Error('the seed has no asa-hq-01');
    for (let n = 0; n < MAX_ACCESS_DEVICES; n += 1) {
      const uid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      env.sim.state.devices.set(uid, {
        ...hq,
        device: { ...hq.device, uid, name: `asa-extra-${String(n).padStart(2, '0')}` },
      });
    }
    const before = await env.sccCalls('executeCliCommand');
    const reply = await driving(env.driver.command(env.bot.eventsUrl, ASK, USERS.alice));
    expect(reply).toContain(
      `\`name:asa-*\` matches ${MAX_ACCESS_DEVICES + 3} ASAs; one request takes at most ${MAX_ACCESS_DEVICES}`,
    );
    expect(await env.sccCalls('executeCliCommand')).toBe(before);
  });
});
