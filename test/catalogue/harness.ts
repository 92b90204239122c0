// Runs catalogue commands for real: the seeded simulator on port 0 with a manual clock, the real SCC
// client against it, and the operation's execute. Each test starts from the seed (reset), so the UUIDs
// and times in views, and so the goldens, are the same on every run.
import pino from 'pino';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import type { OperationContext, Outcome, RawArgs } from '../../src/catalogue/operation.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { expectGolden } from '../render/golden.js';

export const catalogue = createCatalogue();
export const ACTOR = { userId: 'U0ENGINEER', channelId: 'C0NETOPS' };

export interface Harness {
  sim: SimulatorHandle;
  /** A client with the given demo token (super-admin by default); retries off, so failures show at once. */
  client(token?: string): SccClient;
  context(token?: string): OperationContext;
  /** Parses and executes command text (no modal: raw arguments stand in for what a form would send). */
  run(text: string, options?: { token?: string; raw?: RawArgs }): Promise<Outcome>;
  /** Checks a view against its golden files, with the simulator's URL made stable. */
  golden(name: string, outcome: Outcome | Outcome['view']): void;
}

export function useSimulator(): Harness {
  let sim: SimulatorHandle | undefined;
  const clients: SccClient[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim?.reset());
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim?.stop();
  });
  const handle = (): SimulatorHandle => {
    if (!sim) throw new Error('the simulator has not started');
    return sim;
  };
  const client = (token = 'sim-super-admin'): SccClient => {
    const created = createSccClient({ baseUrl: handle().url, token, retry: { maxAttempts: 1 } });
    clients.push(created);
    return created;
  };
  const context = (token?: string): OperationContext => ({
    scc: client(token),
    profile: 'default',
    actor: ACTOR,
    requestId: 'req-test',
    log: pino({ level: 'silent' }),
    now: () => Date.now(),
  });
  return {
    get sim() {
      return handle();
    },
    client,
    context,
    async run(text, options = {}) {
      const { op, raw } = catalogue.parse(text);
      return op.execute(context(options.token), { ...raw, ...options.raw });
    },
    golden(name, outcome) {
      const view = 'view' in outcome ? outcome.view : outcome;
      const url = handle().url;
      expectGolden(name, view, (text) => text.split(url).join('http://simulator'));
    },
  };
}
