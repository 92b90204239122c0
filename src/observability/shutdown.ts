// Graceful shutdown on SIGTERM (and SIGINT): run the steps in order — stop taking new work, let work in
// hand finish, close connections — within one time bound, then exit. Orchestrators send SIGTERM and wait
// a grace period (Docker 10 s by default, Kubernetes 30 s) before SIGKILL, so the bound should sit below
// it: whatever is still running then is picked up again from Redis by another process.
import type { Logger } from 'pino';

export interface ShutdownStep {
  /** Said in the log: `slack`, `workers`, `redis`… */
  name: string;
  run(): Promise<void>;
}

/** The part of `process` the shutdown listens on (tests pass an EventEmitter). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

export interface GracefulShutdownOptions {
  /**
   * Run one after the other, in this order. A step that fails is logged and the next one still runs. The
   * array is read when the shutdown starts, so a process can install this before it starts its parts and
   * push their steps once they run (a signal during start-up is then handled too).
   */
  steps: readonly ShutdownStep[];
  log: Logger;
  /** The whole shutdown's bound. Default 20 s. */
  timeoutMs?: number;
  /** Default SIGTERM and SIGINT. A second signal while stopping exits at once. */
  signals?: readonly NodeJS.Signals[];
  source?: SignalSource;
  exit?: (code: number) => void;
}

export interface GracefulShutdown {
  /**
   * Runs the shutdown (as a signal would) and resolves with the exit code it used: 1 when a step failed or
   * the bound passed, or when `failed` (the process stops because something went wrong), else 0.
   */
  shutdown(reason: string, failed?: boolean): Promise<number>;
  readonly stopping: boolean;
  /** Stops listening for signals (tests; a process that hands over to another handler). */
  dispose(): void;
}

export function installGracefulShutdown(options: GracefulShutdownOptions): GracefulShutdown {
  const { log, steps } = options;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const source: SignalSource = options.source ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<number> | undefined;

  const runSteps = async (): Promise<boolean> => {
    let clean = true;
    for (const step of steps) {
      const started = Date.now();
      try {
        await step.run();
        log.info({ step: step.name, ms: Date.now() - started }, 'shutdown step done');
      } catch (error) {
        clean = false;
        log.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    return clean;
  };

  const shutdown = (reason: string, failed = false): Promise<number> => {
    if (running) return running;
    log.info({ reason, timeoutMs }, 'shutting down: no new work, finishing what is in hand');
    running = (async () => {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const result = await Promise.race([runSteps(), bound]);
      clearTimeout(timer);
      let code: number;
      if (result === 'timeout') {
        log.error({ timeoutMs }, 'shutdown did not finish in time; exiting with work still in hand');
        code = 1;
      } else {
        code = result && !failed ? 0 : 1;
        log.info({ code }, 'stopped');
      }
      exit(code);
      return code;
    })();
    return running;
  };

  const listeners = signals.map((signal) => {
    const listener = () => {
      if (running) {
        log.warn({ signal }, 'second signal while stopping: exiting now');
        exit(1);
        return;
      }
      shutdown(signal).catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        exit(1);
      });
    };
    source.on(signal, listener);
    return { signal, listener };
  });

  return {
    shutdown,
    get stopping() {
      return running !== undefined;
    },
    dispose() {
      for (const { signal, listener } of listeners) source.off(signal, listener);
    },
  };
}
