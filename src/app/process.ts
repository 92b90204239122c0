// What every long-running fwbot process does around its work (the bot and a worker through
// runFwbotProcess; the demo, whose configuration and logs are its own, through installProcess): the
// configuration read once (every problem listed, exit 2), the logger (JSON lines, secrets redacted, the request id on every
// line), the bounded drain on SIGTERM / SIGINT installed before anything starts, one metrics registry, the
// policy for faults nothing handled (observability/processFaults.ts: log, count and keep serving), the
// Redis check (one sentence and exit 3 within seconds when Redis is not there), and one sentence for a
// start that fails. The process's own `start` returns what stops it, in order.
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createMetrics, type FwbotMetrics } from '../observability/metrics.js';
import { installProcessFaults } from '../observability/processFaults.js';
import {
  type GracefulShutdown,
  installGracefulShutdown,
  type ShutdownStep,
} from '../observability/shutdown.js';
import { checkRedis, EXIT_REDIS_UNREACHABLE, RedisUnreachable } from '../redis/check.js';
import { processLogger } from './logger.js';

export interface FwbotProcess {
  /** How the process names itself in the sentences it leaves on stderr: `fwbot`, `fwbot worker`. */
  name: string;
  /** Its log lines carry this component (a worker's: `worker`). */
  component?: string;
  start(parts: { config: Config; log: Logger; metrics: FwbotMetrics }): Promise<ShutdownStep[]>;
}

/**
 * What a process installs before anything starts: the bounded drain on SIGTERM / SIGINT (its steps join as
 * parts start), one metrics registry, and the policy for faults nothing handled (log, count, keep serving;
 * an exception stops the process through the drain, after `stopping` says why).
 */
export function installProcess(
  log: Logger,
  stopping?: (reason: string) => void,
): { steps: ShutdownStep[]; shutdown: GracefulShutdown; metrics: FwbotMetrics } {
  const steps: ShutdownStep[] = [];
  const shutdown = installGracefulShutdown({ log, steps });
  const metrics = createMetrics();
  installProcessFaults({
    kind: 'keep-serving',
    log,
    metrics,
    stop: (reason) => {
      stopping?.(reason);
      void shutdown.shutdown(reason, true).catch(() => process.exit(1));
    },
  });
  return { steps, shutdown, metrics };
}

function cannotStart(name: string, error: unknown): never {
  if (error instanceof RedisUnreachable) {
    process.stderr.write(`${name} cannot start: ${error.message}\n`);
    process.exit(EXIT_REDIS_UNREACHABLE);
  }
  // Problems only the running process can see (an approval rule naming no operation) are configuration too.
  if (error instanceof ConfigError) {
    process.stderr.write(`${name} cannot start: the configuration has problems.\n${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}

export function runFwbotProcess(definition: FwbotProcess): void {
  const main = async () => {
    const config = loadConfig(process.env, { require: { slack: true, scc: true } });
    const base = processLogger(config.logLevel);
    const log = definition.component ? base.child({ component: definition.component }) : base;
    // Installed before starting, so a signal during start-up is handled too; the steps join once they run.
    const { steps, metrics } = installProcess(log);
    await checkRedis(config.redis, config.redis.display);
    steps.push(...(await definition.start({ config, log, metrics })));
  };
  main().catch((error: unknown) => cannotStart(definition.name, error));
}
