// `rules remove` and `rules disable` through Slack with Bolt real: the request posts a card that shows the
// rule and the predicted command, a second person approves, the rule is changed in SCC's copy only and the
// outcome in the thread shows SCC's calculated commands with the Deploy… button; the requester cannot
// approve their own, a viewer can neither ask nor approve. The deploy that follows is the existing one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const DENY_130 =
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log';

describe('approvals: removing and disabling any access rule', () => {
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
  const hq = () => env.sim.deviceUid('asa-hq-01');
  const ruleTexts = async () => {
    const page = await env.bot.scc.lookups.accessRules({ q: `entityUid:${hq()}`, limit: 200 });
    return (page.items ?? []).map((rule) => rule.ruleConfigurationText);
  };

  it('refuses a viewer’s request privately, before any change', async () => {
    const reply = await driving(
      env.driver.command(env.bot.eventsUrl, 'rules remove asa-hq-01 130', USERS.carol),
    );
    expect(reply).toContain('`/fw rules remove` needs the *operator* role in this channel; you hold viewer.');
    expect(await env.sccCalls('deleteAccessRule')).toBe(0);
  });

  it('request → card → approved by another person → staged → the outcome with SCC’s commands in the thread', async () => {
    const card = await ask('rules remove asa-hq-01 130');
    const text = textOf(card.blocks);
    expect(text).toContain(
      '<@U0ALICE> asks to *remove the access rule at line 130 (#4 of `outside_access_in`) on `asa-hq-01`*',
    );
    expect(text).toContain(`*Rule*\n${DENY_130}`);
    expect(text).toContain('! predicted by fwbot');
    expect(text).toContain(`no ${DENY_130}`);
    expect(await env.sccCalls('deleteAccessRule')).toBe(0);

    // A viewer cannot approve, nor can the requester (four eyes).
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.carol, card));
    expect(await env.driver.ephemeral(USERS.carol)).toContain('you need the approver role');
    expect(await env.sccCalls('deleteAccessRule')).toBe(0);

    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const outcome = await driving(env.driver.threadReply(card, (t) => t.includes('removed the access rule')));
    expect(outcome).toContain('SCC calculates that a deploy of `asa-hq-01` runs 1 command');
    expect(outcome).toContain(`no ${DENY_130}`);
    expect(await env.sccCalls('deleteAccessRule')).toBe(1);
    expect(await ruleTexts()).not.toContain(DENY_130);
    const { data: device } = await env.bot.scc.call('getDevice', { path: { deviceUid: hq() } });
    expect(device.configState).toBe('NOT_SYNCED');
    const posted = [...env.slack.messages().values()].find(
      (m) => m.thread_ts === card.ts && String(m.text ?? '').includes('removed the access rule'),
    );
    // The staged-change buttons, Deploy… among them, carry the device's commands.
    const buttons = JSON.stringify(posted?.blocks ?? []);
    expect(buttons).toContain('Deploy…');
    expect(buttons).toContain('deploy asa-hq-01');
  });

  it('refuses the requester approving their own request', async () => {
    const card = await ask('rules disable asa-hq-01 129', USERS.olga);
    expect(textOf(card.blocks)).toContain('disable the access rule');
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.olga, card));
    expect(await env.driver.ephemeral(USERS.olga)).toContain(
      'you cannot approve it: another person with the approver role must',
    );
    expect(await env.sccCalls('modifyAccessRule')).toBe(0);
  });

  it('refuses at run time a rule that moved since the card was posted', async () => {
    const card = await ask('rules disable asa-hq-01 133');
    // Line 128 (and its remark) goes in SCC meanwhile: the rule on line 133 moves up.
    await env.bot.scc.call('deleteAccessRule', {
      path: {
        accessRuleUid:
          (
            await env.bot.scc.lookups.accessRules({
              q: `entityUid:${hq()} AND ruleConfigurationLineNumber:128`,
              limit: 2,
            })
          ).items?.[0]?.uid ?? '',
      },
    });
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    const reply = await driving(env.driver.threadReply(card, (t) => t.includes('moved')));
    expect(reply).toMatch(/the rule moved from line 133 \(#\d\) to line 13\d/);
    expect(await env.sccCalls('modifyAccessRule')).toBe(0);
  });
});
