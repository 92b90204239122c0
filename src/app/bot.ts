// The running bot: the shared assembly (assemble.ts: Redis, the queues and, with BOT_WORKERS=on, their
// workers and the queued commands' workers, the surface with its approvals and Home), the command intake
// that hands /fw commands to the command workers, and the Bolt app (Socket Mode when an app token is
// configured, else HTTP at /slack/events) with /healthz, /readyz and /metrics beside it. With
// BOT_WORKERS=off it is a front that only answers Slack, and `npm run worker` processes do the work.
// Returns a handle that stops everything in order; src/entry/bot.ts is only the process around this.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { HomeTiming } from '../home/changes.js';
import { createCommandIntake } from '../jobs/commandQueue.js';
import { type ReadinessCheck, slackApiCheck } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import { createMetrics, type FwbotMetrics, observeSlackClient } from '../observability/metrics.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import type { RedisClient } from '../redis/connection.js';
import { createFwbotApp, type FwbotApp, type SlackSettings } from '../slack/app.js';
import type { RedisInstallations } from '../slack/installations.js';
import { RedisInstallStates } from '../slack/installStates.js';
import { assemble } from './assemble.js';
import { installedWorkspaces } from './installedWorkspaces.js';
import { instrumentBolt } from './instrument.js';

export interface StartBotOptions {
  /** Another key prefix in Redis (tests share one server). */
  redisPrefix?: string;
  /** How App Home updates are coalesced (tests shorten the waits). */
  homeTiming?: Partial<HomeTiming>;
  /** The process's registry, when the process counts in it too (entry/bot.ts: unhandled rejections). */
  metrics?: FwbotMetrics;
}

export interface RunningBot {
  fwbot: FwbotApp;
  /** /healthz, /readyz, /metrics as Bolt customRoutes: beside /slack/events, or on PORT in Socket Mode. */
  http: HttpSide;
  /** In order, for installGracefulShutdown: not ready, no new events, jobs in hand finish, connections close. */
  shutdownSteps(): ShutdownStep[];
  stop(): Promise<void>;
}

export async function startBot(
  config: Config,
  log: Logger,
  options: StartBotOptions = {},
): Promise<RunningBot> {
  const slackConfig = config.slack;
  if (slackConfig.mode === 'disabled')
    throw new Error('Slack is not configured (SLACK_BOT_TOKEN and a mode)');
  // OAuth mode: each workspace's clients from its installation, here and in the Bolt app's installer.
  const oauth = installedWorkspaces(config, log);
  const metrics = options.metrics ?? createMetrics();
  // With BOT_WORKERS=on the workers, and the queued commands' workers, run in this process too.
  const fwbotCore = await assemble({
    config,
    log,
    metrics,
    name: 'bot',
    workers: config.botWorkers,
    commands: config.botWorkers,
    observe: true,
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
    ...(options.homeTiming ? { homeTiming: options.homeTiming } : {}),
    ...(oauth ? { slack: (opened) => oauth.clients(opened) } : {}),
  });
  const { prefix, redisHealth, surface } = fwbotCore;
  const installations = oauth?.installations;
  const { approvals, clients } = surface;
  const redisUrl = config.redis;
  const intake = createCommandIntake({ redisUrl, prefix, log, redisHealth });
  await intake.ready();

  // Read at each probe: the Slack check joins once the app exists.
  const readinessChecks: ReadinessCheck[] = [...fwbotCore.readinessChecks];
  const http = createHttpSide({
    port: config.http.port,
    metricsPort: config.http.metricsPort,
    readinessChecks,
    metrics,
    log,
  });
  const fwbot = createFwbotApp(
    { ...surface.deps, commandIntake: intake },
    {
      ...slackModeSettings(slackConfig, installations, fwbotCore.redis, prefix),
      port: config.http.port,
      slackApiUrl: slackConfig.apiUrl,
      // HTTP mode: the same server as /slack/events. Socket Mode: Bolt serves them on PORT too.
      customRoutes: http.routes,
      // Requests from another workspace or app are refused, and each refusal goes to the audit trail.
      workspace: {
        ...slackConfig.workspace,
        audit: approvals.audit,
      },
    },
  );
  instrumentBolt(fwbot.app, metrics);
  observeSlackClient(fwbot.app.client, metrics);
  // OAuth mode has no token of its own to ask auth.test with, and must stay reachable for /slack/install
  // before any workspace (its home one included) has installed it: its readiness is Redis's and SCC's.
  if (slackConfig.mode !== 'oauth') readinessChecks.push(slackApiCheck(fwbot.app.client));
  await fwbot.start();
  if (slackConfig.mode === 'oauth' && !(await installations?.botToken(slackConfig.workspace)))
    log.warn(
      { teamId: slackConfig.workspace.teamId },
      'fwbot is not installed in its home workspace (SLACK_TEAM_ID) yet: open /slack/install there',
    );
  // METRICS_PORT: /metrics on a server of its own, not among the routes of the port Slack reaches.
  if (config.http.metricsPort !== undefined) await http.listenMetrics();
  // Requests approved while no bot ran are run now, and expired ones closed from now on.
  await approvals.recover();
  approvals.startSweeper();
  // Scheduled Home updates are published by the bot processes (they have the Slack token and the data).
  surface.home.start();
  log.info(
    {
      mode: fwbot.mode,
      port: config.http.port,
      profiles: clients.names(),
      policy: config.policy !== null,
      workers: config.botWorkers ? 'in this process' : 'none (BOT_WORKERS=off: run npm run worker)',
    },
    'fwbot is running',
  );

  const steps = (): ShutdownStep[] => [
    { name: 'readiness', run: async () => http.drain() },
    { name: 'slack', run: () => fwbot.stop() },
    { name: 'metrics server', run: () => http.close() },
    { name: 'command intake', run: () => intake.close() },
    { name: 'installations', run: async () => oauth?.close() },
    ...fwbotCore.steps(),
  ];
  return {
    fwbot,
    http,
    shutdownSteps: steps,
    async stop() {
      for (const step of steps()) await step.run();
    },
  };
}

/** The Bolt app's credentials for the configured mode: a bot token (HTTP or Socket Mode), or OAuth's installer. */
function slackModeSettings(
  slack: Exclude<Config['slack'], { mode: 'disabled' }>,
  installations: RedisInstallations | undefined,
  redis: RedisClient,
  prefix: string,
): Pick<SlackSettings, 'botToken' | 'signingSecret' | 'appToken' | 'oauth'> {
  switch (slack.mode) {
    case 'http':
      return { botToken: slack.botToken.reveal(), signingSecret: slack.signingSecret.reveal() };
    case 'socket':
      return { botToken: slack.botToken.reveal(), appToken: slack.appToken.reveal() };
    case 'oauth':
      if (!installations) throw new Error('OAuth mode: the installations were not opened with the assembly');
      return {
        signingSecret: slack.signingSecret.reveal(),
        oauth: {
          clientId: slack.clientId,
          clientSecret: slack.clientSecret.reveal(),
          installations,
          states: new RedisInstallStates(redis, prefix),
        },
      };
  }
}
