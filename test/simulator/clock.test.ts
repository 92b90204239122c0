// Simulated time: a manual clock that moves only when advanced and runs due events in order, a real clock
// that is the wall clock with SCC's work `speed` times shorter (so nothing it reports is in the future, and
// a watch compares like with like), and the standalone entry point that serves on one.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createClock } from '../../src/simulator/clock.js';
import { startSimulator } from '../../src/simulator/index.js';
import { call, obj, str } from './support.js';

describe('manual clock', () => {
  it('stands still until advanced, then runs due events in time order at their own time', () => {
    const clock = createClock({ mode: 'manual', start: 1_000 });
    const seen: [string, number][] = [];
    clock.schedule(3_000, () => seen.push(['b', clock.now()]));
    clock.schedule(2_000, () => {
      seen.push(['a', clock.now()]);
      clock.schedule(2_500, () => seen.push(['a2', clock.now()]));
    });
    const cancel = clock.schedule(2_200, () => seen.push(['cancelled', clock.now()]));
    cancel();
    expect(clock.now()).toBe(1_000);
    clock.advance(1_500);
    expect(seen).toEqual([
      ['a', 2_000],
      ['a2', 2_500],
    ]);
    expect(clock.now()).toBe(2_500);
    clock.advance(10_000);
    expect(seen.at(-1)).toEqual(['b', 3_000]);
    expect(clock.now()).toBe(12_500);
  });

  it('drops pending events on reset and refuses to go backwards', () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    let ran = false;
    clock.schedule(10, () => {
      ran = true;
    });
    clock.reset(0);
    clock.advance(100);
    expect(ran).toBe(false);
    expect(() => clock.advance(-1)).toThrow();
  });
});

describe('real clock', () => {
  it('keeps wall time at any speed; only the spans of work are `speed` times shorter', () => {
    let wallMs = 500;
    const clock = createClock({ mode: 'real', start: 1_000_000, speed: 1_000, wall: () => wallMs });
    wallMs += 7_000;
    expect(clock.now()).toBe(1_007_000);
    expect(clock.span(20_000)).toBe(20);
    expect(createClock({ mode: 'manual', start: 0 }).span(20_000)).toBe(20_000);
    clock.close();
  });

  it('fires events on its own', async () => {
    const clock = createClock({ mode: 'real', start: 0, speed: 1_000 });
    const due = clock.now() + clock.span(2_000);
    const at = await new Promise<number>((resolve) => clock.schedule(due, () => resolve(clock.now())));
    expect(at).toBeGreaterThanOrEqual(due);
    clock.close();
  });

  it('reports no time later than the wall clock at ×1000, so a watch started after a run ended does not hear it', async () => {
    const sim = await startSimulator({ clock: 'real', speed: 1_000 });
    const api = (method: string, path: string, body?: unknown) =>
      call(sim.url, method, path, body === undefined ? {} : { body });
    /** Every time in a body, checked against the wall clock read once the answer is in. */
    const timesOf = (body: Record<string, unknown>) =>
      ['submissionTime', 'lastUpdatedTime'].map((field) => Date.parse(str(body[field])));
    try {
      const before = { channelId: 'C0BEFORE', profile: 'default', createdBy: 'U0', createdAt: '' };
      before.createdAt = new Date().toISOString();
      const started = obj(
        await api('POST', '/v1/inventory/devices/asas/secure-client/upgrades', {
          deviceUids: [sim.deviceUid('asa-hq-01')],
          version: '5.1.15.287',
        }),
      );
      expect(Math.max(...timesOf(started))).toBeLessThanOrEqual(Date.now());
      // Fourteen steps of 5–20 simulated seconds: well under a second of wall time at ×1000.
      const ended = await vi.waitFor(
        async () => {
          const run = obj(
            await api('GET', `/v1/inventory/devices/secure-client/upgrades/runs/${str(started.entityUid)}`),
          );
          const wall = Date.now();
          for (const time of timesOf(run)) expect(time).toBeLessThanOrEqual(wall);
          expect(run.upgradeRunStatus).toBe('DONE');
          return run;
        },
        { timeout: 30_000, interval: 20 },
      );
      expect(sim.clock.now()).toBeLessThanOrEqual(Date.now());
      const after = { ...before, channelId: 'C0AFTER', createdAt: new Date().toISOString() };
      // A subscription hears a run that ended after it was made (the scan's baseline): the run's time is
      // on the same clock as the bot's now.
      const endedAt = Date.parse(str(ended.lastUpdatedTime));
      expect(endedAt).toBeGreaterThanOrEqual(Date.parse(before.createdAt));
      expect(endedAt).toBeLessThan(Date.parse(after.createdAt));
    } finally {
      await sim.stop();
    }
  });

  it('drives a simulator without any manual advance (×1000)', async () => {
    const sim = await startSimulator({ clock: 'real', speed: 1_000 });
    try {
      const tx = obj(await call(sim.url, 'POST', `/v1/msp/tenants/${sim.tenantUid('contoso-eu')}/mcd`));
      // Nothing advances the clock here: the transaction finishes because wall time passes. The bound is
      // generous (the work takes a few real milliseconds at ×1000) so a loaded machine cannot miss it.
      await vi.waitFor(
        async () => {
          const now = await call(sim.url, 'GET', `/v1/transactions/${str(tx.transactionUid)}`);
          expect(obj(now).cdoTransactionStatus).toBe('DONE');
        },
        { timeout: 30_000, interval: 20 },
      );
    } finally {
      await sim.stop();
    }
  });

  it('says Retry-After in real seconds at its speed, rounded up to one second', async () => {
    // The real clock's arithmetic at instants the test chooses: wall time moves only when the test moves it,
    // so how fast the machine answers two requests cannot change what they see.
    let wallMs = 0;
    const sim = await startSimulator({ clock: 'real', speed: 1_000, wall: () => wallMs });
    const create = (tenantName: string) =>
      call(sim.url, 'POST', '/v1/msp/tenants/create', { body: { tenantName } });
    try {
      expect((await create('fast-one')).status).toBe(202);
      const limited = await create('fast-two');
      expect(limited.status).toBe(429);
      // 30 simulated seconds are 30 real milliseconds at ×1000: Retry-After rounds up to one second.
      expect(limited.headers['retry-after']).toBe('1');
      wallMs += 29;
      expect((await create('fast-two')).status).toBe(429);
      wallMs += 1;
      expect((await create('fast-two')).status).toBe(202);
    } finally {
      await sim.stop();
    }
  });
});

describe('standalone entry point', () => {
  it('prints its URL and the demo tokens, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/simulator/main.ts', '--port', '0', '--seed', 'cli', '--speed', '10'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] && output.includes('admin:')) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    expect(output).toContain('seed "cli", real clock ×10');
    for (const token of ['sim-super-admin', 'sim-admin', 'sim-read-only']) expect(output).toContain(token);
    expect(output).toMatch(/asa-hq-01\s+ASA\s+[0-9a-f-]{36}/);
    expect((await call(url, 'GET', '/v1/inventory/devices')).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 20_000);
});
