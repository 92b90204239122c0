// A subscription starts from the moment it is made (issue 34), in the console as the demo shows it, on the
// real machinery (Redis, the workers' scan and desk, the simulator). The demo's walkthrough: `alerts
// subscribe all`, then `/sim offline asa-branch-02` before the scan's first run (here held back by pausing
// its queue, as a busy or restarting worker would): the incident is told. And what is already wrong when a
// channel subscribes is told once, as one summary, each incident in its thread with its buttons.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_SCAN_QUEUE } from '../../src/jobs/alerts/scan.js';
import { redisUrl } from '../support/testRedis.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

const WAIT = 60_000;

describe('console: a subscription starts from the moment it is made', () => {
  let rig: ConsoleRig;
  let redis: Redis;
  let scans: Queue;
  beforeAll(async () => {
    rig = await startConsoleRig();
    redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    scans = new Queue(ALERT_SCAN_QUEUE, { connection: redis, prefix: rig.prefix });
  });
  afterAll(async () => {
    await scans?.close();
    redis?.disconnect();
    await rig?.close();
  });

  it('tells a device that goes offline between `alerts subscribe all` and the scan’s first run', {
    timeout: 120_000,
  }, async () => {
    // The scan's worker takes nothing until it is resumed: its first run comes after the device went down.
    await scans.pause();
    // (The simulator's clock stands still at its seed's time while the scan reads the wall clock: its
    // certificates are long expired by then, and are what is wrong right now.)
    expect(await rig.type('alerts subscribe all')).toMatch(/now hears about connectivity, conflict/);
    const from = rig.terminal.output.length;
    expect(await rig.type('/sim offline asa-branch-02')).toContain('UNREACHABLE');
    await scans.resume();

    await rig.terminal.waitFor(
      /fwbot in #console:\n.*asa-branch-02 is UNREACHABLE[\s\S]*\[1\] Acknowledge/,
      from,
      WAIT,
    );
    // An incident of its own, not a row of what was wrong when the channel subscribed.
    expect(rig.terminal.since(from)).not.toMatch(
      /in the thread of “Right now[^\n]*\n.*asa-branch-02 is UNREACHABLE/,
    );
  });
});

describe('console: what is already wrong when a channel subscribes', () => {
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('is said once, as one summary, each incident in its thread with its buttons', {
    timeout: 120_000,
  }, async () => {
    await rig.type('/sim offline asa-dc-03');
    await rig.type('/sim offline asa-branch-02 BAD_CREDENTIALS');
    expect(await rig.type('alerts subscribe connectivity')).toMatch(
      /Right now 2 things are already wrong: one summary message says what, each in its thread with its buttons/,
    );
    const told = await rig.terminal.waitFor(
      /in the thread of “Right now[\s\S]*in the thread of “Right now[\s\S]*\[4\] Mute 24 h/,
      0,
      WAIT,
    );
    expect(told.match(/fwbot in #console:\n📋 Right now: 2 devices offline/g)).toHaveLength(1);
    expect(told).toMatch(/asa-dc-03 is UNREACHABLE/);
    expect(told).toMatch(/asa-branch-02 is BAD_CREDENTIALS/);

    // The incidents are open, for acknowledging: each one's own button.
    const from = rig.terminal.output.length;
    expect(await rig.type('1')).toMatch(/acknowledged asa-\S+/);
    await rig.terminal.waitFor(/Acknowledged by @alice/, from, WAIT);

    // One comes back: its message says so, and the summary counts it.
    const back = rig.terminal.output.length;
    await rig.type('/sim online asa-dc-03');
    await rig.terminal.waitFor(/1 of 2 back to normal/, back, WAIT);
    await rig.terminal.waitFor(/asa-dc-03\S* back online after/, back, WAIT);
  });
});
