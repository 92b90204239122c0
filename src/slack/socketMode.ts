// The Socket Mode receiver, built here rather than by Bolt's App (which passes it neither the Web API
// options nor the ping settings): apps.connections.open goes where every other Web API call goes
// (SLACK_API_URL), the pong timeout stays the library's 5 s (a shorter one would drop healthy connections
// on slow links), and a connection Slack asks to refresh is replaced at once (socketModeRefresh.ts).
import { type CustomRoute, type Logger as SlackLogger, SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { reconnectAtOnceOnRefresh } from './socketModeRefresh.js';

export interface SocketModeSettings {
  appToken: string;
  /** Bolt's logger (boltLogger.ts) for the receiver and the client; `log` for fwbot's own lines. */
  logger: SlackLogger;
  log: Logger;
  slackApiUrl?: string | undefined;
  /** Served on `port` when there are any (health, metrics). */
  customRoutes: CustomRoute[];
  port?: number | undefined;
  /**
   * How long a pong may take before the connection is taken for dead (the library's default, 5 s, when
   * unset). The library also waits this long × consecutive failures before each reconnect after a failure.
   */
  pongTimeoutMs?: number | undefined;
}

export function socketModeReceiver(settings: SocketModeSettings): SocketModeReceiver {
  const receiver = new SocketModeReceiver({
    appToken: settings.appToken,
    logger: settings.logger,
    customRoutes: settings.customRoutes,
    // The client adds its own retry policy to the options it is given: a copy keeps it off the App's.
    installerOptions: {
      clientOptions: settings.slackApiUrl ? { slackApiUrl: settings.slackApiUrl } : {},
      ...(settings.port === undefined ? {} : { port: settings.port }),
    },
    ...(settings.pongTimeoutMs === undefined ? {} : { clientPingTimeout: settings.pongTimeoutMs }),
  });
  reconnectAtOnceOnRefresh(receiver.client, settings.log);
  return receiver;
}
