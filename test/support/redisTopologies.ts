// Real Redis high-availability topologies on loopback, for the Sentinel and Cluster tests and drills: a
// primary with replicas watched by three sentinels (`redis-server --sentinel`), or a cluster of three
// primaries with a replica each (`redis-cli --cluster create`). Every process is ours, in a temporary
// directory, stopped with the topology; `kill` sends SIGKILL to one node, as a crash would.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REDIS_INSTALL_HINT, redisServerAvailable } from './redisServer.js';

const run = promisify(execFile);

export interface RedisNodeProcess {
  readonly port: number;
  readonly child: ChildProcess;
}

/** Sends `args` to the node on `port` with redis-cli; the reply as text (trimmed). */
export async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: 10_000,
  });
  return stdout.trim();
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startNode(
  dir: string,
  port: number,
  args: string[],
  sentinel = false,
): Promise<RedisNodeProcess> {
  await mkdir(dir, { recursive: true });
  const common = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--loglevel',
    'warning',
  ];
  let child: ChildProcess;
  if (sentinel) {
    const conf = join(dir, 'sentinel.conf');
    await writeFile(conf, `${args.join('\n')}\n`);
    child = spawn('redis-server', [conf, '--sentinel', ...common.filter((a) => a !== '--save' && a !== '')]);
  } else {
    child = spawn('redis-server', [...common, '--appendonly', 'no', ...args], { stdio: 'ignore' });
  }
  child.stdout?.resume();
  child.stderr?.resume();
  await waitFor(`redis-server on ${port}`, async () => (await cli(port, 'PING')) === 'PONG', 10_000);
  return { port, child };
}

function kill(node: RedisNodeProcess, signal: NodeJS.Signals): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => node.child.once('exit', () => resolve()));
  node.child.kill(signal);
  return exited;
}

export interface SentinelTopology {
  readonly masterName: string;
  readonly sentinels: readonly RedisNodeProcess[];
  /** Index 0 is the first primary; the others start as its replicas. */
  readonly nodes: readonly RedisNodeProcess[];
  /** `127.0.0.1:p,…` of the sentinels, as REDIS_SENTINELS takes it. */
  readonly sentinelList: string;
  /** The port of the primary the sentinels name now. */
  primaryPort(): Promise<number>;
  /** SIGKILL the node on `port`. */
  crash(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** A primary, `replicas` replicas and three sentinels (quorum 2, a node is down after `downAfterMs`). */
export async function startSentinelTopology(
  options: { replicas?: number; downAfterMs?: number; masterName?: string } = {},
): Promise<SentinelTopology> {
  if (!redisServerAvailable()) throw new Error(REDIS_INSTALL_HINT);
  const masterName = options.masterName ?? 'fwbot';
  const root = await mkdtemp(join(tmpdir(), 'fwbot-sentinel-'));
  const nodes: RedisNodeProcess[] = [];
  const sentinels: RedisNodeProcess[] = [];
  const stop = async () => {
    await Promise.all([...sentinels, ...nodes].map((node) => kill(node, 'SIGKILL')));
    await rm(root, { recursive: true, force: true });
  };
  try {
    const primary = await startNode(join(root, 'node0'), await freePort(), []);
    nodes.push(primary);
    for (let i = 1; i <= (options.replicas ?? 2); i += 1)
      nodes.push(
        await startNode(join(root, `node${i}`), await freePort(), [
          '--replicaof',
          '127.0.0.1',
          String(primary.port),
        ]),
      );
    await waitFor('the replicas to sync', async () => {
      const info = await cli(primary.port, 'INFO', 'replication');
      return (info.match(/state=online/g) ?? []).length === nodes.length - 1;
    });
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      sentinels.push(
        await startNode(
          join(root, `sentinel${i}`),
          port,
          [
            `sentinel monitor ${masterName} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 1_000}`,
            `sentinel failover-timeout ${masterName} 10000`,
            `sentinel parallel-syncs ${masterName} 1`,
          ],
          true,
        ),
      );
    }
    await waitFor('the sentinels to see each other and the replicas', async () => {
      const reply = await cli(sentinels[0]?.port ?? 0, 'SENTINEL', 'MASTER', masterName);
      const fields = reply.split('\n');
      const field = (name: string) => fields[fields.indexOf(name) + 1];
      return field('num-other-sentinels') === '2' && field('num-slaves') === String(nodes.length - 1);
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    masterName,
    sentinels,
    nodes,
    sentinelList: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    async primaryPort() {
      const reply = await cli(sentinels[0]?.port ?? 0, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName);
      return Number(reply.split('\n')[1]);
    },
    async crash(port) {
      const node = nodes.find((n) => n.port === port);
      if (node) await kill(node, 'SIGKILL');
    },
    stop,
  };
}

export interface ClusterTopology {
  readonly nodes: readonly RedisNodeProcess[];
  /** `127.0.0.1:p,…` of every node, as REDIS_CLUSTER_NODES takes it. */
  readonly nodeList: string;
  /** The port of the primary serving `key`'s slot now. */
  primaryFor(key: string): Promise<number>;
  /** The replica of the primary on `port`. */
  replicaOf(port: number): Promise<number>;
  crash(port: number): Promise<void>;
  /** Resolves once every surviving node says the cluster is ok. */
  healthy(): Promise<void>;
  stop(): Promise<void>;
}

/** Three primaries with `replicas` replicas each (default 1), node timeout `nodeTimeoutMs`. */
export async function startClusterTopology(
  options: { nodeTimeoutMs?: number; replicas?: number } = {},
): Promise<ClusterTopology> {
  const replicas = options.replicas ?? 1;
  if (!redisServerAvailable()) throw new Error(REDIS_INSTALL_HINT);
  const root = await mkdtemp(join(tmpdir(), 'fwbot-cluster-'));
  const nodes: RedisNodeProcess[] = [];
  const alive = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  const stop = async () => {
    await Promise.all(nodes.map((node) => kill(node, 'SIGKILL')));
    await rm(root, { recursive: true, force: true });
  };
  const healthy = () =>
    waitFor('the cluster to be ok', async () => {
      const states = await Promise.all(alive().map((n) => cli(n.port, 'CLUSTER', 'INFO')));
      if (!states.every((info) => info.includes('cluster_state:ok'))) return false;
      // And every primary's replica is in sync, so a write can be acknowledged (WAIT) and survive a failover.
      const replication = await Promise.all(alive().map((n) => cli(n.port, 'INFO', 'replication')));
      return replication
        .filter((info) => info.includes('role:master'))
        .every((info) => (info.match(/slave\d+:.*state=online/g) ?? []).length === replicas);
    });
  try {
    for (let i = 0; i < 3 * (1 + replicas); i += 1) {
      const port = await freePort();
      nodes.push(
        await startNode(join(root, `node${i}`), port, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(root, `node${i}`, 'nodes.conf'),
          '--cluster-node-timeout',
          String(options.nodeTimeoutMs ?? 1_000),
        ]),
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    await healthy();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes,
    nodeList: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    async primaryFor(key) {
      const slot = Number(await cli(alive()[0]?.port ?? 0, 'CLUSTER', 'KEYSLOT', key));
      for (const node of alive()) {
        const role = await cli(node.port, 'ROLE');
        if (!role.startsWith('master')) continue;
        const owned = await cli(node.port, 'CLUSTER', 'COUNTKEYSINSLOT', String(slot)).catch(() => '');
        const myself = (await cli(node.port, 'CLUSTER', 'NODES'))
          .split('\n')
          .find((l) => l.includes('myself'));
        const ranges = (myself ?? '').split(' ').slice(8);
        const inRange = ranges.some((range) => {
          const [from, to] = range.split('-').map(Number);
          return from !== undefined && slot >= from && slot <= (to ?? from);
        });
        if (inRange && owned !== '') return node.port;
      }
      throw new Error(`no primary serves the slot of ${key}`);
    },
    async replicaOf(port) {
      for (const node of alive()) {
        const role = (await cli(node.port, 'ROLE')).split('\n');
        if (role[0] === 'slave' && role[2] === String(port)) return node.port;
      }
      throw new Error(`no replica of ${port}`);
    },
    async crash(port) {
      const node = nodes.find((n) => n.port === port);
      if (node) await kill(node, 'SIGKILL');
    },
    healthy,
    stop,
  };
}
