// SIGTERM drains: the shutdown stops intake first, waits for the job a real BullMQ worker has in hand,
// then closes Redis and exits 0; a step that never ends is cut off at the bound with exit code 1; a
// second signal exits at once.
import { EventEmitter } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { installGracefulShutdown } from '../../src/observability/shutdown.js';
import { connectRedis, uniquePrefix } from '../support/testRedis.js';

const log = pino({ level: 'silent' });

/** A promise and its resolver, to hold a job in hand until the test lets go. */
function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

class Signals extends EventEmitter {
  send(signal: NodeJS.Signals): void {
    this.emit(signal);
  }
}

describe('graceful shutdown', () => {
  it('on SIGTERM stops intake, lets the job in hand finish, closes Redis, then exits 0', async () => {
    const prefix = uniquePrefix('shutdown').replace(/:$/, '');
    const redis = connectRedis();
    const queue = new Queue('drain', { connection: redis, prefix });
    const started = gate();
    const release = gate();
    const finished: string[] = [];
    const worker = new Worker(
      'drain',
      async (job) => {
        started.open();
        await release.promise;
        finished.push(String(job.id));
        return 'done';
      },
      { connection: connectRedis(), prefix },
    );
    await queue.add('step', {}, { jobId: 'in-hand' });
    await started.promise;

    const order: string[] = [];
    const exited = gate<number>();
    const signals = new Signals();
    let intakeOpen = true;
    const shutdown = installGracefulShutdown({
      log,
      source: signals,
      exit: (code) => exited.open(code),
      steps: [
        {
          name: 'intake',
          run: async () => {
            intakeOpen = false;
            order.push('intake closed');
          },
        },
        {
          name: 'workers',
          run: async () => {
            await worker.close();
            order.push(`workers closed after ${finished.join(',')}`);
          },
        },
        {
          name: 'redis',
          run: async () => {
            await queue.close();
            await redis.quit();
            order.push('redis closed');
          },
        },
      ],
    });

    signals.send('SIGTERM');
    expect(shutdown.stopping).toBe(true);
    expect(intakeOpen).toBe(false);
    // The job is still in hand: nothing has exited, the worker is waiting for it.
    expect(finished).toEqual([]);
    expect(order).toEqual(['intake closed']);

    release.open();
    expect(await exited.promise).toBe(0);
    expect(order).toEqual(['intake closed', 'workers closed after in-hand', 'redis closed']);
    await vi.waitFor(() => expect(redis.status).toBe('end'));
    shutdown.dispose();
  });

  it('gives up at the bound and exits 1 when a step never ends', async () => {
    const exited = gate<number>();
    const signals = new Signals();
    const shutdown = installGracefulShutdown({
      log,
      source: signals,
      timeoutMs: 50,
      exit: (code) => exited.open(code),
      steps: [{ name: 'stuck', run: () => new Promise<void>(() => {}) }],
    });
    signals.send('SIGTERM');
    expect(await exited.promise).toBe(1);
    shutdown.dispose();
  });

  it('runs the later steps when one fails, and exits 1', async () => {
    const ran: string[] = [];
    const exits: number[] = [];
    const shutdown = installGracefulShutdown({
      log,
      source: new Signals(),
      exit: (code) => exits.push(code),
      steps: [
        {
          name: 'broken',
          run: async () => {
            throw new Error('boom');
          },
        },
        { name: 'after', run: async () => void ran.push('after') },
      ],
    });
    expect(await shutdown.shutdown('test')).toBe(1);
    expect(ran).toEqual(['after']);
    expect(exits).toEqual([1]);
    shutdown.dispose();
  });

  it('exits at once on a second signal', async () => {
    const exits: number[] = [];
    const signals = new Signals();
    const shutdown = installGracefulShutdown({
      log,
      source: signals,
      exit: (code) => exits.push(code),
      steps: [{ name: 'slow', run: () => new Promise<void>(() => {}) }],
    });
    signals.send('SIGTERM');
    signals.send('SIGINT');
    expect(exits).toEqual([1]);
    shutdown.dispose();
  });

  it('runs the steps added after it was installed (a process installs it before starting its parts)', async () => {
    const steps: { name: string; run(): Promise<void> }[] = [];
    const ran: string[] = [];
    const shutdown = installGracefulShutdown({ log, source: new Signals(), exit: () => {}, steps });
    steps.push({ name: 'late', run: async () => void ran.push('late') });
    expect(await shutdown.shutdown('test')).toBe(0);
    expect(ran).toEqual(['late']);
    shutdown.dispose();
  });
});
