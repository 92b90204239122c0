// /fw trace through Slack, as a signed slash command into the real Bolt app with the simulator answering:
// a trace without --in asks which interface, and a click on one of its buttons runs the trace from there
// (a command button, dispatched with the clicker's roles); hostile text in a signed command is refused in
// a sentence and no script reaches SCC's command line.
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
