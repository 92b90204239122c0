// The demo in a real workspace: with Slack credentials, the same runtime (catalogue, permission check,
// approvals, tracker) also serves /fw through the Slack surface, in Socket Mode (or HTTP mode, where the
// health routes share Bolt's server). The approvals' card buttons are registered on this app too.
import type { Logger } from 'pino';
import { instrumentBolt } from '../app/instrument.js';
import type { SlackConfig } from '../config.js';
import { slackApiCheck } from '../observability/health.js';
import type { HttpSide } from '../observability/httpSide.js';
import { type FwbotMetrics, observeSlackClient } from '../observability/metrics.js';
import { createFwbotApp } from '../slack/app.js';
import type { Runtime } from './runtime.js';

export interface DemoSlack {
  mode: 'socket' | 'http';
  stop(): Promise<void>;
}

export interface DemoSlackOptions {
  slack: Exclude<SlackConfig, { mode: 'disabled' | 'oauth' }>;
  runtime: Runtime;
  metrics: FwbotMetrics;
  log: Logger;
  http: HttpSide;
  /** HTTP mode: where Bolt listens for /slack/events (and the health routes). */
  port: number;
  /** Receives the Slack readiness check once the app exists. */
  readinessChecks: { push(check: ReturnType<typeof slackApiCheck>): unknown };
}

export async function startDemoSlack(options: DemoSlackOptions): Promise<DemoSlack> {
  const { slack, runtime, metrics, log, http } = options;
  const bot = createFwbotApp(
    {
      catalogue: runtime.catalogue,
      scc: runtime.clients,
      access: runtime.access,
      tracker: runtime.tracker,
      dispatcher: runtime.dispatcher,
      dedupe: runtime.dedupe,
      log: log.child({ component: 'slack' }),
      metrics,
      services: runtime.services,
      approvals: runtime.approvals,
    },
    {
      botToken: slack.botToken.reveal(),
      appToken: slack.mode === 'socket' ? slack.appToken.reveal() : undefined,
      signingSecret: slack.mode === 'http' ? slack.signingSecret.reveal() : undefined,
      port: options.port,
      slackApiUrl: slack.apiUrl,
      // Only the bot token's own workspace (or the configured one); refusals go to the audit trail.
      workspace: { ...slack.workspace, audit: runtime.approvals.audit },
      // HTTP mode: one server for Slack and the health routes. Socket Mode: the demo serves them itself.
      ...(slack.mode === 'http' ? { customRoutes: http.routes } : {}),
    },
  );
  instrumentBolt(bot.app, metrics);
  observeSlackClient(bot.app.client, metrics);
  options.readinessChecks.push(slackApiCheck(bot.app.client));
  await bot.start();
  log.info({ mode: bot.mode }, 'connected to Slack');
  return { mode: bot.mode, stop: () => bot.stop() };
}
