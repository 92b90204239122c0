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
  /** On the jobs' real tracking queue, device holds and snapshots (botProcess.ts). */
  tracking?: boolean;
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

/** Child bot processes on an approvals test world's Redis, Slack and prefix, each test ending its own. */
export interface ChildBots {
  /** A bot process whose SCC is `sccBaseUrl` (the simulator, or a proxy in front of it). */
  start(sccBaseUrl: string): Promise<ChildBot>;
  /** Ends every process started so far (SIGTERM), so the next test's doomed process is the only one. */
  stopAll(): Promise<void>;
}

export function childBots(
  env: { prefix: string; slack: { apiUrl: string }; sim: { tokens: { superAdmin: string } } },
  options: { redisUrl: string; executionLeaseMs: number; sweepEveryMs?: number; tracking?: boolean },
): ChildBots {
  const started: ChildBot[] = [];
  return {
    async start(sccBaseUrl) {
      const bot = await startChildBot({
        redisUrl: options.redisUrl,
        prefix: env.prefix,
        slackApiUrl: env.slack.apiUrl,
        sccBaseUrl,
        sccToken: env.sim.tokens.superAdmin,
        executionLeaseMs: options.executionLeaseMs,
        sweepEveryMs: options.sweepEveryMs ?? 100,
        ...(options.tracking ? { tracking: true } : {}),
      });
      started.push(bot);
      return bot;
    },
    async stopAll() {
      for (const bot of started.splice(0)) await bot.kill('SIGTERM');
    },
  };
}
