// Redis behind Sentinel (REDIS_SENTINELS) or as a Cluster (REDIS_CLUSTER_NODES): parsed into one
// deployment, refused with a sentence when the forms are mixed or a node list is malformed, under the same
// clear-text rule as REDIS_URL, and never showing a password.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { configVariables, loadConfig, redisPlaintextWarning } from '../../src/config.js';
import { issueAbout, issuesOf } from './support.js';

const SENTINELS = '10.0.0.11:26379,10.0.0.12:26379,10.0.0.13:26379';
const NODES = '10.0.0.21:6379,10.0.0.22:6379,10.0.0.23:6379';

describe('REDIS_SENTINELS', () => {
  it('names the sentinels, the master name (mymaster unless told) and the passwords', () => {
    const { redis } = loadConfig({
      REDIS_SENTINELS: SENTINELS,
      REDIS_PASSWORD: 'data-Pa55-hidden',
      REDIS_SENTINEL_PASSWORD: 'sentinel-Pa55-hidden',
    });
    expect(redis.deployment).toMatchObject({
      kind: 'sentinel',
      masterName: 'mymaster',
      sentinels: [
        { host: '10.0.0.11', port: 26379 },
        { host: '10.0.0.12', port: 26379 },
        { host: '10.0.0.13', port: 26379 },
      ],
      tls: false,
    });
    if (redis.deployment.kind !== 'sentinel') throw new Error('a sentinel deployment was expected');
    expect(redis.deployment.password?.reveal()).toBe('data-Pa55-hidden');
    expect(redis.deployment.sentinelPassword?.reveal()).toBe('sentinel-Pa55-hidden');
    expect(redis.display).toBe(`sentinel mymaster via ${SENTINELS}`);
    expect(redis.transport).toBe('private');
    expect(redis.waitReplicas).toBe(1);
    const logged = `${JSON.stringify(redis)} ${inspect(redis, { depth: 5 })}`;
    expect(logged).not.toContain('Pa55-hidden');
  });

  it('takes a master name, IPv6 sentinels and TLS', () => {
    const { redis } = loadConfig({
      REDIS_SENTINELS: '[fd00::5]:26379,sentinel-b:26379',
      REDIS_SENTINEL_MASTER: 'fwbot',
      REDIS_TLS: 'on',
    });
    expect(redis.deployment).toMatchObject({ kind: 'sentinel', masterName: 'fwbot', tls: true });
    expect(redis.transport).toBe('tls');
    expect(redis.display).toBe('sentinel fwbot via [fd00::5]:26379,sentinel-b:26379 (TLS)');
  });

  it.each([
    ['10.0.0.11', /host:port pairs/],
    ['10.0.0.11:26379;10.0.0.12:26379', /host:port pairs/],
    ['10.0.0.11:99999', /outside 1–65535/],
    ['10.0.0.11:26379,10.0.0.11:26379', /names a node twice/],
  ])('refuses %s with a sentence', (value, problem) => {
    const issue = issueAbout(issuesOf({ REDIS_SENTINELS: value }), 'REDIS_SENTINELS');
    expect(issue.problem).toMatch(problem);
    expect(issue.example).toMatch(/^REDIS_SENTINELS=/);
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  it('names the seed nodes and asks one replica to acknowledge by default', () => {
    const { redis } = loadConfig({ REDIS_CLUSTER_NODES: NODES, REDIS_PASSWORD: 'data-Pa55-hidden' });
    expect(redis.deployment).toMatchObject({ kind: 'cluster', tls: false });
    expect(redis.display).toBe(`cluster ${NODES}`);
    expect(redis.waitReplicas).toBe(1);
    expect(redis.waitTimeoutMs).toBe(1000);
    expect(JSON.stringify(redis)).not.toContain('Pa55-hidden');
  });

  it('lets REDIS_WAIT_REPLICAS and REDIS_WAIT_TIMEOUT_MS change the acknowledgement', () => {
    const { redis } = loadConfig({
      REDIS_CLUSTER_NODES: NODES,
      REDIS_WAIT_REPLICAS: '0',
      REDIS_WAIT_TIMEOUT_MS: '2500',
    });
    expect([redis.waitReplicas, redis.waitTimeoutMs]).toEqual([0, 2500]);
    expect(issueAbout(issuesOf({ REDIS_WAIT_REPLICAS: '9' }), 'REDIS_WAIT_REPLICAS').problem).toBe(
      'must be from 0 to 5',
    );
  });
});

describe('one Redis deployment at a time', () => {
  it('does not wait for replicas with REDIS_URL unless told', () => {
    expect(loadConfig({}).redis.waitReplicas).toBe(0);
    expect(loadConfig({ REDIS_WAIT_REPLICAS: '1' }).redis.waitReplicas).toBe(1);
  });

  it('refuses Sentinel and Cluster together', () => {
    const issue = issueAbout(
      issuesOf({ REDIS_SENTINELS: SENTINELS, REDIS_CLUSTER_NODES: NODES }),
      'REDIS_CLUSTER_NODES',
    );
    expect(issue.problem).toMatch(/together with REDIS_SENTINELS.*keep one/);
  });

  it('refuses REDIS_URL beside a node list, without quoting its password', () => {
    const issues = issuesOf({
      REDIS_URL: 'redis://:url-Pa55-hidden@10.0.0.5:6379',
      REDIS_CLUSTER_NODES: NODES,
    });
    const issue = issueAbout(issues, 'REDIS_URL');
    expect(issue.problem).toMatch(
      /unset REDIS_URL \(the password goes in REDIS_PASSWORD, TLS in REDIS_TLS\)/,
    );
    expect(JSON.stringify(issues)).not.toContain('url-Pa55-hidden');
  });

  it.each([
    ['REDIS_SENTINEL_MASTER', 'fwbot', /REDIS_SENTINELS is not/],
    ['REDIS_SENTINEL_PASSWORD', 'x-Pa55', /REDIS_SENTINELS is not/],
    ['REDIS_PASSWORD', 'x-Pa55', /put the password in the URL/],
    ['REDIS_TLS', 'on', /rediss:\/\/ for TLS/],
  ])('refuses %s where it would be ignored', (name, value, problem) => {
    expect(issueAbout(issuesOf({ [name]: value }), name).problem).toMatch(problem);
  });

  it('refuses REDIS_SENTINEL_* with a cluster', () => {
    const issues = issuesOf({ REDIS_CLUSTER_NODES: NODES, REDIS_SENTINEL_MASTER: 'fwbot' });
    expect(issueAbout(issues, 'REDIS_SENTINEL_MASTER').problem).toMatch(/REDIS_SENTINELS is not/);
  });

  it('accepts the examples the README shows for Sentinel and for Cluster', () => {
    const example = (name: string) => configVariables.find((v) => v.name === name)?.example ?? '';
    const sentinel = loadConfig({
      REDIS_SENTINELS: example('REDIS_SENTINELS'),
      REDIS_SENTINEL_MASTER: example('REDIS_SENTINEL_MASTER'),
      REDIS_SENTINEL_PASSWORD: example('REDIS_SENTINEL_PASSWORD'),
      REDIS_PASSWORD: example('REDIS_PASSWORD'),
      REDIS_TLS: example('REDIS_TLS'),
    });
    expect(sentinel.redis.deployment.kind).toBe('sentinel');
    const cluster = loadConfig({
      REDIS_CLUSTER_NODES: example('REDIS_CLUSTER_NODES'),
      REDIS_PASSWORD: example('REDIS_PASSWORD'),
    });
    expect(cluster.redis.deployment.kind).toBe('cluster');
  });
});

describe('clear text to the nodes', () => {
  it('is as exposed as the most exposed address, and warned about beyond loopback', () => {
    expect(loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379,127.0.0.1:26380' }).redis.transport).toBe(
      'loopback',
    );
    const mixed = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000,10.0.0.2:7000' }).redis;
    expect(mixed.transport).toBe('private');
    expect(redisPlaintextWarning(mixed)).toMatch(/clear text: .*set REDIS_TLS=on/);
  });

  it('is refused to a public address or a DNS name unless REDIS_TLS or REDIS_ALLOW_PLAINTEXT is on', () => {
    for (const [name, value] of [
      ['REDIS_SENTINELS', '10.0.0.11:26379,sentinel.example.com:26379'],
      ['REDIS_CLUSTER_NODES', '203.0.113.5:6379'],
    ] as const) {
      const issue = issueAbout(issuesOf({ [name]: value }), name);
      expect(issue.problem).toMatch(/without TLS.*set REDIS_TLS=on, or REDIS_ALLOW_PLAINTEXT=on/);
      expect(loadConfig({ [name]: value, REDIS_TLS: 'on' }).redis.transport).toBe('tls');
      expect(loadConfig({ [name]: value, REDIS_ALLOW_PLAINTEXT: 'on' }).redis.transport).toBe('public');
    }
  });
});
