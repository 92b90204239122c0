// Reconnects at once when Slack asks for a new Socket Mode connection. Slack sends `disconnect` with reason
// `warning` (the connection closes in about 10 s) or `refresh_requested`; @slack/socket-mode 3.1 answers
// with a close frame, then waits for Slack to end the TCP connection (Slack does not: the pong watchdog
// ends it, up to clientPingTimeout later), then waits clientPingTimeout × consecutive failures (5 s) before
// opening a new one. A single-process fwbot had no connection for 5 to 12 s, and every /fw in that window
// failed. Here, on such a request, the old connection is ended once its close frame is sent and the new
// one is opened straight away; any other close (a dead link, a failed reconnect, `link_disabled`) keeps
// the library's backoff.
//
// This is the only place that reaches past the library's public API: it wraps the client's private
// `delayReconnectAttempt(next)` and reads the `ws_message` events the client emits for itself. Both are
// checked when the client is built; if the library changes shape, fwbot logs a warning and runs with the
// library's own behaviour (test/slack/socketMode/refresh.test.ts fails loudly).
import type { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';

type SocketModeClient = SocketModeReceiver['client'];

/** The reasons after which Slack expects the app to open a new connection at once. */
const REFRESH_REASONS = new Set(['warning', 'refresh_requested']);

const DisconnectMessage = z.object({ type: z.literal('disconnect'), reason: z.string() });

/** What this module uses of the client beyond its types: checked, not assumed. */
interface ClientInternals {
  delayReconnectAttempt: (this: SocketModeClient, next: () => Promise<unknown>) => Promise<unknown>;
}

/** Why the client cannot be given the fast path (the library's shape changed), or undefined when it can. */
export function refreshUnsupported(client: SocketModeClient): string | undefined {
  const internals = client as unknown as Partial<ClientInternals>;
  if (typeof internals.delayReconnectAttempt !== 'function')
    return '@slack/socket-mode has no delayReconnectAttempt any more';
  if (internals.delayReconnectAttempt.length !== 1)
    return '@slack/socket-mode delayReconnectAttempt no longer takes one callback';
  if (client.listeners('ws_message').length === 0)
    return '@slack/socket-mode no longer reads its messages through ws_message events';
  return undefined;
}

/** The reason of a Slack `disconnect` message asking for a new connection, or undefined for anything else. */
function refreshReason(data: unknown): string | undefined {
  // Envelopes are parsed only when they could be a disconnect message (they are small; envelopes are not).
  if (typeof data !== 'string' || !data.includes('"disconnect"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  const message = DisconnectMessage.safeParse(parsed);
  if (!message.success || !REFRESH_REASONS.has(message.data.reason)) return undefined;
  return message.data.reason;
}

/** Gives the client the fast path; false (with a warning) when the library's shape does not allow it. */
export function reconnectAtOnceOnRefresh(client: SocketModeClient, log: Logger): boolean {
  const unsupported = refreshUnsupported(client);
  if (unsupported) {
    log.warn(
      { unsupported },
      'Socket Mode: reconnecting after Slack asks for a new connection takes 5 s or more',
    );
    return false;
  }
  const internals = client as unknown as ClientInternals;
  const libraryDelay = internals.delayReconnectAttempt;
  let refreshing: string | undefined;

  // Registered after the client's own listener, which has just sent the close frame: a second
  // disconnect() of a closing socket ends its TCP connection now rather than when the pong watchdog does.
  client.on('ws_message', (data: unknown) => {
    const reason = refreshReason(data);
    if (reason === undefined) return;
    refreshing = reason;
    client.websocket?.disconnect();
  });
  // A disconnect() of ours (shutting down) is never taken for Slack's request.
  client.on('disconnecting', () => {
    refreshing = undefined;
  });

  internals.delayReconnectAttempt = function delayReconnectAttempt(next) {
    const reason = refreshing;
    refreshing = undefined;
    // The library does not catch a reconnect that fails or that a shutdown interrupts (start() then
    // rejects, with undefined): an unhandled rejection would end the process. A failed one closes again and
    // goes through the library's backoff.
    const reconnect =
      next === this.start
        ? () =>
            this.start().catch((error: unknown) => {
              log.info({ err: error, reason }, 'Socket Mode: a reconnect did not complete');
            })
        : next;
    if (reason === undefined) return libraryDelay.call(this, reconnect);
    log.info({ reason }, 'Socket Mode: Slack asked for a new connection; opening it now');
    this.emit('reconnecting');
    return reconnect.call(this);
  };
  return true;
}
