// The top-level `text` of what fwbot posts follows the rule its blocks follow (issue 34, outside test,
// attack 5): a push notification and a screen reader read that text, and it carried a raw line break,
// markup and U+202E from a device name or an audit-log user name, while the blocks showed them escaped.
// End to end: the real alert scan reads a device renamed hostile and an audit event of a hostile user, the
// desk posts through the workers' Slack client to the fake Slack, and every payload's text is checked.
// Then, property-style, hundreds of hostile strings put into views (as values, and carelessly into
// fwbot's own words) and rendered, and raw text handed straight to the door every payload leaves by.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverAlerts } from '../../src/jobs/alerts/desk.js';
import { createJobsCore, type JobsCore } from '../../src/jobs/core.js';
import type { Workers } from '../../src/jobs/workers.js';
import type { View } from '../../src/model/view.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { SLACK_READS, userMention } from '../../src/render/mrkdwn.js';
import { untrusted } from '../../src/render/untrusted.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { outgoingMessage, outgoingText, outgoingView } from '../../src/slackApi/outgoing.js';
import { type ScanWorld, scanWorld, simDevice, subscription } from '../jobs/alerts/scanSupport.js';
import { quietLog, simClients, startTestWorkers, TEST_SCHEDULE } from '../jobs/support/harness.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

const MINUTE = 60_000;
const CHANNEL = 'C0NETOPS01';

/** What an attacker names a device or a user: every trick a notification could fall for. */
const HOSTILE_NAME =
  'asa\n:white_check_mark: *Approved* <!channel> <@U0VICTIM> \u202Efdp.exe\u200B\u2066x\u2069 _it_ ~s~ `c` <https://evil.example|click> @here';
const HOSTILE_USER = 'mallory\r\n<!here> *boss*\u2028\u202E@evil\u200Dx <#C0SECRET01>';

/** Markup Slack would read in the hostile names, which may appear only inside a code span. */
const MARKUP = ['*Approved*', '_it_', '~s~', ':white_check_mark:', '@here', 'https://', '*boss*'];

/** Slack tokens fwbot itself makes live; any other `<` would be a mention, a link or a special. */
const OWN_TOKEN = /^<(?:@[UW][A-Z0-9]{2,20}|#[CG][A-Z0-9]{2,20}|!date\^[^<>]*)>/;

/** The rule of a message's top-level text: one line, nothing hidden, nothing live but fwbot's tokens. */
function expectNeutral(text: string, said: string, withBlocks = true): void {
  if (withBlocks) expect(text, `${said}: a line break`).not.toMatch(/[\r\n\u2028\u2029]/);
  expect(text, `${said}: a hidden character`).not.toMatch(/(?![\n\t])[\p{Cc}\p{Cf}]/u);
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1))
    expect(OWN_TOKEN.test(text.slice(at)), `${said}: ${text.slice(at, at + 30)}`).toBe(true);
}

/**
 * Markup Slack would read, outside code spans: the hostile names' own (`*Approved*`…), or anything Slack
 * formats at a word's edge (SLACK_READS: `_it_` inside `a_it_a` is no markup, Slack leaves it).
 */
function liveMarkup(text: string): string[] {
  const outside = text.replace(/`[^`]*`/g, ' ');
  const words = outside.split(/\s+/).filter((word) => SLACK_READS.test(word));
  return [...MARKUP.filter((markup) => new RegExp(`(^|\\s)${escapeRegExp(markup)}`).test(outside)), ...words];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('notification text of an alert', () => {
  let sim: SimulatorHandle;
  let slack: FakeSlack;
  let workers: Workers;
  let core: JobsCore;
  let world: ScanWorld;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
    const prefix = uniquePrefix('notification-text');
    const clients = simClients(sim, { default: sim.tokens.superAdmin });
    workers = await startTestWorkers(clients, slack.apiUrl, prefix);
    core = createJobsCore({ redisUrl: redisUrl(), prefix, schedule: TEST_SCHEDULE, logger: quietLog });
    world = await scanWorld(sim, { deliver: (events) => deliverAlerts(core, events) });
  });
  afterAll(async () => {
    await world.close();
    await core.close();
    await workers.close();
    await slack.stop();
    await sim.stop();
  });

  it('carries a hostile device name and audit-log user name as typed, on one line, nothing hidden or live', async () => {
    await world.subscriptions.subscribe(subscription(CHANNEL, ['connectivity', 'audit']));
    await world.scanAfter(0);
    // Then a device renamed and gone, and a user added in SCC's UI, both named to fool a notification.
    const device = simDevice(sim, 'asa-branch-02');
    device.name = HOSTILE_NAME;
    device.connectivityState = 'UNREACHABLE';
    const portal = [...sim.state.tenants.values()].find((tenant) => tenant.isPortal);
    if (!portal) throw new Error('the seed has a portal');
    const added = await fetch(`${sim.url}/_sim/tenants/${portal.uid}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: HOSTILE_USER, role: 'ROLE_ADMIN' }),
    });
    expect(added.status).toBe(201);
    await world.scanAfter(MINUTE);

    const posts = () =>
      slack.calls.filter((call) => call.method === 'chat.postMessage' && call.status === 200);
    await slack.waitFor(() => posts().length >= 2, 15_000);
    const texts = posts().map((call) => String(call.args.text));
    expect(texts.some((text) => text.includes('fdp.exe'))).toBe(true);
    expect(texts.some((text) => text.includes('mallory'))).toBe(true);
    for (const call of slack.calls.filter((c) => /^chat\./.test(c.method))) {
      const text = String(call.args.text ?? '');
      expectNeutral(text, `${call.method} ${text.slice(0, 40)}`);
      expect(liveMarkup(text), text).toEqual([]);
    }
  });
});

// Pieces hostile strings are made of, with ordinary ones in between.
const PIECES = [
  'a',
  'asa-hq-01',
  ' ',
  '\n',
  '\r\n',
  '\u2028',
  '\t',
  '<!channel>',
  '<!here>',
  '<@U0VICTIM>',
  '<#C0SECRET01>',
  '<!subteam^S0ALL>',
  '<https://evil.example|click>',
  '*bold*',
  '_it_',
  '~s~',
  '`',
  ':white_check_mark:',
  '@everyone',
  '&',
  '&lt;',
  '>',
  '\u202E',
  '\u202A',
  '\u2066',
  '\u2069',
  '\u200E',
  '\u061C',
  '\u200B',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u0000',
  '\u001B[2J',
  'é😀',
];
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((p) => p.join(''));

describe('the rule of every text fwbot sends', () => {
  it('holds for the top-level text of any view, whatever its summary carries', () => {
    fc.assert(
      fc.property(hostile, hostile, (value, careless) => {
        const view: View = {
          // A summary as the code writes them: a value put in with untrusted(), one put in raw, a mention.
          summary: `${untrusted(value)} changed; ${careless} went offline (${userMention('U0BOSS01')})`,
          blocks: [
            { kind: 'text', text: `*${untrusted(value)}* went offline` },
            { kind: 'table', columns: ['Device', 'State'], rows: [[value, careless]] },
          ],
          visibility: 'in_channel',
        };
        const sent = outgoingMessage(renderBlocks(view));
        expectNeutral(sent.text, JSON.stringify(value + careless));
        expect(liveMarkup(sent.text), sent.text).toEqual([]);
        // fwbot's own mention stays live, unless the text was cut before it.
        if (!sent.text.includes('…')) expect(sent.text).toContain('<@U0BOSS01>');
        expect(JSON.stringify(sent.blocks), 'a bidi control left in the blocks').not.toMatch(
          /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/,
        );
      }),
      { numRuns: 400, seed: 34_5 },
    );
  });

  it('holds at the door for raw text no renderer saw: messages and views', () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (raw, withBlocks) => {
        const text = outgoingText(raw, withBlocks);
        expectNeutral(text, JSON.stringify(raw), withBlocks);
        const view = outgoingView({
          type: 'home',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: raw } }],
        });
        expect(JSON.stringify(view)).not.toMatch(
          /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\uFEFF\u2060\u200D]/,
        );
      }),
      { numRuns: 400, seed: 34_6 },
    );
  });
});
