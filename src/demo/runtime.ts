// The demo's runtime: the same assembly as the bot's (src/app/assemble.ts: Redis, the queues and their
// workers, the surface with its approvals and Home, the readers of Redis behind /metrics, the approvals'
// passes), on the demo's own configuration (the simulator's profile unless one is configured, its
// policy, its Redis), with the console's chat (src/console/consoleChat.ts) for the console's channel: what
// the workers and the approvals post there lands in the terminal as the View it is, and what they post
// anywhere else goes to the real workspace when Slack credentials are set. No Bolt app and no command
// intake: the console (and the demo's Slack app, demo/slack.ts) run commands in this process.
import type { Logger } from 'pino';
import { assemble } from '../app/assemble.js';
import type { OwnedSccClients } from '../app/sccClients.js';
import { type SlackClients, slackClientsOf } from '../app/surface.js';
import type { Approvals } from '../approvals/approvals.js';
import type { Catalogue } from '../catalogue/index.js';
import type { CertificateProbe, OperationServices } from '../catalogue/operation.js';
import type { Config } from '../config.js';
import type { ConsoleChat } from '../console/consoleChat.js';
import type { ConsoleDeps } from '../console/runner.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { Tracker } from '../dispatch/ports.js';
import type { Home } from '../home/service.js';
import type { ScheduleOverrides } from '../jobs/schedule.js';
import type { ReadinessCheck } from '../observability/health.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import type { AccessControl } from '../policy/access.js';
import type { RedisClient } from '../redis/connection.js';
import type { Deduper } from '../redis/dedupe.js';
import { slackClient } from '../slackApi/clients.js';

export interface RuntimeOptions {
  /** The demo's configuration: its Redis, its SCC profiles (the simulator's) and its policy. */
  config: Config;
  log: Logger;
  metrics: FwbotMetrics;
  /** The console's chat: what is posted in its channel is shown in the terminal. */
  consoleChat: ConsoleChat;
  /** Real Slack beside the console (the demo with Slack tokens). */
  realSlack?: { token: string; apiUrl: string } | undefined;
  /** Key prefix of the deployment (default `fwbot`; tests use their own). */
  prefix?: string;
  /** Speeds polling up for tests. */
  schedule?: ScheduleOverrides;
  /** The look at devices' certificates: the in-process simulator's management endpoint (default: the devices'). */
  certificates?: CertificateProbe;
}

export interface Runtime {
  catalogue: Catalogue;
  access: AccessControl;
  /** The surfaces' SCC clients (the workers have their own, without retries). */
  clients: OwnedSccClients;
  tracker: Tracker;
  /** Every surface's calls go through it: roles, approvals, reveals, queues, audit. */
  dispatcher: Dispatcher;
  approvals: Approvals;
  services: OperationServices;
  /** Drops Slack's second deliveries of one interaction (shared with the approvals' listeners). */
  dedupe: Deduper;
  /** Each person's App Home, read by the console's /home (nothing is published from the demo). */
  home: Home;
  redis: RedisClient;
  readinessChecks: ReadinessCheck[];
  /** In order: stop the workers (jobs in hand finish), the approvals, the observers, Redis, SCC. */
  shutdownSteps(): ShutdownStep[];
}

/** The console's view of the runtime: the same catalogue, checks, approvals and tracking as Slack's. */
export function consoleDeps(
  runtime: Runtime,
  extra: Pick<ConsoleDeps, 'consoleChat' | 'log' | 'users' | 'channelId' | 'metrics' | 'world'>,
): ConsoleDeps {
  return {
    catalogue: runtime.catalogue,
    dispatcher: runtime.dispatcher,
    tracker: runtime.tracker,
    approvals: runtime.approvals,
    home: runtime.home,
    ...extra,
  };
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, log, metrics, consoleChat, realSlack } = options;
  const assembled = await assemble({
    config,
    log,
    metrics,
    name: 'demo',
    workers: true,
    commands: false,
    observe: true,
    sweep: true,
    oneChannelForAll: true,
    slack: realSlack ? slackClientsOf(realSlack.token, realSlack.apiUrl) : noSlack(),
    // The console's channel is the console's; any other is Slack's.
    chat: (slack) => consoleChat.beside(slack),
    ...(options.prefix ? { redisPrefix: options.prefix } : {}),
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.certificates ? { certificates: options.certificates } : {}),
  });
  const { surface } = assembled;
  const { deps } = surface;
  return {
    catalogue: deps.catalogue,
    access: deps.access,
    clients: surface.clients,
    // Follows from the console are noted for the follower's Home, as from Slack.
    tracker: deps.tracker,
    dispatcher: deps.dispatcher,
    approvals: surface.approvals,
    services: deps.services ?? {},
    dedupe: deps.dedupe,
    home: surface.home,
    redis: assembled.redis,
    readinessChecks: assembled.readinessChecks,
    shutdownSteps: () => assembled.steps(),
  };
}

/**
 * The console without Slack credentials has no workspace: its messages go to the console's chat, and a call
 * that reaches for Slack's Web API anyway is refused (`not_in_console`), never answered by a stand-in.
 */
function noSlack(): SlackClients {
  const refused = async () => Response.json({ ok: false, error: 'not_in_console' });
  const client = () =>
    slackClient('xoxb-console-not-a-secret', {
      slackApiUrl: 'https://console.fwbot.invalid/api/',
      fetch: refused,
      retryConfig: { retries: 0 },
    });
  return { answers: client(), workers: client(), home: client() };
}
