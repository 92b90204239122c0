// Starts botProcess.ts as a real child process and kills it the way a crash does (SIGKILL).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface ChildBotConfig {
  redisUrl: string;
  prefix: string;
  slackApiUrl: string;
  sccBaseUrl: string;
  sccToken: string;
  executionLeaseMs: number;
  sweepEveryMs: number;
}

export interface ChildBot {
  eventsUrl: string;
  process: ChildProcess;
  /** Kills it with `signal` and resolves when it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./botProcess.ts', import.meta.url));

export async function startChildBot(config: ChildBotConfig): Promise<ChildBot> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, APPROVALS_BOT: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    // With APPROVALS_TEST_LOG set, the child logs with pino: show it as it comes, for debugging.
    if (process.env.APPROVALS_TEST_LOG) process.stderr.write(chunk);
  });
  const eventsUrl = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (process.env.APPROVALS_TEST_LOG) process.stderr.write(chunk);
      const ready = /READY (\S+)/.exec(stdout);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`bot process exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  return {
    eventsUrl,
    process: child,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
