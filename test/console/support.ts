// A console session over the real machinery: the simulator (manual clock), the test Redis under a prefix
// of its own, the workers with a millisecond schedule, the approvals, and a scripted terminal whose
// output can be awaited line by line (no sleeps: each wait resolves on the output it looks for).
import { EventEmitter } from 'node:events';
import { type Logger, pino } from 'pino';
import { type Config, configWith, loadConfig } from '../../src/config.js';
import { ConsoleChat } from '../../src/console/consoleChat.js';
import type { Prompter } from '../../src/console/forms.js';
import { ConsoleSession } from '../../src/console/session.js';
import { CONSOLE_CHANNEL, DEMO_USERS, demoPolicy, simulatorProfile } from '../../src/demo/defaults.js';
import { consoleDeps, type Runtime, startRuntime } from '../../src/demo/runtime.js';
import { simulatorControls } from '../../src/demo/worldControls.js';
import { createMetrics, type FwbotMetrics } from '../../src/observability/metrics.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { TEST_SCHEDULE } from '../jobs/support/schedule.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';

/** A terminal for tests: what was printed, and answers given to prompts in order. */
export class ScriptedTerminal implements Prompter {
  readonly output: string[] = [];
  readonly questions: string[] = [];
  readonly #answers: string[] = [];
  readonly #events = new EventEmitter();

  print(text: string): void {
    this.output.push(text);
    this.#events.emit('output');
  }

  async ask(question: string): Promise<string | undefined> {
    this.questions.push(question);
    const answer = this.#answers.shift();
    if (answer === undefined) throw new Error(`unexpected question: ${question}`);
    return answer;
  }

  /** Answers for the next prompts, in order. */
  answer(...answers: string[]): void {
    this.#answers.push(...answers);
  }

  /** Everything printed since `from` (an index into output). */
  since(from: number): string {
    return this.output.slice(from).join('\n');
  }

  /** Resolves with all output since `from` once it matches `pattern`. */
  waitFor(pattern: RegExp, from = 0, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const text = this.since(from);
        if (!pattern.test(text)) return false;
        this.#events.off('output', check);
        clearTimeout(timer);
        resolve(text);
        return true;
      };
      const timer = setTimeout(() => {
        this.#events.off('output', check);
        reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms; got:\n${this.since(from)}`));
      }, timeoutMs);
      if (!check()) this.#events.on('output', check);
    });
  }
}

export interface ConsoleRig {
  sim: SimulatorHandle;
  /** The key prefix of this rig's Redis records (its queues, approvals, alert scan). */
  prefix: string;
  runtime: Runtime;
  session: ConsoleSession;
  terminal: ScriptedTerminal;
  metrics: FwbotMetrics;
  /** Runs one line as the current user; resolves with what it printed (synchronously, not thread replies). */
  type(line: string): Promise<string>;
  close(): Promise<void>;
}

export interface ConsoleRigOptions {
  log?: Logger;
  /** Real (here: fake) Slack beside the console, as the demo has with Slack credentials. */
  realSlack?: { token: string; apiUrl: string };
  /** Scoped approvers (`approvals.approvers`) for this rig's deployment. */
  approvers?: Config['approvals']['approvers'];
  /** The change process (`changes`: tickets, windows) for this rig's deployment. */
  changes?: Config['changes'];
}

export async function startConsoleRig(options: ConsoleRigOptions = {}): Promise<ConsoleRig> {
  const sim = await startSimulator({ port: 0, clock: 'manual' });
  const log = options.log ?? pino({ level: process.env.TEST_LOG ?? 'silent' });
  const metrics = createMetrics({ processMetrics: false });
  const consoleChat = new ConsoleChat([CONSOLE_CHANNEL]);
  const config = configWith(loadConfig({ REDIS_URL: redisUrl(), LOG_LEVEL: 'warn' }), {
    profiles: new Map([['default', simulatorProfile(sim.url)]]),
    policy: demoPolicy({ slackEveryone: options.realSlack !== undefined }),
  });
  const approved = options.approvers
    ? configWith(config, { approvals: { ...config.approvals, approvers: options.approvers } })
    : config;
  const configured = options.changes ? configWith(approved, { changes: options.changes }) : approved;
  const prefix = uniquePrefix('console').replace(/:$/, '');
  const runtime = await startRuntime({
    config: configured,
    prefix,
    realSlack: options.realSlack,
    log,
    metrics,
    consoleChat,
    schedule: TEST_SCHEDULE,
  });
  const terminal = new ScriptedTerminal();
  const session = new ConsoleSession(
    consoleDeps(runtime, {
      consoleChat,
      log,
      users: DEMO_USERS,
      channelId: CONSOLE_CHANNEL,
      metrics,
      world: simulatorControls(sim.url),
    }),
    terminal,
  );
  return {
    sim,
    prefix,
    runtime,
    session,
    terminal,
    metrics,
    async type(line) {
      const from = terminal.output.length;
      await session.handle(line);
      return terminal.since(from);
    },
    async close() {
      session.close();
      for (const step of runtime.shutdownSteps()) await step.run();
      await sim.stop();
    },
  };
}
