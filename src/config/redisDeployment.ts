// Which Redis deployment fwbot uses: one server (REDIS_URL), a primary watched by Sentinel
// (REDIS_SENTINELS), or a Redis Cluster (REDIS_CLUSTER_NODES); the node lists' syntax, and the clear-text
// rule applied to every address given. src/redis/ turns a deployment into ioredis connections.
import { isLoopbackHost, isPrivateHost } from './endpoints.js';
import { accept, type Checked, refuse } from './issues.js';
import type { Secret } from './secret.js';

export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

export type RedisTransport = 'tls' | 'loopback' | 'private' | 'public';

/** What fwbot connects to. Passwords stay wrapped; src/redis/ reveals them when it connects. */
export type RedisDeployment =
  | { readonly kind: 'single'; readonly url: Secret }
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisNode[];
      /** The name the sentinels monitor the primary under (REDIS_SENTINEL_MASTER). */
      readonly masterName: string;
      readonly password: Secret | undefined;
      readonly sentinelPassword: Secret | undefined;
      readonly tls: boolean;
    }
  | {
      readonly kind: 'cluster';
      readonly nodes: readonly RedisNode[];
      readonly password: Secret | undefined;
      readonly tls: boolean;
    };

/** `host:port,host:port`, IPv6 hosts in brackets (`[fd00::5]:26379`); at least one node, no duplicates. */
export function checkNodeList(raw: string): Checked<readonly RedisNode[]> {
  const entries = raw.split(',').map((entry) => entry.trim());
  const nodes: RedisNode[] = [];
  for (const entry of entries) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    if (!match)
      return refuse('must be host:port pairs separated by commas, such as 10.0.0.1:26379,10.0.0.2:26379');
    const port = Number(match[2]);
    if (port < 1 || port > 65_535) return refuse('has a port outside 1–65535');
    const host = String(match[1]);
    if (nodes.some((node) => node.host === host && node.port === port)) return refuse('names a node twice');
    nodes.push({ host, port });
  }
  return accept(Object.freeze(nodes));
}

function hostTransport(host: string): RedisTransport {
  if (isLoopbackHost(host)) return 'loopback';
  return isPrivateHost(host) ? 'private' : 'public';
}

const EXPOSURE: readonly RedisTransport[] = ['tls', 'loopback', 'private', 'public'];

/** How a node list travels: TLS, or in clear text as exposed as its most exposed address. */
export function nodesTransport(nodes: readonly RedisNode[], tls: boolean): RedisTransport {
  if (tls) return 'tls';
  return nodes
    .map((node) => hostTransport(node.host))
    .reduce((worst, next) => (EXPOSURE.indexOf(next) > EXPOSURE.indexOf(worst) ? next : worst), 'loopback');
}

export function nodesDisplay(nodes: readonly RedisNode[]): string {
  return nodes.map((node) => `${node.host}:${node.port}`).join(',');
}

/** The deployment as logs and status pages show it: kind and addresses, never a password. */
export function deploymentDisplay(deployment: RedisDeployment, singleDisplay: string): string {
  switch (deployment.kind) {
    case 'single':
      return singleDisplay;
    case 'sentinel':
      return `sentinel ${deployment.masterName} via ${nodesDisplay(deployment.sentinels)}${deployment.tls ? ' (TLS)' : ''}`;
    case 'cluster':
      return `cluster ${nodesDisplay(deployment.nodes)}${deployment.tls ? ' (TLS)' : ''}`;
  }
}
