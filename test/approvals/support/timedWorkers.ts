// Worker processes of timed work for the approvals' crash tests (timedWorkerProcess.ts), started on the
// test world's Redis and prefix against a simulator URL (or a holding proxy in front of it), and stopped
// with SIGTERM after each test unless a test killed them; and a polling wait with a generous bound.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startReadyChild } from '../../support/childProcess.js';
import { redisUrl } from '../../support/testRedis.js';
import type { ApprovalsEnv } from './env.js';

const WORKER = fileURLToPath(new URL('./timedWorkerProcess.ts', import.meta.url));

export function timedWorkers(env: () => ApprovalsEnv, leaseMs: number) {
  const children: ChildProcess[] = [];
  return {
    async start(simUrl: string): Promise<ChildProcess> {
      const child = await startReadyChild(WORKER, {
        REDIS_URL: redisUrl(),
        PREFIX: env().prefix,
        SIM_URL: simUrl,
        SIM_TOKEN: env().sim.tokens.superAdmin,
        LEASE_MS: String(leaseMs),
      });
      children.push(child);
      return child;
    },
    /** Stops the ones still running (for afterEach). */
    async stopAll(): Promise<void> {
      for (const child of children.splice(0)) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Kills a worker with SIGKILL and waits for it to be gone. */
export async function killed(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Reads until `holds` is true of the value, every 50 ms, for at most 30 s. */
export async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`not within 30 s: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
