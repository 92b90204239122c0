// The demo's walk-through of alerts, on the console and the real machinery (Redis, the workers' alert scan
// and incident desk, the simulator): a channel subscribes, a device goes offline outside fwbot (/sim), the
// incident is told once in the channel, and closes with its duration when the device comes back.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertScanStore } from '../../src/jobs/alerts/state.js';
import { DEVICE_NAMES } from '../../src/simulator/index.js';
import { redisUrl } from '../support/testRedis.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

const DEVICE = DEVICE_NAMES.asaBranch;

describe('console: alerts as the demo shows them', () => {
  let rig: ConsoleRig;
  let redis: Redis;
  beforeAll(async () => {
    rig = await startConsoleRig();
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis?.disconnect();
    await rig?.close();
  });

  /** Resolves once the scan has committed its first read of the connectivity stream (the baseline). */
  async function baselined(timeoutMs = 60_000): Promise<void> {
    const store = new AlertScanStore(redis, rig.prefix);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const metas = await store.metas('default');
      if ([...metas].some(([stream, meta]) => stream.startsWith('connectivity') && meta.baselinedAt)) return;
      if (Date.now() > deadline) throw new Error('the connectivity stream was never baselined');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('tells a device going offline once, and closes the incident when it comes back', {
    timeout: 150_000,
  }, async () => {
    expect(await rig.type('alerts subscribe connectivity')).toMatch(/connectivity/);
    await baselined();

    const from = rig.terminal.output.length;
    expect(await rig.type(`/sim offline ${DEVICE}`)).toContain('UNREACHABLE');
    await rig.terminal.waitFor(new RegExp(`fwbot in #console:\\n.*${DEVICE} is UNREACHABLE`), from, 60_000);

    const back = rig.terminal.output.length;
    expect(await rig.type(`/sim online ${DEVICE}`)).toContain('ONLINE');
    await rig.terminal.waitFor(new RegExp(`${DEVICE}\\S* back online after`), back, 60_000);
    // One incident, one message: the message that said it went offline was posted once, then edited.
    const posted = rig.terminal.since(from).split('fwbot in #console:').slice(1);
    expect(posted.filter((message) => message.includes(`${DEVICE} is UNREACHABLE`))).toHaveLength(1);
  });

  it('lists what /sim can do when it is given nothing to do', async () => {
    expect(await rig.type('/sim')).toContain('/sim offline <device>');
  });
});
