// `/fw shun` end to end through a real Bolt app, the simulator's ASAs (their live shun lists) behind the real
// client, real Redis and the timed work on a driven clock: the fast path (an operator alone up to the
// policy's 4h, audited), a longer shun waiting for a second person, a viewer refused, a device with undeployed
// changes named and skipped while the others are shunned, the expiry sending `no shun` exactly once, and
// hostile addresses and device names refused before any command line reaches SCC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { type ApprovalsEnv, hhmm, startEnv } from './support/env.js';
import { textOf } from './support/slackDriver.js';
import { USERS } from './support/world.js';

const HOUR = 3_600_000;

describe('approvals: /fw shun', () => {
  let env: ApprovalsEnv;
  const shunsOn = (name: string) =>
    (env.sim.state.shuns.get(env.sim.deviceUid(name)) ?? []).map((s) => s.address);
  const cliRuns = () => env.sccCalls('executeCliCommand');
  const drive = <T>(work: Promise<T>) => driveClock(env.sim.clock, work);
  const scripts = (line: string) => receivedCliScripts(env.sim.state).filter((s) => s.script === line).length;
  const posted = () => [...env.slack.messages().values()];
  /** The ts of the message that says `text` (an announcement, or a card). */
  const tsOf = (text: string) => {
    const found = posted().find((m) => m.thread_ts === undefined && JSON.stringify(m).includes(text));
    if (typeof found?.ts !== 'string') throw new Error(`nothing posted says ${text}`);
    return found.ts;
  };
  /** What was said in the thread of `ts`, as one string. */
  const thread = (ts: string) =>
    posted()
      .filter((m) => m.thread_ts === ts && m.ts !== ts)
      .map((m) => JSON.stringify(m))
      .join('\n');

  beforeAll(async () => {
    env = await startEnv({}, { timed: true });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('lets an operator shun alone within 4h, shows the impact, and lifts it once when the time is up', async () => {
    const reply = await drive(
      env.driver.command(
        env.bot.eventsUrl,
        'shun 203.0.113.66 --devices asa-hq-01 --for 2h --reason "brute force password=hunter2"',
        USERS.alice,
      ),
    );
    expect(shunsOn('asa-hq-01')).toEqual(['203.0.113.66']);
    const said = JSON.stringify([reply, ...env.slack.messages().values()]);
    expect(said).not.toContain('hunter2');
    const waiting = await env.timed?.list({ kind: 'shun-expiry' });
    expect(waiting?.map((item) => item.what)).toEqual(['no shun 203.0.113.66 on asa-hq-01']);
    const listed = await env.driver.commandReply(env.bot.eventsUrl, 'shun list', USERS.carol);
    const listedText = textOf(listed.blocks);
    expect(listedText).toContain('`203.0.113.66` on asa-hq-01 · by <@U0ALICE>');
    expect(listedText).toContain('brute force password=[REDACTED]');

    env.clock.advance(HOUR);
    await drive(env.timedPass());
    expect(shunsOn('asa-hq-01')).toEqual(['203.0.113.66']);

    env.clock.advance(HOUR + 1_000);
    await drive(env.timedPass());
    expect(shunsOn('asa-hq-01')).toEqual([]);
    const before = await cliRuns();
    env.clock.advance(HOUR);
    await drive(env.timedPass());
    expect(await cliRuns()).toBe(before);
    expect(scripts('no shun 203.0.113.66')).toBe(1);
    expect(scripts('shun 203.0.113.66')).toBe(1);
    expect(
      textOf((await env.driver.commandReply(env.bot.eventsUrl, 'shun list', USERS.carol)).blocks),
    ).toContain('No shun placed by fwbot is active');
    const ended = await env.timed?.history({ kind: 'shun-expiry' });
    expect(ended?.map((item) => [item.state, item.summary])).toEqual([['done', 'lifted on asa-hq-01']]);
  });

  it('asks a second person for a shun longer than 4h, and sends nothing before the approval', async () => {
    const before = await cliRuns();
    const card = await drive(
      env.driver.ask(
        env.bot.eventsUrl,
        'shun 198.51.100.7 --devices asa-hq-01 --for 8h --reason "scanner"',
        USERS.alice,
      ),
    );
    const text = textOf(card.blocks);
    expect(text).toContain('Connections now');
    expect(text).toContain('asa-hq-01 (');
    expect(shunsOn('asa-hq-01')).toEqual([]);
    // Only the impact was read (show conn address): no shun line yet.
    expect(await cliRuns()).toBe(before + 1);
    await env.driver.click(env.bot.eventsUrl, 'approve', USERS.bob, card);
    await drive(expect.poll(() => shunsOn('asa-hq-01'), { timeout: 30_000 }).toEqual(['198.51.100.7']));
    // Its end is scheduled right after the shun line is sent.
    await expect
      .poll(async () => (await env.timed?.list({ kind: 'shun-expiry' }))?.map((item) => item.what), {
        timeout: 30_000,
      })
      .toEqual(['no shun 198.51.100.7 on asa-hq-01']);
    // Once the outcome is in the card's thread, its end speaks there.
    await expect
      .poll(async () => (await env.timed?.list({ kind: 'shun-expiry' }))?.[0]?.thread?.threadTs, {
        timeout: 30_000,
      })
      .toBe(card.ts);
  }, 60_000);

  it('ends a shun early: an operator alone, its end brought forward, `no shun` sent once, told in the card’s thread', async () => {
    expect(shunsOn('asa-hq-01')).toEqual(['198.51.100.7']);
    const refused = await drive(env.driver.command(env.bot.eventsUrl, 'unshun 198.51.100.7', USERS.carol));
    expect(refused).toMatch(/operator/);
    await drive(env.driver.command(env.bot.eventsUrl, 'unshun 198.51.100.7', USERS.alice));
    // Its own end runs it, on the next pass: exactly once whatever else runs.
    expect(shunsOn('asa-hq-01')).toEqual(['198.51.100.7']);
    const endedAt = hhmm(env.clock());
    await drive(env.timedPass());
    expect(shunsOn('asa-hq-01')).toEqual([]);
    expect(scripts('no shun 198.51.100.7')).toBe(1);
    expect(await env.timed?.list({ kind: 'shun-expiry' })).toEqual([]);
    // The shun was approved on a card: its end speaks in the card's thread.
    const card = tsOf('198.51.100.7');
    await expect
      .poll(() => thread(card), { timeout: 30_000 })
      .toContain(`shun of \`198.51.100.7\` ended on asa-hq-01 (\`no shun\` ran at ${endedAt} UTC)`);
    env.clock.advance(9 * HOUR);
    await drive(env.timedPass());
    expect(scripts('no shun 198.51.100.7')).toBe(1);
  });

  it('refuses a viewer', async () => {
    const before = await cliRuns();
    const said = await drive(
      env.driver.command(
        env.bot.eventsUrl,
        'shun 192.0.2.9 --devices asa-hq-01 --for 1h --reason "x"',
        USERS.carol,
      ),
    );
    expect(said).toMatch(/operator/);
    expect(await cliRuns()).toBe(before);
  });

  it('names a device with undeployed changes and shuns the others', async () => {
    const branch = env.sim.state.devices.get(env.sim.deviceUid('asa-branch-02'));
    if (!branch) throw new Error('no asa-branch-02');
    branch.device.configState = 'NOT_SYNCED';
    const reply = await drive(
      env.driver.commandReply(
        env.bot.eventsUrl,
        'shun 192.0.2.44 --devices asa-dc-03,asa-branch-02 --for 1h --reason "worm"',
        USERS.alice,
      ),
    );
    expect(shunsOn('asa-dc-03')).toEqual(['192.0.2.44']);
    expect(shunsOn('asa-branch-02')).toEqual([]);
    expect(textOf(reply.blocks)).toContain('asa-branch-02 has undeployed changes');
    expect(textOf(reply.blocks)).toContain('shunned *192.0.2.44* for 1h on `asa-dc-03`');
    branch.device.configState = 'SYNCED';
  });

  it('takes a device query for --devices, which selects only the profile’s ASAs', async () => {
    const reply = await drive(
      env.driver.commandReply(
        env.bot.eventsUrl,
        'shun 192.0.2.77 --devices "name:asa-dc*" --for 1h --reason "ddos"',
        USERS.alice,
      ),
    );
    expect(textOf(reply.blocks)).toContain('shunned *192.0.2.77* for 1h on `asa-dc-03`');
    expect(shunsOn('asa-dc-03')).toContain('192.0.2.77');
    expect(shunsOn('asa-hq-01')).not.toContain('192.0.2.77');
    const before = await cliRuns();
    const none = await drive(
      env.driver.command(
        env.bot.eventsUrl,
        'shun 192.0.2.78 --devices "name:no-such-device*" --for 1h --reason "x"',
        USERS.alice,
      ),
    );
    expect(none).toContain('No ASA matches');
    expect(await cliRuns()).toBe(before);
  });

  it('ends a shun by the id `shun list` shows, and refuses hostile input before any SCC call', async () => {
    const listed = textOf(
      (await env.driver.commandReply(env.bot.eventsUrl, 'shun list', USERS.carol)).blocks,
    );
    const id = /• `([0-9a-f]{8})` `192\.0\.2\.77`/.exec(listed)?.[1];
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const before = await cliRuns();
    for (const hostile of ['"192.0.2.77; write erase"', 'zzzzzzzz', '"1.2.3.4\nreload"', '0000000g'])
      expect(await drive(env.driver.command(env.bot.eventsUrl, `unshun ${hostile}`, USERS.alice))).toMatch(
        /id|address/,
      );
    expect(await drive(env.driver.command(env.bot.eventsUrl, 'unshun 0badc0de', USERS.alice))).toContain(
      'no active shun with the id 0badc0de',
    );
    expect(await cliRuns()).toBe(before);
    await drive(env.driver.command(env.bot.eventsUrl, `unshun ${id}`, USERS.alice));
    await drive(env.timedPass());
    expect(shunsOn('asa-dc-03')).not.toContain('192.0.2.77');
    expect(scripts('no shun 192.0.2.77')).toBe(1);
  });

  it.each([
    '1.2.3.4\nreload --for 1h --reason "x"',
    '"1.2.3.4; write erase" --for 1h --reason "x"',
    '1.2.3.4 --devices "asa-hq-01) OR (name:*" --for 1h --reason "x"',
    '1.2.3.4 --for 1h; --reason "x"',
  ])('refuses hostile input before any command line: %j', async (tail) => {
    const before = await cliRuns();
    const said = await drive(env.driver.command(env.bot.eventsUrl, `shun ${tail}`, USERS.alice));
    expect(said).not.toBe('');
    expect(await cliRuns()).toBe(before);
  });
});
