// One Slack interaction as the rest of the surface sees it: who, where, a request id that is on every log
// line about it, and a child logger carrying both. Built right after ack(), from a parsed payload.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Actor } from '../catalogue/operation.js';
import { currentLogContext } from '../observability/logContext.js';

export interface SlackRequest {
  requestId: string;
  actor: Actor;
  log: Logger;
}

export function newRequestId(): string {
  return randomBytes(6).toString('hex');
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
): SlackRequest {
  const requestId = currentLogContext()?.eventId ?? newRequestId();
  return {
    requestId,
    actor,
    log: log.child({ requestId, surface, userId: actor.userId, channelId: actor.channelId, ...fields }),
  };
}
