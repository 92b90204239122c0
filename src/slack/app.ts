// The Bolt app: HTTP mode (signed requests at /slack/events, signature checked by Bolt's HTTPReceiver,
// timestamps outside ±5 minutes refused in front of it by requestWindow.ts, unsigned, oversized, slow or
// too many bodies at once by bodyLimit.ts) or Socket Mode when an app-level token is given (socketMode.ts: reconnects at once when
// Slack asks for a new connection). This file only builds and wires; the
// listeners live by surface in commands/, actions/, views/ and options/.
import { AsyncLocalStorage } from 'node:async_hooks';
import { App, type CustomRoute, HTTPReceiver } from '@slack/bolt';
import { SlackApi, type WebApiClient } from '../slackApi/slackApi.js';
import { registerApprovalListeners } from './actions/approvals.js';
import * as actions from './actions/index.js';
import { SlackApprovalNotifier } from './approvalNotifier.js';
import { type BodyLimits, withinBodyLimits } from './bodyLimit.js';
import { boltLogger } from './boltLogger.js';
import * as commands from './commands/index.js';
import { type FwbotDeps, surfaceOf } from './deps.js';
import * as events from './events/index.js';
import { registerUninstall } from './events/uninstall.js';
import { installerOptionsOf, type SlackOAuthSettings } from './install.js';
import * as options from './options/index.js';
import { withinRequestWindow } from './requestWindow.js';
import { refuseForeignResponseUrls, responseUrlCheck } from './responseUrl.js';
import { SlackRouter } from './router.js';
import { socketModeReceiver } from './socketMode.js';
import * as views from './views/index.js';
import { type BoundWorkspace, type RefusalAudit, workspaceBinding } from './workspaceBinding.js';

export interface SlackSettings {
  /** Single-workspace mode: the one bot token (`xoxb-…`). Absent in OAuth mode. */
  botToken?: string | undefined;
  /**
   * OAuth mode (HTTP only): installed in many workspaces through /slack/install, each request answered with
   * its workspace's own installation (install.ts). `workspace.teamId` is then the home workspace.
   */
  oauth?: SlackOAuthSettings | undefined;
  /** HTTP mode: the app's signing secret (required there; never empty). */
  signingSecret?: string | undefined;
  /** Socket Mode when set (`xapp-…`, scope connections:write). */
  appToken?: string | undefined;
  /** HTTP mode: where /slack/events listens. Socket Mode: where customRoutes listen, if any. */
  port?: number | undefined;
  /** Points the Web API client elsewhere (tests, proxies); in Socket Mode apps.connections.open too. */
  slackApiUrl?: string | undefined;
  /** Socket Mode: how long a pong may take before the connection is taken for dead (default 5 s). */
  pongTimeoutMs?: number | undefined;
  /** HTTP mode: what unverified request bodies may cost (bodyLimit.ts; its defaults when unset). */
  bodyLimits?: Partial<BodyLimits> | undefined;
  /** Extra HTTP routes (health, metrics), served in both modes. */
  customRoutes?: CustomRoute[];
  /**
   * The workspace served (SLACK_TEAM_ID, SLACK_ENTERPRISE_ID, SLACK_APP_ID; unset ones from the bot
   * token's auth.test at start), and where refusals of requests from elsewhere are audited.
   */
  workspace?: (BoundWorkspace & { audit?: RefusalAudit | undefined }) | undefined;
}

export interface FwbotApp {
  app: App;
  slack: SlackApi;
  mode: 'http' | 'socket';
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const EVENTS_PATH = '/slack/events';

export function createFwbotApp(deps: FwbotDeps, settings: SlackSettings): FwbotApp {
  const logger = boltLogger(deps.log);
  const clientOptions = settings.slackApiUrl ? { slackApiUrl: settings.slackApiUrl } : {};
  const customRoutes = settings.customRoutes ?? [];
  // fwbot subscribes to no message events (only app_home_opened, manifest.yml) and keeps no conversation
  // state, so Bolt's conversation store and its "ignore the bot's own messages" middleware would only cost
  // every request.
  const lean = { convoStore: false, ignoreSelf: false } as const;
  let app: App;
  let mode: FwbotApp['mode'];
  if (settings.oauth && settings.appToken)
    throw new Error(
      "Socket Mode serves one workspace (Slack's rule): installing fwbot in many workspaces (OAuth) needs HTTP mode",
    );
  if (settings.oauth && !settings.workspace?.teamId)
    throw new Error('OAuth mode needs the home workspace (SLACK_TEAM_ID)');
  if (!settings.oauth && !settings.botToken) throw new Error('Slack needs a bot token, or OAuth settings');
  if (settings.appToken) {
    mode = 'socket';
    const receiver = socketModeReceiver({
      appToken: settings.appToken,
      logger,
      log: deps.log,
      slackApiUrl: settings.slackApiUrl,
      customRoutes,
      port: settings.port,
      pongTimeoutMs: settings.pongTimeoutMs,
    });
    // Bolt refuses a token beside an installer: in OAuth mode each request's token comes from its install.
    const token = settings.oauth ? undefined : settings.botToken;
    app = new App({ token, receiver, logger, clientOptions, ...lean });
  } else {
    mode = 'http';
    if (!settings.signingSecret) throw new Error('HTTP mode needs the Slack signing secret');
    const receiver = new HTTPReceiver({
      signingSecret: settings.signingSecret,
      endpoints: EVENTS_PATH,
      customRoutes,
      logger,
      // OAuth mode: /slack/install and /slack/oauth_redirect beside /slack/events, and Bolt's authorize
      // finds each request's workspace installation.
      ...(settings.oauth
        ? installerOptionsOf(settings.oauth, {
            log: deps.log,
            audit: settings.workspace?.audit,
            slackApiUrl: settings.slackApiUrl,
          })
        : {}),
    });
    // requestListener is the receiver's public entry point (its server calls it for every request), so
    // wrapping it puts the future-date check and the body size limit in front of Bolt's verification
    // without forking Bolt.
    receiver.requestListener = withinRequestWindow(
      withinBodyLimits(receiver.requestListener, {
        log: deps.log,
        path: EVENTS_PATH,
        limits: settings.bodyLimits,
        metrics: deps.metrics,
      }),
      deps.log,
    );
    app = new App({ token: settings.botToken, receiver, logger, clientOptions, ...lean });
  }
  // Bolt hands every request the client of the workspace it came from (in OAuth mode, that workspace's own
  // installation's token). fwbot's listeners all reach Slack through one SlackApi, so the request's client
  // travels with the request (its async context) and that SlackApi calls through it; outside a request
  // (start-up checks) it is the app's own client.
  const requestClient = new AsyncLocalStorage<WebApiClient>();
  app.use(async ({ client, next }) => requestClient.run(client, next));
  const slack = new SlackApi({
    apiCall: (method, args) => (requestClient.getStore() ?? app.client).apiCall(method, args),
  });
  // In front of every listener: only the workspace fwbot serves, and answers only to Slack's own response URLs.
  const { audit, ...configured } = settings.workspace ?? {};
  const whoAmI = () => slack.authTest();
  const installations = settings.oauth?.installations;
  const workspace = workspaceBinding({
    whoAmI,
    configured,
    audit,
    // Slack Connect: external people only in channels that admit them (customer channels, external grants).
    admitsExternal: (channelId, bound) => deps.access.admitsExternal(channelId, bound),
    log: deps.log,
    // OAuth mode: each request is bound to the workspace whose installation Bolt found for it, as its record says.
    perInstallation: settings.oauth !== undefined,
    ...(installations ? { installationOf: (query) => installations.identity(query) } : {}),
  });
  app.use(workspace.middleware);
  app.use(refuseForeignResponseUrls(responseUrlCheck(settings.slackApiUrl), deps.log));
  const surface = surfaceOf(deps, slack);
  const router = new SlackRouter(deps.log);
  commands.register(router, surface);
  actions.register(router, surface);
  views.register(router, surface);
  options.register(router, surface);
  if (deps.approvals) {
    const notifier = new SlackApprovalNotifier(slack, deps.log);
    registerApprovalListeners(router, {
      decisions: deps.approvals.decide,
      notifier,
      dedupe: deps.dedupe,
      log: deps.log,
    });
  }
  router.attach(app);
  // Events API events (the Home tab) pass the router and reach Bolt's own listeners.
  events.register(app, surface);
  registerUninstall(app, {
    installations: settings.oauth?.installations,
    log: deps.log,
    audit: settings.workspace?.audit,
  });
  app.error(async (error) => {
    // OAuth mode: a request from a workspace fwbot has no installation for (never installed, or removed).
    if ('code' in error && error.code === 'slack_bolt_authorization_error')
      return deps.log.warn('a Slack request from a workspace fwbot is not installed in; nothing run');
    deps.log.error({ err: error }, 'unhandled error in a Slack listener');
  });
  return {
    app,
    slack,
    mode,
    async start() {
      // Which workspace to serve is known before the first request is taken, or fwbot does not start.
      await workspace.bound();
      if (mode === 'http') await app.start(settings.port ?? 3000);
      else await app.start();
    },
    async stop() {
      await app.stop();
    },
  };
}
