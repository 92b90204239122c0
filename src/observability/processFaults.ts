// What a fwbot process does with a fault nothing in it handled: a promise that rejected with nobody
// awaiting it ('unhandledRejection'), or an exception nothing caught ('uncaughtException'). Node's own
// answer to both is to print a stack on stderr and exit 1; every entry point installs one of the two
// policies here instead, first thing once it has somewhere to say so:
//
//   process                          rejection nobody awaited               exception nothing caught
//   bot (npm start), worker, demo    one log line with the error,           logged (fatal), then the bounded
//                                    fwbot_unhandled_rejections_total + 1,  graceful shutdown, exit 1
//                                    and it keeps serving
//   simulator (npm run simulator)    one line on stderr, keeps serving      one line on stderr, exit 1
//   CLI (fwbot)                      one sentence on stderr, exit 1         the same
//
// A long-running process keeps serving after a rejection because one lost promise rarely means the rest
// is broken, and a restart would drop every connection (Slack's, Redis', SCC's) to fix nothing: the known
// case is @slack/socket-mode's delayed reconnect, whose retry of apps.connections.open rejects with
// nobody awaiting it when Slack refuses the app token. Its Socket Mode readiness check then reports the
// connection as not there, so orchestrators and people see it. After an uncaught exception, by Node's own
// rule, the process's state is unknown: it stops taking work, lets what is in hand finish within the
// shutdown's bound, and exits 1 for the orchestrator to start it again (the work is in Redis). A command
// has no one to keep serving: it says what happened in one sentence and ends with a failure code.
import type { FwbotMetrics } from './metrics.js';

/** The part of a pino Logger the server policy writes with. */
export interface FaultLog {
  error(fields: Record<string, unknown>, message: string): void;
  fatal(fields: Record<string, unknown>, message: string): void;
}

export type ProcessFaultPolicy =
  | {
      kind: 'keep-serving';
      log: FaultLog;
      /** Where rejections are counted (`fwbot_unhandled_rejections_total`). */
      metrics?: FwbotMetrics | undefined;
      /** Ends the process after an uncaught exception: the graceful shutdown, with a failure code. */
      stop(reason: string): void;
    }
  | {
      kind: 'exit';
      /** Writes one line where the person running it reads (stderr). */
      say(line: string): void;
      /** The exit code (the CLI's EXIT.internal). */
      code: number;
      exit?: (code: number) => void;
    };

/** The part of `process` the handlers are installed on (tests pass an EventEmitter). */
export interface FaultSource {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (error: Error) => void): unknown;
}

export interface ProcessFaults {
  /** Removes the handlers (tests). */
  dispose(): void;
}

function messageOf(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : String(reason);
}

export function installProcessFaults(
  policy: ProcessFaultPolicy,
  source: FaultSource = process,
): ProcessFaults {
  let onRejection: (reason: unknown) => void;
  let onException: (error: Error) => void;
  if (policy.kind === 'keep-serving') {
    const { log, metrics } = policy;
    let stopping = false;
    onRejection = (reason) => {
      metrics?.unhandledRejections.inc();
      log.error(
        { err: reason },
        `a promise rejected with nothing to handle it (a bug; fwbot keeps serving): ${messageOf(reason)}`,
      );
    };
    onException = (error) => {
      log.fatal(
        { err: error },
        `an exception nothing caught; stopping, as the process's state is unknown: ${error.message}`,
      );
      // One shutdown: a second exception while it runs changes nothing (its own bound still applies).
      if (stopping) return;
      stopping = true;
      policy.stop('uncaught exception');
    };
  } else {
    const exit = policy.exit ?? ((code: number) => process.exit(code));
    const end = (what: string, reason: unknown) => {
      policy.say(`fwbot failed: ${what}: ${messageOf(reason)}`);
      exit(policy.code);
    };
    onRejection = (reason) => end('a promise rejected with nothing to handle it (a bug)', reason);
    onException = (error) => end('an exception nothing caught (a bug)', error);
  }
  source.on('unhandledRejection', onRejection);
  source.on('uncaughtException', onException);
  return {
    dispose() {
      source.off('unhandledRejection', onRejection);
      source.off('uncaughtException', onException);
    },
  };
}
