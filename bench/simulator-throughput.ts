// How many GET /v1/transactions/{uid} per second the SCC simulator serves on one core. Starts the
// simulator in its own process (pinned to CPU 0 with taskset when the machine has two or more CPUs; the
// load generator goes to CPU 1), creates finished (200) and running (202) transactions, then polls them
// for a bounded number of requests and seconds with one of two load loops:
//   undici  fixed concurrency over a keep-alive undici Pool: what a real client costs;
//   raw     pipelined HTTP/1.1 over plain sockets, so cheap that the simulator, not the load, is the limit.
// The simulator's own CPU use (from /proc) shows which side was the bottleneck.
//
//   npx tsx bench/simulator-throughput.ts [--client raw|undici|both] [--seconds 10] [--requests 400000]
//                                         [--connections 32] [--depth 8] [--transactions 200]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Pool, request } from 'undici';

const { values } = parseArgs({
  options: {
    client: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '10' },
    requests: { type: 'string', default: '400000' },
    connections: { type: 'string', default: '32' },
    depth: { type: 'string', default: '8' },
    transactions: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '2' },
  },
});
const seconds = Number(values.seconds);
const maxRequests = Number(values.requests);
const connections = Number(values.connections);
const depth = Number(values.depth);
const transactionCount = Number(values.transactions);
const warmupSeconds = Number(values.warmup);
const CORES = availableParallelism();
const TOKEN = 'sim-admin';

interface LoadResult {
  completed: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
}

type LoadLoop = (
  url: string,
  uids: readonly string[],
  durationS: number,
  budget: number,
) => Promise<LoadResult>;

/** Pinning needs taskset and at least two CPUs: one for the simulator, one for the load. */
function canPin(): boolean {
  return CORES > 1 && spawnSync('taskset', ['--version']).status === 0;
}

/** CPU seconds (user + system) a process has used, from /proc; undefined where there is no /proc. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function startSimulatorProcess(pin: boolean): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    '--import',
    'tsx',
    'src/simulator/main.ts',
    '--port',
    '0',
    '--clock',
    'manual',
    '--seed',
    'bench',
  ];
  const child = pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args])
    : spawn(process.execPath, args);
  child.stderr?.pipe(process.stderr);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { child, url };
}

async function json(url: string, method: 'GET' | 'POST', body?: unknown): Promise<Record<string, unknown>> {
  const response = await request(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.body.json()) as Record<string, unknown>;
}

/** Half the transactions finish (200 DONE), half stay running (202) on the simulator's manual clock. */
async function seedTransactions(url: string): Promise<string[]> {
  const state = await json(`${url}/_sim/state`, 'GET');
  const tenant = (state.tenants as { uid: string; name: string }[]).find(
    (t) => t.name === 'northwind-us',
  )?.uid;
  const uids: string[] = [];
  const create = async () =>
    uids.push(
      String((await json(`${url}/v1/msp/tenants/${tenant}/users`, 'POST', { users: [] })).transactionUid),
    );
  for (let i = 0; i < transactionCount / 2; i += 1) await create();
  await json(`${url}/_sim/clock/advance`, 'POST', { ms: 60_000 });
  for (let i = 0; i < transactionCount / 2; i += 1) await create();
  return uids;
}

const undiciLoop: LoadLoop = async (url, uids, durationS, budget) => {
  const pool = new Pool(url, { connections });
  const result: LoadResult = { completed: 0, seconds: 0, latencies: [], statuses: new Map() };
  const started = performance.now();
  const deadline = started + durationS * 1000;
  let issued = 0;
  const worker = async () => {
    while (issued < budget && performance.now() < deadline) {
      const uid = uids[issued % uids.length];
      issued += 1;
      const sent = performance.now();
      const response = await pool.request({
        path: `/v1/transactions/${uid}`,
        method: 'GET',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      await response.body.dump();
      result.latencies.push(performance.now() - sent);
      result.statuses.set(response.statusCode, (result.statuses.get(response.statusCode) ?? 0) + 1);
      result.completed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  result.seconds = (performance.now() - started) / 1000;
  await pool.close();
  return result;
};

/** Pipelined requests on raw sockets: responses are counted by their status lines (bodies are JSON). */
const rawLoop: LoadLoop = async (url, uids, durationS, budget) => {
  const { hostname, port } = new URL(url);
  const requests = uids.map((uid) =>
    Buffer.from(
      `GET /v1/transactions/${uid} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    ),
  );
  const result: LoadResult = { completed: 0, seconds: 0, latencies: [], statuses: new Map() };
  const started = performance.now();
  const deadline = started + durationS * 1000;
  let issued = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const inFlight: number[] = [];
      let carry = '';
      const send = () => {
        while (inFlight.length < depth && issued < budget && performance.now() < deadline) {
          const buffer = requests[issued % requests.length];
          issued += 1;
          if (buffer === undefined) continue;
          inFlight.push(performance.now());
          socket.write(buffer);
        }
        if (inFlight.length === 0) socket.end();
      };
      socket.setNoDelay(true);
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        const text = carry + chunk.toString('latin1');
        let at = text.indexOf('HTTP/1.1 ');
        let last = 0;
        while (at !== -1 && at + 12 <= text.length) {
          const status = Number(text.slice(at + 9, at + 12));
          result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
          const sentAt = inFlight.shift();
          if (sentAt !== undefined) result.latencies.push(performance.now() - sentAt);
          result.completed += 1;
          last = at + 12;
          at = text.indexOf('HTTP/1.1 ', last);
        }
        carry = text.slice(Math.max(last, text.length - 12));
        send();
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
  await Promise.all(Array.from({ length: connections }, one));
  result.seconds = (performance.now() - started) / 1000;
  return result;
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(
  name: string,
  loop: LoadLoop,
  url: string,
  uids: string[],
  child: ChildProcess,
): Promise<string[]> {
  await loop(url, uids, warmupSeconds, Number.POSITIVE_INFINITY);
  const cpuBefore = cpuSeconds(child.pid);
  const result = await loop(url, uids, seconds, maxRequests);
  const cpuAfter = cpuSeconds(child.pid);
  const latencies = [...result.latencies].sort((a, b) => a - b);
  const busy =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.seconds;
  const rps = result.completed / result.seconds;
  return [
    name.padEnd(7),
    String(result.completed).padStart(9),
    result.seconds.toFixed(2).padStart(6),
    String(Math.round(rps)).padStart(9),
    (busy === undefined ? 'n/a' : busy.toFixed(2)).padStart(8),
    (busy === undefined ? 'n/a' : String(Math.round(rps / busy))).padStart(13),
    `${percentile(latencies, 50).toFixed(2)} / ${percentile(latencies, 99).toFixed(2)}`.padStart(14),
    [...result.statuses].map(([s, n]) => `${s}:${n}`).join(' '),
  ];
}

async function main(): Promise<void> {
  const pin = canPin();
  if (pin) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const { child, url } = await startSimulatorProcess(pin);
  try {
    const uids = await seedTransactions(url);
    const loops: [string, LoadLoop][] = [];
    if (values.client === 'undici' || values.client === 'both') loops.push(['undici', undiciLoop]);
    if (values.client === 'raw' || values.client === 'both') loops.push(['raw', rawLoop]);
    console.log('simulator throughput: GET /v1/transactions/{uid}');
    console.log(`  machine    ${cpus()[0]?.model ?? 'unknown CPU'}, ${CORES} CPUs, Node ${process.version}`);
    console.log(
      `  simulator  ${pin ? 'own process pinned to CPU 0 (taskset), load generator on CPU 1' : 'own process, not pinned'}`,
    );
    console.log(
      `  load       ${connections} connections (raw: ${depth} pipelined each), ${uids.length} transactions (half 200, half 202)`,
    );
    console.log(
      `  bounds     ${maxRequests} requests or ${seconds} s per client, after ${warmupSeconds} s of warm-up`,
    );
    console.log('');
    console.log('  client  requests      s  req/s  sim CPU  req/s per core  p50 / p99 ms  statuses');
    for (const [name, loop] of loops)
      console.log(`  ${(await measure(name, loop, url, uids, child)).join(' ')}`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
