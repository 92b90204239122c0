// One Slack interaction as the rest of the surface sees it: who, where, a request id that is on every log
// line about it, and a child logger carrying both. Built right after ack(), from a parsed payload.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Actor } from '../catalogue/operation.js';

export interface SlackRequest {
  requestId: string;
  actor: Actor;
  log: Logger;
}

export function newRequestId(): string {
  return randomBytes(6).toString('hex');
}

export function beginRequest(
  log: Logger,
  surface: string,
  actor: Actor,
  fields: Record<string, unknown> = {},
): SlackRequest {
  const requestId = newRequestId();
  return {
    requestId,
    actor,
    log: log.child({ requestId, surface, userId: actor.userId, channelId: actor.channelId, ...fields }),
  };
}
