// Who staged what fwbot did not, from SCC's change log: a device's change log stays ACTIVE while it has
// changes that are not deployed, and each of its events names the SCC user who made it. Events by the
// token's own user are fwbot's (the staging ledger names the people behind them); the others are named on
// a deploy's or a discard's card instead of "staged elsewhere". Best effort: a card is never refused for
// it, and when SCC cannot say, the card says why in one clause.
import { z } from 'zod';
import { SccError } from '../scc/errors.js';
import { fieldIs } from '../scc/lucene.js';
import type { OperationContext } from './operation.js';

/** A pending change SCC's change log names, made by another SCC user than fwbot's. */
export const LoggedChange = z.object({
  username: z.string(),
  /** SCC's time of the event (ISO), when it gave one. */
  at: z.string().nullable(),
  description: z.string(),
});
export type LoggedChange = z.infer<typeof LoggedChange>;

/** What the change log said of one device: its other users' pending changes, or why it could not be read. */
export const ChangeLogRead = z.union([
  z.object({ read: z.literal(true), changes: z.array(LoggedChange) }),
  z.object({ read: z.literal(false), reason: z.string() }),
]);
export type ChangeLogRead = z.infer<typeof ChangeLogRead>;

/** The SCC operations stagedInScc calls, for the `scc` declaration of the operations that use it. */
export const CHANGE_LOG_READS = ['getToken', 'getChangelogs'] as const;

/** SCC's answer as a clause ("SCC refused the request (403 FORBIDDEN): …"), never an internal detail. */
function reasonOf(error: unknown): string {
  if (error instanceof SccError) return error.userMessage().replace(/\.$/, '');
  return 'fwbot could not read it (the log says why)';
}

/**
 * Per device: the pending changes its ACTIVE change log records by users other than the token's own,
 * oldest first. Two calls whatever the number of devices (the token, then the devices' open change logs).
 */
export async function stagedInScc(
  ctx: OperationContext,
  deviceUids: readonly string[],
): Promise<Map<string, ChangeLogRead>> {
  if (deviceUids.length === 0) return new Map();
  try {
    const [token, page] = await Promise.all([
      ctx.scc.events.token(),
      ctx.scc.events.changelogs({
        q: `status:ACTIVE AND (${deviceUids.map((uid) => fieldIs('entityUid', uid)).join(' OR ')})`,
        // One open change log per device at most, and a deploy names at most 50 devices.
        limit: 200,
      }),
    ]);
    const self = token.name?.toLowerCase();
    const byDevice = new Map<string, LoggedChange[]>(deviceUids.map((uid) => [uid, []]));
    for (const log of page.items ?? []) {
      const changes = log.entityUid ? byDevice.get(log.entityUid) : undefined;
      if (!changes || log.status !== 'ACTIVE') continue;
      for (const event of log.events ?? []) {
        const username = event.username?.trim();
        if (!username || username.toLowerCase() === self) continue;
        changes.push({ username, at: event.date ?? null, description: event.description ?? '' });
      }
    }
    return new Map(
      [...byDevice].map(([uid, changes]) => [
        uid,
        { read: true, changes: changes.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '')) },
      ]),
    );
  } catch (error) {
    ctx.log.warn({ err: error }, 'SCC change log not read for who staged what');
    const reason = reasonOf(error);
    return new Map(deviceUids.map((uid) => [uid, { read: false, reason }]));
  }
}
