// What a test's child process reads from the environment its test gives it: a variable it cannot do
// without, and the SCC client on the simulator (or a proxy in front of it) with no retries of its own, as a
// worker's (src/entry/worker.ts).
import type { Logger } from 'pino';
import { createSccClient, type SccClient } from '../../src/scc/client.js';

export function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** SIM_URL and SIM_TOKEN's client, on the profile `default`. */
export function simClientFromEnv(logger: Logger): SccClient {
  return createSccClient({
    baseUrl: need('SIM_URL'),
    token: need('SIM_TOKEN'),
    profile: 'default',
    retry: { maxAttempts: 1 },
    logger,
  });
}
