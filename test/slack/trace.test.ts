// /fw trace through Slack, as a signed slash command into the real Bolt app with the simulator answering
// as real ASAs do (the layer-2 MAC list as phase 1, source NAT as Static/Dynamic translate): the card
// names the access-list line that decided and keeps its Show rule button, says the security levels let a
// flow through without inventing a rule, and shows source NAT; a trace without --in asks which interface,
// and a click on one of its buttons runs the trace from there (a command button, dispatched with the
// clicker's roles); hostile text in a signed command is refused in a sentence and no script reaches SCC's
// command line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_ACTION } from '../../src/render/paging.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { blocksText, clickPayload, type Harness, startHarness, USERS } from './support/harness.js';

interface SlackButton {
  type: string;
  text?: { text?: string };
  action_id?: string;
  value?: string;
}

/** The card's verdict sentence: the section that starts with *Allowed* or *Dropped*. */
function verdictLine(args: Record<string, unknown>): string {
  const blocks = (args.blocks ?? []) as { type: string; text?: { text?: string } }[];
  const texts = blocks.flatMap((b) => (b.type === 'section' && b.text?.text ? [b.text.text] : []));
  return texts.find((t) => /^\*(?:Allowed|Dropped)\*/.test(t)) ?? '';
}

/** A field of the card (`NAT`, `Drop reason`), as Slack shows it. */
function fieldOf(args: Record<string, unknown>, label: string): string | undefined {
  const blocks = (args.blocks ?? []) as { type: string; fields?: { text?: string }[] }[];
  const fields = blocks.flatMap((b) => (b.type === 'section' ? (b.fields ?? []) : []));
  const found = fields.map((f) => f.text ?? '').find((t) => t.startsWith(`*${label}*`));
  return found?.slice(label.length + 2).trim();
}

function buttonsOf(args: Record<string, unknown>): SlackButton[] {
  const blocks = (args.blocks ?? []) as { type: string; elements?: SlackButton[] }[];
  return blocks.flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));
}

describe('trace through Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  it('asks which interface, and a click on one traces from it', async () => {
    const { responseUrl } = await h.command('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443', {
      userId: USERS.viewer,
    });
    const question = await h.reply(responseUrl);
    expect(blocksText(question.args)).toContain('cannot tell which interface the packet comes in on');
    const outside = buttonsOf(question.args).find((b) => b.text?.text === 'outside');
    expect(outside?.value).toBe('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside');
    expect(receivedCliScripts(h.sim.state)).toEqual([]);

    const url = h.slack.responseUrl();
    await h.interact(
      clickPayload(
        { actionId: outside?.action_id ?? `${COMMAND_ACTION}:0`, value: outside?.value ?? '' },
        USERS.viewer,
        url,
      ),
    );
    const verdict = await driveClock(h.sim.clock, h.reply(url));
    const text = blocksText(verdict.args);
    expect(text).toContain('ALLOW on asa-hq-01');
    expect(text).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
    expect(receivedCliScripts(h.sim.state).map((s) => s.script)).toEqual([
      'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443',
    ]);
  });

  it('names the permit line that decided, not the layer-2 list of phase 1, and keeps its Show rule button', async () => {
    const { responseUrl } = await h.command(
      'trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside',
      {
        userId: USERS.viewer,
      },
    );
    const card = await driveClock(h.sim.clock, h.reply(responseUrl));
    expect(verdictLine(card.args)).toMatch(
      /^\*Allowed\* by line \d+ \(#2 of outside_access_in\), `access-list outside_access_in extended permit tcp any object WEB-01 eq https` \(phase 3, ACCESS-LIST\)\.$/,
    );
    expect(blocksText(card.args)).not.toContain('implicit rule');
    const show = buttonsOf(card.args).find((b) => b.text?.text === 'Show rule');
    expect(show?.value).toMatch(/^rules show asa-hq-01 \d+$/);
    expect(fieldOf(card.args, 'NAT')).toContain('Untranslate 203.0.113.10/443 to 172.16.0.10/443');
  });

  it('says the security levels let a flow through, inventing no access-list line', async () => {
    // asa-hq-01's voice interface has no access list: only the layer-2 list takes part.
    const { responseUrl } = await h.command('trace asa-hq-01 tcp 10.1.200.25 8.8.8.8 443', {
      userId: USERS.viewer,
    });
    const card = await driveClock(h.sim.clock, h.reply(responseUrl));
    expect(verdictLine(card.args)).toBe(
      '*Allowed* by the interfaces’ security levels: no access-list line took part (no access list applies to it on voice).',
    );
    expect(buttonsOf(card.args).map((b) => b.text?.text)).not.toContain('Show rule');
  });

  it('shows source NAT as the device printed it (Dynamic translate)', async () => {
    const { responseUrl } = await h.command('trace asa-branch-02 tcp 10.50.10.25 8.8.8.8 443', {
      userId: USERS.viewer,
    });
    const card = await driveClock(h.sim.clock, h.reply(responseUrl));
    expect(verdictLine(card.args)).toContain(
      '`access-list staff_access_in extended permit ip object BRANCH-STAFF any`',
    );
    expect(fieldOf(card.args, 'NAT')).toBe('Dynamic translate 10.50.10.25/49152 to 203.0.113.18/49152');
  });

  it('refuses hostile text in a signed command in a sentence, and sends no script', async () => {
    const { responseUrl } = await h.command('trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 "443; conf t"', {
      userId: USERS.viewer,
    });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(
      /port.* has characters outside its grammar/,
    );
    expect(h.sim.requestLog.list({ operationId: 'executeCliCommand' })).toEqual([]);
  });
});
