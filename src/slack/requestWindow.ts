// Slack's replay window for HTTP mode: a request whose `x-slack-request-timestamp` is more than five
// minutes from now, in either direction, is refused before Bolt reads it. Bolt 5.1's verifier refuses
// only stale timestamps, so a request signed with a date ahead would stay replayable until that date plus
// five minutes; this wraps the receiver's request listener to close that side too.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** Slack's guidance: |now − timestamp| > 5 minutes is a possible replay. */
export const REQUEST_WINDOW_SECONDS = 5 * 60;

/** Seconds between the request's Slack timestamp and now, or undefined when it carries none Bolt can read. */
function skewSeconds(request: IncomingMessage, nowMs: number): number | undefined {
  const header = request.headers['x-slack-request-timestamp'];
  // Missing or malformed timestamps are Bolt's to refuse (it answers 401 for those already).
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const timestamp = Number(header);
  if (!Number.isFinite(timestamp)) return undefined;
  return timestamp - Math.floor(nowMs / 1000);
}

export function withinRequestWindow(
  listener: RequestListener,
  log: Logger,
  now: () => number = Date.now,
): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const skew = skewSeconds(request, now());
    if (skew !== undefined && Math.abs(skew) > REQUEST_WINDOW_SECONDS) {
      log.warn({ skewSeconds: skew }, 'refused a Slack request dated outside the 5-minute window');
      // The same answer Bolt gives a stale request: 401 with no body.
      response.writeHead(401);
      response.end();
      return;
    }
    listener(request, response);
  };
}
