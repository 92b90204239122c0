// Every button of an incident message, pressed in the console as the demo shows them (issue 34): the
// message arrives through the console's chat as the View the desk made, and each button runs what Slack runs
// for it, through the same dispatcher: Acknowledge, Mute 1 h / 8 h / 24 h, Show the change-log diff, Show
// the pending commands, and Accept the device's configuration…, which with `changes.ticket: required`
// asks for the ticket first and then asks for approval with it. The real machinery behind (Redis, the
// workers' scan and desk, the approvals, the simulator).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChanges } from '../../src/config/profilesFileSchema.js';
import { CONSOLE_CHANNEL } from '../../src/demo/defaults.js';
import { RedisKeys } from '../../src/redis/keys.js';
import { driveClock } from '../support/driveClock.js';
import { redisUrl } from '../support/testRedis.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

const WAIT = 60_000;

describe('console: an incident’s buttons', () => {
  let rig: ConsoleRig;
  let redis: Redis;
  beforeAll(async () => {
    rig = await startConsoleRig({ changes: { ...defaultChanges, ticket: 'required' } });
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis?.disconnect();
    await rig?.close();
  });

  const alerts = () => {
    const service = rig.runtime.services.alerts;
    if (!service) throw new Error('the demo runtime has no alerts');
    return service;
  };

  /**
   * Presses the button of that label among the buttons printed last (the ones a number presses now): the
   * number is read from the output, as a person reads it.
   */
  async function press(label: string): Promise<string> {
    const output = rig.terminal.since(0);
    const rows = [...output.matchAll(/^.*\[1\] .*$/gm)];
    const current = rows.at(-1)?.[0] ?? '';
    const number = new RegExp(`\\[(\\d+)\\] ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=  |$)`).exec(
      current,
    )?.[1];
    if (!number) throw new Error(`no button “${label}” among the buttons shown last: ${current}`);
    return rig.type(number);
  }

  /** Waits for a conflict's incident message of this device (with its buttons). */
  async function conflictOf(device: string): Promise<void> {
    const from = rig.terminal.output.length;
    expect(await rig.type(`/sim conflict ${device}`)).toContain('conflict');
    await rig.terminal.waitFor(
      new RegExp(
        `${device} was changed outside SCC[^\\n]*\\n[\\s\\S]*\\[7\\] Accept the device’s configuration…`,
      ),
      from,
      WAIT,
    );
  }

  it('runs each of them as Slack does, and asks for the policy’s ticket before accepting the device’s configuration', {
    timeout: 180_000,
  }, async () => {
    expect(await rig.type('alerts subscribe conflict')).toMatch(/now hears about/);
    await conflictOf('asa-hq-01');
    const [incident] = await alerts().incidents.openIncidents([CONSOLE_CHANNEL]);
    const deviceUid = rig.sim.deviceUid('asa-hq-01');
    const keys = new RedisKeys(rig.prefix);
    const muted = () => redis.get(keys.alertMute(CONSOLE_CHANNEL, 'default', deviceUid));

    // SCC's change log in the thread, its time as every alert writes times (not SCC's raw ISO).
    const thread = await rig.terminal.waitFor(/What SCC’s change log says changed:\n.*\n/, 0, WAIT);
    expect(thread).toMatch(/What SCC’s change log says changed:\n\s+• \d{4}-\d\d-\d\d \d\d:\d\d UTC /);
    expect(thread).not.toMatch(/• \d{4}-\d\d-\d\dT\d\d:\d\d/);

    for (const span of ['1 h', '8 h', '24 h']) {
      const said = await press(`Mute ${span}`);
      expect(said).not.toContain('does nothing');
      expect(said).toContain(`muted asa-hq-01 in #C0DEMOCONSOLE for ${span.replace(' ', '')}`);
    }
    expect(JSON.parse((await muted()) ?? '{}')).toMatchObject({ userId: 'U0DEMOALICE' });

    const from = rig.terminal.output.length;
    expect(await press('Acknowledge')).toContain('acknowledged asa-hq-01');
    await rig.terminal.waitFor(/Acknowledged by @alice/, from, WAIT);
    expect(await alerts().incidents.find([CONSOLE_CHANNEL], incident?.id ?? '')).toMatchObject({
      acknowledgedBy: 'U0DEMOALICE',
    });

    // SCC calculates them (a transaction): the simulator's clock is moved on while it does.
    expect(await driveClock(rig.sim.clock, press('Show the pending commands'))).toMatch(/asa-hq-01/);
    // Its answer offers no buttons of its own: the incident's are still the ones the numbers press.
    expect(await press('Show the change-log diff')).toMatch(
      /Change log of asa-hq-01[\s\S]*description changed on the device console/,
    );

    // Another device's conflict: its Accept… asks for the ticket the policy requires, then for approval.
    await conflictOf('asa-branch-02');
    rig.terminal.answer('CHG0000034');
    const asked = rig.terminal.output.length;
    // What a discard would throw away is read from SCC (a calculation) before the card is posted.
    await driveClock(rig.sim.clock, press('Accept the device’s configuration…'));
    expect(rig.terminal.questions.at(-1)).toMatch(/Change ticket/);
    await rig.terminal.waitFor(/approval #\d+:/, asked, WAIT);
    expect(rig.terminal.since(asked)).toMatch(/Change ticket:.*CHG0000034/);
    expect(rig.terminal.since(0)).not.toContain('does nothing');
  });
});
