// Timed work across real processes on real Redis: two live fwbot processes passing at once run each item
// exactly once, and a process killed with SIGKILL in the middle of a run (frozen inside its SCC call by a
// proxy: once before SCC saw the call, once after SCC carried it out) leaves the item to the next process,
// which runs it exactly once in total, counted in the simulator's request log and in SCC's own state.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TimedItem } from '../../src/catalogue/operation.js';
import { createJobs, type Jobs } from '../../src/jobs/workers.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type HoldMode, startHoldingProxy } from '../approvals/support/holdingProxy.js';
import { startReadyChild } from '../support/childProcess.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import { quietLog } from './support/harness.js';
import { TEST_TIMED_KINDS, vlanKind } from './support/timedKinds.js';

const PROCESS = fileURLToPath(new URL('./support/timedProcess.ts', import.meta.url));
const LEASE_MS = 1_000;

/** Polls `check` until it holds, within a generous bound (never a timed assertion). */
async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('timed work across processes', () => {
  let sim: SimulatorHandle;
  let jobs: Jobs;
  let prefix: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    await jobs.close();
  });
  afterAll(async () => {
    await sim.stop();
  });

  /** A fresh prefix and world for each test, and the producer side to schedule and read items with. */
  function fresh(): void {
    sim.reset();
    prefix = uniquePrefix('timed-crash');
    jobs = createJobs({ redisUrl: redisUrl(), prefix, timedKinds: TEST_TIMED_KINDS, logger: quietLog });
  }

  async function startProcess(simUrl: string): Promise<ChildProcess> {
    const child = await startReadyChild(PROCESS, {
      REDIS_URL: redisUrl(),
      PREFIX: prefix,
      SIM_URL: simUrl,
      SIM_TOKEN: sim.tokens.superAdmin,
      LEASE_MS: String(LEASE_MS),
    });
    children.push(child);
    return child;
  }

  const hq = () => sim.deviceUid('asa-hq-01');
  const vlanCreates = () => sim.requestLog.list({ operationId: 'createAsaVlanInterface' }).length;
  const vlansOnHq = (vlanId: number) =>
    [...sim.state.interfaces.values()].filter((i) => i.deviceUid === hq() && i.vlanId === vlanId).length;
  const schedule = (vlanId: number) =>
    jobs.timed.schedule(vlanKind, {
      profile: 'default',
      at: Date.now(),
      owner: 'U0ALICE',
      payload: { deviceUid: hq(), device: 'asa-hq-01', vlanId },
    });
  const ended = (item: TimedItem) =>
    eventually(
      () => jobs.timed.get(item),
      (now) => now?.state === 'done' || now?.state === 'failed',
    );

  it('runs each item exactly once with two live processes passing at once', async () => {
    fresh();
    await Promise.all([startProcess(sim.url), startProcess(sim.url)]);
    const items = await Promise.all(Array.from({ length: 30 }, (_, i) => schedule(600 + i)));
    const results = await Promise.all(items.map(({ item }) => ended(item)));
    expect(results.map((item) => item?.state)).toEqual(Array(30).fill('done'));
    expect(results.every((item) => item?.attempts === 1)).toBe(true);
    expect(vlanCreates()).toBe(30);
    for (let i = 0; i < 30; i += 1) expect(vlansOnHq(600 + i)).toBe(1);
  }, 60_000);

  async function killMidRun(mode: HoldMode, vlanId: number): Promise<TimedItem> {
    const proxy = await startHoldingProxy(
      sim.url,
      mode,
      (method, path) => method === 'POST' && path.includes('/vlaninterfaces'),
    );
    const doomed = await startProcess(proxy.url);
    const { item } = await schedule(vlanId);
    await proxy.deleteHeld;
    const exited = once(doomed, 'exit');
    doomed.kill('SIGKILL');
    await exited;
    await proxy.stop();
    return item;
  }

  it('runs it once after a restart when the killed process never reached SCC', async () => {
    fresh();
    const item = await killMidRun('hold', 700);
    expect(vlanCreates()).toBe(0);

    await startProcess(sim.url);
    expect(await ended(item)).toMatchObject({ state: 'done', summary: 'VLAN 700 created', attempts: 2 });
    expect(vlanCreates()).toBe(1);
    expect(vlansOnHq(700)).toBe(1);
  }, 60_000);

  it('does not run it again when the killed process’s call had taken effect', async () => {
    fresh();
    const item = await killMidRun('forward', 701);
    expect(vlanCreates()).toBe(1);

    await startProcess(sim.url);
    expect(await ended(item)).toMatchObject({
      state: 'done',
      summary: 'it took effect before fwbot restarted',
      attempts: 2,
    });
    expect(vlanCreates()).toBe(1);
    expect(vlansOnHq(701)).toBe(1);
  }, 60_000);
});
