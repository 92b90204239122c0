// Snapshots around a deploy, through Bolt with the real tracking workers (issue 28): right before the
// approved deploy is sent, the device's running configuration is kept; when the run ends, fwbot keeps it
// again and uploads the unified diff into the card's thread as a file. `/fw config history` lists both
// snapshots and `/fw config diff` compares them. When Slack refuses the upload, the diff is posted as a
// code block in the thread instead. Snapshots keep what the device ran, a secret in clear too (as a real
// SCC may answer): a diff shows it masked, as SCC's change log does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../simulator/support.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, startEnv } from './support/env.js';
import type { Card } from './support/slackDriver.js';
import { USERS } from './support/world.js';

describe('snapshots: a deploy keeps the running configuration before it and posts what changed', () => {
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

  /** Stages a deletion on the device and asks for its deploy, approved by Bob; the deploy's card. */
  async function deployDeletion(device: string, nameif: string): Promise<Card> {
    const deleteCard = await ask(`interfaces delete ${device} ${nameif}`);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, deleteCard));
    await env.driver.threadReply(deleteCard, (t) => t.includes('staged the deletion'));
    const card = await ask(`deploy ${device}`);
    await driving(env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card));
    return card;
  }

  it('uploads the before/after diff into the thread as a file; history and diff show the two snapshots', async () => {
    const card = await deployDeletion('asa-hq-01', 'iot');

    const complete = await driving(
      env.slack.waitFor(
        (c) => c.method === 'files.completeUploadExternal' && c.args.thread_ts === card.ts,
        60_000,
      ),
    );
    expect(complete.args.channel_id).toBe(card.channel);
    expect(String(complete.args.initial_comment)).toMatch(
      /asa-hq-01: \d+ lines? removed, \d+ added \(snapshots 1 → 2\)/,
    );
    const [upload] = env.slack.callsTo('files.upload');
    const diff = String(upload?.args.content);
    expect(diff).toMatch(
      /^--- asa-hq-01 snapshot 1 \(before the deploy, .* UTC\)\n\+\+\+ asa-hq-01 snapshot 2 \(after the deploy\)\n@@ /,
    );
    expect(diff).toMatch(/^-interface Vlan20$/m);
    expect(diff).toMatch(/^-mtu iot 1500$/m);
    // The one line added is the configuration's new checksum.
    expect(diff.match(/^\+(?!\+\+ ).*$/gm)).toEqual([expect.stringMatching(/^\+Cryptochecksum:/)]);
    // No code block replaced the file.
    expect(
      env.slack
        .callsTo('chat.postMessage')
        .some((c) => c.args.thread_ts === card.ts && String(c.args.text).includes('could not be uploaded')),
    ).toBe(false);

    const history = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'config history asa-hq-01', USERS.carol),
    );
    expect(history.text).toMatch(/^2 snapshots of asa-hq-01/);
    const shown = JSON.stringify(history.blocks);
    expect(shown).toContain('before deploy');
    expect(shown).toContain('after deploy');
    expect(shown).toContain(`approval ${card.id}`);

    const between = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'config diff asa-hq-01 1 2', USERS.carol),
    );
    expect(between.text).toBe('asa-hq-01: 7 lines removed, 1 added');
    expect(JSON.stringify(between.blocks)).toContain('-interface Vlan20');

    const sinceAfter = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'config diff asa-hq-01 2', USERS.carol),
    );
    expect(sinceAfter.text).toBe('asa-hq-01: no difference');

    const unknown = await driving(
      env.driver.commandReply(env.bot.eventsUrl, 'config diff asa-hq-01 9', USERS.carol),
    );
    expect(unknown.text).toContain('No snapshot 9 of asa-hq-01 is kept');
  });

  it('posts the diff as a code block in the thread when Slack refuses the upload', async () => {
    env.slack.refuse('files.getUploadURLExternal', 'missing_scope', 1);
    const card = await deployDeletion('asa-hq-01', 'guest');

    const fallback = await driving(
      env.slack.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.thread_ts === card.ts &&
          String(c.args.text ?? '').includes('the file could not be uploaded'),
        60_000,
      ),
    );
    const text = String(fallback.args.text);
    expect(text).toMatch(/asa-hq-01: \d+ lines? removed, \d+ added \(snapshots 3 → 4\)/);
    expect(text).toMatch(/```--- asa-hq-01 snapshot 3 [\s\S]*\n-interface Vlan10\n[\s\S]*```/);
    expect(
      env.slack.callsTo('files.completeUploadExternal').filter((c) => c.args.thread_ts === card.ts),
    ).toHaveLength(0);
  });

  it('masks a secret of a snapshot already kept when a diff shows it, and in the change log', async () => {
    const line = (text: string, remove = false) =>
      call(env.sim.url, 'POST', '/_sim/devices/asa-dc-03/config-line', {
        body: { text, ...(remove ? { remove } : {}) },
      });
    // Set in SCC's UI and answered in clear by SCC, then kept in the snapshot before the deploy.
    expect((await line('snmp-server community S3cr3tC0mm')).status).toBe(200);
    const card = await deployDeletion('asa-dc-03', 'storage');
    const complete = await driving(
      env.slack.waitFor(
        (c) => c.method === 'files.completeUploadExternal' && c.args.thread_ts === card.ts,
        60_000,
      ),
    );
    const before = /\(snapshots (\d+) → \d+\)/.exec(String(complete.args.initial_comment))?.[1];
    expect(before).toBeDefined();
    expect((await line('snmp-server community S3cr3tC0mm', true)).status).toBe(200);

    const diff = await driving(
      env.driver.commandReply(env.bot.eventsUrl, `config diff asa-dc-03 ${before}`, USERS.carol),
    );
    const shown = JSON.stringify(diff.blocks);
    expect(shown).toContain('-snmp-server community *****');
    expect(shown).not.toContain('S3cr3tC0mm');

    const log = await driving(env.driver.commandReply(env.bot.eventsUrl, 'changelog asa-dc-03', USERS.carol));
    const files = env.slack.callsTo('files.upload').map((c) => String(c.args.content));
    const everything = `${JSON.stringify(log.blocks)}\n${files.join('\n')}`;
    expect(everything).toContain('snmp-server community *****');
    expect(everything).not.toContain('S3cr3tC0mm');
  });
});
