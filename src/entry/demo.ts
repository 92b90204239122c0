// `npm run demo`: fwbot on one machine with no account anywhere — the SCC simulator in process (unless
// an SCC profile is configured), a Redis (REDIS_URL, or a redis-server of its own under ./.fwbot/), the
// workers, the approvals and the terminal console; with Slack credentials in the environment the same
// bot also joins the workspace. The simulator's world is kept in ./.fwbot/ across restarts, as the
// approvals and watches in Redis that refer to it are. Logs go to ./.fwbot/fwbot.log so the terminal
// stays a chat; so does a promise rejection nothing handled (observability/processFaults.ts).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { createCertificateProbe } from '../app/certificateProbe.js';
import { createLogger } from '../app/logger.js';
import { installProcess } from '../app/process.js';
import {
  type Config,
  ConfigError,
  configWith,
  loadConfig,
  type RolePolicy,
  type SccProfile,
} from '../config.js';
import { restorePendingCards } from '../console/approvalCards.js';
import { ConsoleChat } from '../console/consoleChat.js';
import { ConsoleSession } from '../console/session.js';
import { Terminal } from '../console/terminal.js';
import { CONSOLE_CHANNEL, chooseDemoPolicy, DEMO_USERS, simulatorProfile } from '../demo/defaults.js';
import { DemoSetupError, ensureDemoRedis } from '../demo/redis.js';
import { consoleDeps, startRuntime } from '../demo/runtime.js';
import { type DemoSlack, startDemoSlack } from '../demo/slack.js';
import { simulatorControls } from '../demo/worldControls.js';
import type { ReadinessCheck } from '../observability/health.js';
import { createHttpSide, type HttpSide } from '../observability/httpSide.js';
import { contextualDestination } from '../observability/logContext.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { ShutdownStep } from '../observability/shutdown.js';
import { EXIT_REDIS_UNREACHABLE, RedisUnreachable } from '../redis/check.js';
import { managementRoute, type SimulatorHandle, startSimulator } from '../simulator/index.js';
import type { WorldOrigin } from '../simulator/state/saved.js';

const STATE_DIR = '.fwbot';
/** The simulator's world, kept across restarts like the approvals and watches in Redis that refer to it. */
const WORLD_FILE = `${STATE_DIR}/simulator-world.v8`;

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function loadDemoConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

function demoSpeed(): number {
  const raw = process.env.FWBOT_DEMO_SPEED ?? '10';
  const speed = Number(raw);
  if (!(speed > 0) || !Number.isFinite(speed)) {
    process.stderr.write(`FWBOT_DEMO_SPEED must be a positive number, got ${raw}\n`);
    process.exit(2);
  }
  return speed;
}

/** Where the simulator's world came from, in one line of the start banner. */
function worldLine(world: WorldOrigin): string {
  const restart = `kept in ${WORLD_FILE} across restarts (delete it to start again from the seed)`;
  if (world.kind === 'seeded') {
    const why = world.discarded === undefined ? '' : ` (the saved one was not restored: ${world.discarded})`;
    return `new from the seed${why}, ${restart}`;
  }
  const saved = new Date(world.savedAt).toISOString().slice(0, 16).replace('T', ' ');
  const ended = world.interrupted === 0 ? '' : `; ${world.interrupted} still running then ended in ERROR`;
  return `restored from ${WORLD_FILE}, saved ${saved} UTC${ended}`;
}

async function listenOrWarn(http: HttpSide, port: number, metricsPort: number | undefined): Promise<string> {
  try {
    const bound = await http.listen();
    return `http://127.0.0.1:${bound}/healthz · /readyz${metricsPort === undefined ? ' · /metrics' : ''}`;
  } catch (error) {
    return `not served (port ${port}: ${error instanceof Error ? error.message : String(error)}; set PORT)`;
  }
}

/** METRICS_PORT: /metrics and the detailed /readyz on a server of their own, in one line of the banner. */
async function listenMetricsOrWarn(http: HttpSide, metricsPort: number): Promise<string> {
  try {
    const bound = await http.listenMetrics();
    return `http://127.0.0.1:${bound}/metrics · /readyz (with each check's reason)`;
  } catch (error) {
    return `not served (METRICS_PORT ${metricsPort}: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The role policy, or exit 2 with the one sentence that says why there is none (before anything starts). */
function demoPolicyOrExit(config: Config): RolePolicy {
  const choice = chooseDemoPolicy({
    configuredProfiles: [...config.profiles.keys()],
    filePolicy: config.policy,
    slackEveryone: config.slack.mode !== 'disabled',
  });
  if (choice.ok) return choice.policy;
  process.stderr.write(`${choice.problem}\n`);
  return process.exit(2);
}

async function main(): Promise<void> {
  const config = loadDemoConfig();
  const policy = demoPolicyOrExit(config);
  mkdirSync(STATE_DIR, { recursive: true });
  const logFile = resolve(STATE_DIR, 'fwbot.log');
  // Synchronous: the demo exits right after its last words, and they should be in the file.
  const destination = pino.destination({ dest: logFile, mkdir: true, sync: true });
  const log = createLogger(config.logLevel, contextualDestination(destination));
  // Installed first, so a signal during start-up stops what has started; each part puts its step in
  // front as it starts, so parts stop in the reverse order they started.
  // A rejection nothing handled goes to the log file and the metrics; the console carries on.
  const { steps, shutdown, metrics } = installProcess(log, (reason) =>
    process.stderr.write(`fwbot demo is stopping: ${reason} (the details are in ${logFile})\n`),
  );
  try {
    await run(config, policy, { log, metrics }, steps, logFile);
  } catch (error) {
    // Whatever started (a redis-server child above all) is stopped before the error is reported.
    shutdown.dispose();
    for (const step of steps) await step.run().catch(() => {});
    throw error;
  }
  await shutdown.shutdown('console closed');
}

/** Starts every part, putting each one's shutdown step in `steps`, then runs the console until it ends. */
async function run(
  config: Config,
  policy: RolePolicy,
  { log, metrics }: { log: Logger; metrics: FwbotMetrics },
  steps: ShutdownStep[],
  logFile: string,
): Promise<void> {
  let sim: SimulatorHandle | undefined;
  let profiles: ReadonlyMap<string, SccProfile> = config.profiles;
  if (profiles.size === 0) {
    sim = await startSimulator({ port: 0, clock: 'real', speed: demoSpeed(), worldFile: WORLD_FILE });
    profiles = new Map([['default', simulatorProfile(sim.url)]]);
    const started = sim;
    steps.unshift({ name: 'simulator', run: () => started.stop() });
  }
  const redis = await ensureDemoRedis({ url: process.env.REDIS_URL?.trim() || undefined, say });
  steps.unshift({ name: 'redis-server', run: () => redis.stop() });
  const slackConfig = config.slack;
  if (slackConfig.mode === 'oauth')
    throw new Error(
      'npm run demo joins one Slack workspace with SLACK_BOT_TOKEN; unset SLACK_CLIENT_ID (OAuth mode, installed in many workspaces, is for npm start)',
    );
  const consoleChat = new ConsoleChat([CONSOLE_CHANNEL]);
  // The demo's configuration: its Redis (perhaps a redis-server of its own), its profiles, its policy.
  const demoConfig = configWith(loadConfig({ ...process.env, REDIS_URL: redis.url }), { profiles, policy });
  const runtime = await startRuntime({
    config: demoConfig,
    log,
    metrics,
    consoleChat,
    realSlack:
      slackConfig.mode === 'disabled'
        ? undefined
        : { token: slackConfig.botToken.reveal(), apiUrl: slackConfig.apiUrl },
    // The simulated ASAs' certificates are shown from its management endpoint, as a real ASA's from its own.
    ...(sim ? { certificates: createCertificateProbe({ route: managementRoute(sim.managementPort) }) } : {}),
  });
  // Read at each probe: the Slack check joins once the Slack app exists.
  const readinessChecks: ReadinessCheck[] = [...runtime.readinessChecks];
  steps.unshift(...runtime.shutdownSteps());
  const { metricsPort } = config.http;
  const http = createHttpSide({ port: config.http.port, metricsPort, readinessChecks, metrics, log });
  steps.push({ name: 'http', run: () => http.close() });
  let slack: DemoSlack | undefined;
  if (slackConfig.mode !== 'disabled') {
    const options = {
      slack: slackConfig,
      runtime,
      metrics,
      log,
      http,
      port: config.http.port,
      readinessChecks,
    };
    const started = await startDemoSlack(options);
    slack = started;
    steps.unshift({ name: 'slack', run: () => started.stop() });
  }
  steps.unshift({ name: 'readiness', run: async () => http.drain() });
  const health =
    slack?.mode === 'http'
      ? `on the Slack app's port ${config.http.port}`
      : await listenOrWarn(http, config.http.port, metricsPort);
  const details = metricsPort === undefined ? undefined : await listenMetricsOrWarn(http, metricsPort);

  const terminal = new Terminal({ input: process.stdin, output: process.stdout });
  const session = new ConsoleSession(
    consoleDeps(runtime, {
      consoleChat,
      log,
      users: DEMO_USERS,
      channelId: CONSOLE_CHANNEL,
      metrics,
      ...(sim ? { world: simulatorControls(sim.url) } : {}),
    }),
    terminal,
  );
  steps.unshift({
    name: 'console',
    run: async () => {
      session.close();
      terminal.close();
    },
  });

  const scc = sim
    ? `simulator at ${sim.url} (its work ×${sim.clock.speed} faster than SCC’s, times on the wall clock), profile default as sim-super-admin`
    : `profiles ${[...profiles.keys()].join(', ')}`;
  say('fwbot demo');
  say(`  SCC:    ${scc}`);
  if (sim) say(`  World:  ${worldLine(sim.world)}`);
  say(`  Redis:  ${redis.url}${redis.owned ? ` (data in ${redis.dataDir}, append-only)` : ''}`);
  say(
    `  Slack:  ${slack ? `connected (${slack.mode === 'socket' ? 'Socket Mode' : 'HTTP'}); try /fw help in a channel` : 'not connected (set SLACK_BOT_TOKEN and SLACK_APP_TOKEN to join a workspace)'}`,
  );
  say(`  Health: ${health}`);
  if (details) say(`  Metrics: ${details}`);
  say(`  Logs:   ${logFile}`);
  say();
  say('Try: tenants list · tenants create acme-demo · interfaces asa-hq-01');
  say('     interfaces delete asa-hq-01 Vlan20, then /as bob and press 1 to approve');
  say('     trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside: allowed, and by which rule');
  if (sim)
    say(
      '     alerts subscribe all, then /sim offline asa-branch-02: the incident is told within a minute; /sim online asa-branch-02 closes it',
    );
  say(session.greeting());
  // Redis kept the requests of an earlier run that are still pending: their cards are shown again.
  const restored = await restorePendingCards(consoleChat, runtime.approvals, CONSOLE_CHANNEL, Date.now());
  if (restored > 0)
    say(
      `${restored === 1 ? '1 approval is' : `${restored} approvals are`} still pending from before the restart: /approvals lists them.`,
    );

  for (;;) {
    const line = await terminal.next(session.prompt);
    if (line === undefined || (await session.handle(line)) === 'quit') break;
  }
}

main().catch((error: unknown) => {
  if (error instanceof RedisUnreachable) {
    process.stderr.write(`fwbot demo cannot start: ${error.message}\n`);
    process.exit(EXIT_REDIS_UNREACHABLE);
  }
  if (error instanceof DemoSetupError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(3);
  }
  process.stderr.write(`fwbot demo failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
