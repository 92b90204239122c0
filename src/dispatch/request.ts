// One request as the dispatcher and the surfaces see it, whichever surface it came from (a Slack
// interaction, a console line, a CLI run): who, where, a request id that is on every log line about it, and
// a child logger carrying both. Slack builds it right after ack(), from a parsed payload.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Actor } from '../catalogue/operation.js';
import { currentLogContext } from '../observability/logContext.js';

export interface RequestContext {
  requestId: string;
  actor: Actor;
  log: Logger;
}

// Ids are cut from a pool of random bytes refilled 1,024 ids at a time: one call into the CSPRNG per
// thousand interactions instead of one each, on the path every Slack request takes.
const ID_BYTES = 6;
const POOL_IDS = 1024;
let pool = Buffer.alloc(0);
let offset = 0;

/** Twelve random hex digits: the id on every log line about one request. */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

/**
 * The request's id is the interaction's event id when it has one (instrumentBolt gives every interaction
 * one, on every line written while it is handled), so all lines of a request — the surface's and those of
 * shared objects such as the SCC clients — carry the same id, and an internal error's reference leads to
 * all of them. A fresh id only where nothing set one (e.g. an app wired without instrumentBolt).
 */
export function beginRequest(
  log: Logger,
  surface: string,
  actor: Actor,
  fields: Record<string, unknown> = {},
): RequestContext {
  const requestId = currentLogContext()?.eventId ?? newRequestId();
  return {
    requestId,
    actor,
    log: log.child({ requestId, surface, userId: actor.userId, channelId: actor.channelId, ...fields }),
  };
}
