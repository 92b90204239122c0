// One SCC client per configured profile (region or base URL, and its token), created once at start and
// closed at shutdown. Nothing global: surfaces ask this object for the profile's client.
import type { Logger } from 'pino';
import type { SccProfile } from '../config/endpoints.js';
import type { SccClients } from '../dispatch/ports.js';
import { createSccClient, type SccCallEvent, type SccClient } from '../scc/client.js';

export interface OwnedSccClients extends SccClients {
  close(): Promise<void>;
}

export function sccClientsFrom(clients: ReadonlyMap<string, SccClient>): OwnedSccClients {
  return {
    names: () => [...clients.keys()],
    get(profile) {
      const client = clients.get(profile);
      if (!client) throw new Error(`no SCC client for the profile ${profile}`);
      return client;
    },
    async close() {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}

export function createSccClients(
  profiles: ReadonlyMap<string, SccProfile>,
  /** `retries: false` for queue workers, which reschedule instead of retrying inside the client. */
  options: { timeoutMs?: number; log: Logger; retries?: boolean; onCall?: (event: SccCallEvent) => void },
): OwnedSccClients {
  const clients = new Map<string, SccClient>();
  for (const [name, profile] of profiles) {
    clients.set(
      name,
      createSccClient({
        baseUrl: profile.baseUrl,
        token: profile.token.reveal(),
        profile: name,
        ...(options.timeoutMs ? { timeouts: { defaultMs: options.timeoutMs } } : {}),
        ...(options.retries === false ? { retry: { maxAttempts: 1 } } : {}),
        ...(options.onCall ? { onCall: options.onCall } : {}),
        ...(profile.lacks ? { lacks: profile.lacks } : {}),
        logger: options.log.child({ component: 'scc', profile: name }),
      }),
    );
  }
  return sccClientsFrom(clients);
}
