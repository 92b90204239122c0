// Runs the CLI in the test process with its output captured, as the CLI tests read it: the exit code and
// what it wrote to stdout and stderr, each joined by lines. Logs are silent.
import { pino } from 'pino';
import { type CliOptions, runCli } from '../../src/cli/cli.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCaptured(
  argv: readonly string[],
  options: Omit<CliOptions, 'io' | 'log'>,
  /** Wraps the run, e.g. to move the simulator's manual clock while the CLI waits for SCC. */
  around: (run: Promise<number>) => Promise<number> = (run) => run,
): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await around(
    runCli(argv, {
      ...options,
      io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
      log: pino({ level: 'silent' }),
    }),
  );
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}
