// Benchmark 1, acknowledgement: signed slash commands over HTTP, exactly as Slack sends them (a fresh
// timestamp, signature and trigger_id per request), at rising concurrency, against the real fwbot
// (`src/entry/bot.ts`: Bolt HTTP receiver, command intake, approvals, all of it) and, in the same run and
// alternating with it, a bare Bolt app that only acks. Each Slack-facing process runs pinned to CPU 0;
// autocannon, the simulator, the fake Slack, Redis and fwbot's worker process share CPU 1.
//
// fwbot runs in its two shapes: a front (BOT_WORKERS=off) whose commands are run by one `npm run worker`
// process, and all-in-one (BOT_WORKERS=on, the default), which runs them itself. Each has its own Redis
// database. Commands: `help` (no SCC call) and `devices` (an SCC read and a response_url post). After each
// fwbot run the benchmark waits (bounded) for the work behind the acks to finish, and reports how much of
// it did: an ack that hides lost work is no ack.
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { freePort } from '../test/support/redisServer.js';
import { slackSignature, slashCommandBody } from '../test/support/slackRequests.js';
import {
  canPin,
  cpuSeconds,
  moveToCpu,
  pidOf,
  pinProcess,
  spawnTsx,
  stopChild,
  unpinProcess,
  waitForLine,
} from './support/processes.js';
import { num, percentile, ratio, type Table } from './support/stats.js';
import { startWorld, type World } from './support/world.js';

export interface AckOptions {
  concurrency: readonly number[];
  seconds: number;
  warmupSeconds: number;
  /** Offered rates (commands per second) of the paced runs. */
  rates: readonly number[];
  /** Upper bound on waiting for fwbot's work behind the acks after a run. */
  drainSeconds: number;
}

const SIGNING_SECRET = 'bench-signing-secret';
const BARE_ENTRY = new URL('./ack/bareBolt.ts', import.meta.url).pathname;

interface Target {
  name: string;
  port: number;
  /** The app's process, for its CPU time. */
  pid: number;
  /** The worker process that runs the commands, when not the app itself. */
  workerPid?: number;
  text: string;
  /** Whether the app answers on response_url after the ack (fwbot does; the bare app does not). */
  answers: boolean;
}

interface RunResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  failed: number;
  answered?: number;
  /** App CPU seconds per acked command (run and drain), and cores busy during the run. */
  cpuPerAck: number;
  cores: number;
  /** Worker CPU seconds per answered command (run and drain), when a worker runs them. */
  workerCpuPerCommand?: number;
  /** Seconds from the end of the run until the last acked command was answered (bounded by the drain). */
  drainSeconds?: number;
}

let runCounter = 0;

async function load(
  world: World,
  target: Target,
  connections: number,
  seconds: number,
  rate?: number,
): Promise<RunResult> {
  runCounter += 1;
  const cpuBefore = cpuSeconds(target.pid);
  const workerBefore = target.workerPid === undefined ? 0 : cpuSeconds(target.workerPid);
  const run = `r${runCounter}`;
  let sent = 0;
  const signed = () => {
    sent += 1;
    const body = slashCommandBody({
      text: target.text,
      responseUrl: `${world.slack.url}/response/${run}-${sent}`,
      userId: 'U0BENCH01',
      channelId: 'C0BENCH01',
      triggerId: `${run}.${sent}.${Date.now()}`,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
      },
    };
  };
  // On two cores the worker would take CPU from the load generator (both on CPU 1) and so throttle the
  // front by starving autocannon: it is stopped while the load runs, the commands wait in Redis, and it
  // answers them all afterwards ("answered by").
  if (target.workerPid !== undefined) process.kill(target.workerPid, 'SIGSTOP');
  let result: LoopResult;
  try {
    result =
      rate === undefined
        ? await closedLoop(target, connections, seconds, signed)
        : await openLoop(target, connections, seconds, rate, signed);
  } finally {
    if (target.workerPid !== undefined) process.kill(target.workerPid, 'SIGCONT');
  }
  const cpuRun = cpuSeconds(target.pid);
  const ok = result.ok;
  const out: RunResult = {
    rps: ok / result.duration,
    p50: result.p50,
    p99: result.p99,
    max: result.max,
    ok,
    failed: result.failed,
    cpuPerAck: Number.NaN,
    cores: (cpuRun - cpuBefore) / result.duration,
  };
  if (target.answers) {
    const ended = performance.now();
    // The front is idle once the load stops: the worker drains its backlog on the front's CPU, leaving
    // CPU 1 to Redis and the fake Slack it talks to, and goes back to CPU 1 before the next cell.
    if (target.workerPid !== undefined) moveToCpu(target.workerPid, 0);
    try {
      out.answered = await answered(world, run, ok, ok + result.failed);
    } finally {
      if (target.workerPid !== undefined) moveToCpu(target.workerPid, 1);
    }
    out.drainSeconds = (performance.now() - ended) / 1000;
  }
  out.cpuPerAck = (cpuSeconds(target.pid) - cpuBefore) / Math.max(1, ok);
  if (target.workerPid !== undefined)
    out.workerCpuPerCommand = (cpuSeconds(target.workerPid) - workerBefore) / Math.max(1, out.answered ?? ok);
  return out;
}

interface LoopResult {
  ok: number;
  failed: number;
  duration: number;
  p50: number;
  p99: number;
  max: number;
}

type SignedRequest = () => { body: string; headers: Record<string, string> };

/** autocannon: each connection sends its next command as soon as the previous one is answered. */
async function closedLoop(
  target: Target,
  connections: number,
  seconds: number,
  signed: SignedRequest,
): Promise<LoopResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: '/slack/events',
        setupRequest: (request) => ({ ...request, ...signed() }),
      },
    ],
  });
  return {
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    duration: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/**
 * A fixed offered rate, evenly spaced (autocannon's own rate limit sends each second's share in a
 * burst): command i leaves at start + i/rate whether or not earlier ones were answered. Bounded by count.
 */
async function openLoop(
  target: Target,
  connections: number,
  seconds: number,
  rate: number,
  signed: SignedRequest,
): Promise<LoopResult> {
  const pool = new Pool(`http://127.0.0.1:${target.port}`, { connections });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const { body, headers } = signed();
    const sentAt = performance.now();
    inFlight.push(
      pool
        .request({ path: '/slack/events', method: 'POST', headers, body, headersTimeout: 10_000 })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode === 200) latencies.push(performance.now() - sentAt);
          else failed += 1;
        })
        .catch(() => {
          failed += 1;
        }),
    );
  }
  await Promise.all(inFlight);
  const duration = (performance.now() - started) / 1000;
  await pool.close();
  return {
    ok: latencies.length,
    failed,
    duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
  };
}

/** Waits (bounded) until every acked command of a run has been answered on its response_url. */
async function answered(world: World, run: string, acked: number, sent: number): Promise<number> {
  const prefix = `${run}-`;
  const count = () =>
    world.slack.calls.filter(
      (call) => call.method === 'response_url' && String(call.args.responseUrlId).startsWith(prefix),
    ).length;
  const deadline = Date.now() + drainBound;
  let seen = count();
  while (seen < acked && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    seen = count();
  }
  // Commands sent but not acked (timeouts) may be answered too; never count more than were acked.
  return Math.min(seen, Math.max(acked, 0), sent);
}

let drainBound = 30_000;

const HEADERS = [
  'load',
  'app',
  'acks/s',
  'vs bare',
  'p50 ms',
  'p99 ms',
  'max ms',
  'acked',
  'failed',
  'app CPU µs/cmd',
  'cores',
  'worker CPU µs/cmd',
  'answered',
  'answered by s',
];

function rowsOf(load: string, targets: readonly Target[], results: readonly RunResult[]): string[][] {
  const bare = results[0];
  return targets.flatMap((target, i) => {
    const r = results[i];
    if (!r || !bare) return [];
    return [
      [
        load,
        target.name,
        num(r.rps),
        i === 0 ? '1.00' : num(ratio(r.rps, bare.rps), 2),
        num(r.p50, 1),
        num(r.p99, 1),
        num(r.max, 0),
        num(r.ok),
        num(r.failed),
        num(r.cpuPerAck * 1e6, 0),
        num(r.cores, 2),
        r.workerCpuPerCommand === undefined ? '—' : num(r.workerCpuPerCommand * 1e6, 0),
        r.answered === undefined ? '—' : `${num((100 * r.answered) / Math.max(1, r.ok), 1)} %`,
        r.drainSeconds === undefined ? '—' : num(r.drainSeconds, 1),
      ],
    ];
  });
}

async function startApp(
  entry: string,
  env: Record<string, string>,
  ready: RegExp,
  cpu = 0,
): Promise<ChildProcess> {
  // BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the apps under load.
  const nodeArgs = process.env.BENCH_APP_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnTsx(entry, [], { env, cpu, nodeArgs });
  await waitForLine(child, ready, 60_000);
  return child;
}

export async function benchAck(options: AckOptions): Promise<Table[]> {
  drainBound = options.drainSeconds * 1000;
  const pinned = pinProcess(1);
  const world = await startWorld();
  const children: ChildProcess[] = [];
  try {
    const bareEnv = (port: number, lean: boolean) => ({
      PORT: String(port),
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: world.slack.apiUrl,
      BARE_LEAN: lean ? '1' : '0',
    });
    const barePort = await freePort();
    children.push(await startApp(BARE_ENTRY, bareEnv(barePort, false), /ready/));
    const leanPort = await freePort();
    children.push(await startApp(BARE_ENTRY, bareEnv(leanPort, true), /ready/));
    // Two Redis databases of the same server: the front's commands must not reach the all-in-one bot.
    const fwbotEnv = (database: number, extra: Record<string, string>) => ({
      SLACK_BOT_TOKEN: 'xoxb-bench-token',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: world.slack.apiUrl,
      SCC_API_TOKEN: world.sim.tokens.superAdmin,
      SCC_BASE_URL: world.sim.url,
      REDIS_URL: `${world.redis.url}/${database}`,
      LOG_LEVEL: 'info',
      FWBOT_PROFILES: '',
      ...extra,
    });
    const frontPort = await freePort();
    children.push(
      await startApp(
        'src/entry/bot.ts',
        fwbotEnv(1, { PORT: String(frontPort), BOT_WORKERS: 'off' }),
        /fwbot is running/,
      ),
    );
    children.push(
      await startApp(
        'src/entry/worker.ts',
        fwbotEnv(1, { PORT: String(await freePort()) }),
        /worker ready/,
        1,
      ),
    );
    const allInOnePort = await freePort();
    children.push(
      await startApp('src/entry/bot.ts', fwbotEnv(2, { PORT: String(allInOnePort) }), /fwbot is running/),
    );
    const [bare, lean, front, worker, allInOne] = children.map((child) => pidOf(child)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const targets: Target[] = [
      { name: 'bare Bolt (ack only)', port: barePort, pid: bare, text: 'help', answers: false },
      {
        name: 'bare Bolt, options as fwbot',
        port: leanPort,
        pid: lean,
        text: 'help',
        answers: false,
      },
      {
        name: 'fwbot front + 1 worker `/fw help`',
        port: frontPort,
        pid: front,
        workerPid: worker,
        text: 'help',
        answers: true,
      },
      {
        name: 'fwbot front + 1 worker `/fw devices`',
        port: frontPort,
        pid: front,
        workerPid: worker,
        text: 'devices',
        answers: true,
      },
      {
        name: 'fwbot all-in-one `/fw devices`',
        port: allInOnePort,
        pid: allInOne,
        text: 'devices',
        answers: true,
      },
    ];
    for (const target of targets) await load(world, target, 10, options.warmupSeconds);
    const saturated: string[][] = [];
    for (const connections of options.concurrency) {
      const results: RunResult[] = [];
      for (const target of targets) results.push(await load(world, target, connections, options.seconds));
      saturated.push(...rowsOf(String(connections), targets, results));
    }
    const paced: string[][] = [];
    for (const rate of options.rates) {
      const results: RunResult[] = [];
      for (const target of targets) results.push(await load(world, target, 50, options.seconds, rate));
      paced.push(...rowsOf(`${rate}/s`, targets, results));
    }
    const setup = `${options.seconds} s per cell after ${options.warmupSeconds} s of warm-up per app; autocannon, one unique signed request per send (timestamp, signature, trigger_id). ${pinned && canPin() ? "Slack-facing processes pinned to CPU 0 (taskset); load generator, simulator, fake Slack, Redis and fwbot's worker process on CPU 1; the worker is stopped (SIGSTOP) while a cell's load runs, so that it cannot starve the load generator, and answers the queued commands after it, on CPU 0 while the front is idle." : 'Not pinned (taskset or a second CPU missing).'} fwbot front: \`BOT_WORKERS=off\` (acks, opens modals, queues commands), its commands run by one \`npm run worker\` process; all-in-one: the default \`npm start\`, which runs them itself. "vs bare" is against the bare app with Bolt's defaults; "options as fwbot" is the same bare app with the two Bolt options fwbot turns off (conversation store, ignoreSelf), for comparison like for like.`;
    const columns =
      "Latency: autocannon's request→response time, i.e. the ack as Slack sees it (Slack gives up at 3 s). " +
      `App CPU: the Slack-facing process's CPU time per acked command, the work after the ack included (run plus up to ${options.drainSeconds} s of drain); cores: its CPU used during the run. Worker CPU: the worker process's CPU time per answered command. Answered: acked commands whose reply reached response_url; answered by: seconds after the run ended until the last one was (a backlog the worker drains).`;
    return [
      {
        title: 'Acknowledgement, saturated: as many signed /fw commands as the app takes (closed loop)',
        notes: [
          setup,
          `Throughput: 2xx answers per second with N connections each sending as soon as the previous answer came. ${columns}`,
        ],
        headers: HEADERS,
        rows: saturated,
      },
      {
        title: 'Acknowledgement, paced: a fixed rate of signed /fw commands (open loop, 50 connections)',
        notes: [
          `The same apps and commands at a fixed offered rate, below saturation: the ack latency people would see. ${columns}`,
        ],
        headers: HEADERS,
        rows: paced,
      },
    ];
  } finally {
    for (const child of children) {
      // A worker stopped by an interrupted run must run again to hear SIGTERM.
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGCONT');
      await stopChild(child, 'SIGTERM', 10_000);
    }
    await world.stop();
    // Later benchmarks start processes of their own: they must not inherit CPU 1 alone.
    unpinProcess();
  }
}
