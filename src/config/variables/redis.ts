// The variables of Redis: one server (REDIS_URL), Sentinel or Cluster with their passwords and TLS, whether
// clear text may cross a network, and how many replicas must acknowledge what fwbot acts on. Which of them go
// together is environmentRules.ts.
import { checkRedisUrl } from '../endpoints.js';
import { accept, refuse } from '../issues.js';
import { checkNodeList } from '../redisDeployment.js';
import { checkSwitch, defaultedVariable, integerBetween, optionalVariable, secret } from './declare.js';

export const redisVariables = {
  REDIS_URL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'rediss://:password@redis.internal:6380/0',
      description:
        'Redis for approvals, tracked work and audit records: redis:// or rediss:// (TLS). Treated as a ' +
        'secret because it may hold a password.',
      secret: true,
    },
    'redis://127.0.0.1:6379',
    checkRedisUrl,
  ),
  REDIS_ALLOW_PLAINTEXT: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'on',
      description:
        'Whether a redis:// (clear text) REDIS_URL may point at a public address or a DNS name: `on` or `off`. ' +
        'Clear text is accepted to loopback, and to private addresses and single-label hosts with a warning; ' +
        'anywhere else use rediss://, or turn this on if that network is yours.',
      secret: false,
    },
    'off',
    checkSwitch,
  ),
  REDIS_SENTINELS: optionalVariable(
    {
      requiredWhen: 'never',
      example: '10.0.0.11:26379,10.0.0.12:26379,10.0.0.13:26379',
      description:
        'Redis behind Sentinel: the sentinels as host:port pairs, comma-separated. fwbot asks them for the ' +
        'primary of REDIS_SENTINEL_MASTER and follows a failover. Instead of REDIS_URL (leave it unset).',
      secret: false,
    },
    checkNodeList,
  ),
  REDIS_SENTINEL_MASTER: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'fwbot',
      description:
        'The name the sentinels monitor the primary under. Unset: `mymaster`. Only with REDIS_SENTINELS.',
      secret: false,
    },
    (raw) =>
      /^[\w.-]{1,64}$/.test(raw)
        ? accept(raw)
        : refuse<string>('must be a Sentinel master name: letters, digits, . _ -'),
  ),
  REDIS_SENTINEL_PASSWORD: optionalVariable(
    {
      requiredWhen: 'never',
      example: 's3ntinel-pa55',
      description:
        "The sentinels' own password (their `requirepass`), when they have one. Only with REDIS_SENTINELS.",
      secret: true,
    },
    secret((raw) => accept(raw)),
  ),
  REDIS_CLUSTER_NODES: optionalVariable(
    {
      requiredWhen: 'never',
      example: '10.0.0.21:6379,10.0.0.22:6379,10.0.0.23:6379',
      description:
        'Redis Cluster: some of its nodes as host:port pairs, comma-separated (fwbot learns the rest from them). ' +
        'Instead of REDIS_URL (leave it unset). fwbot then keeps all its keys under the hash tag `{fwbot}`.',
      secret: false,
    },
    checkNodeList,
  ),
  REDIS_PASSWORD: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'data-pa55word',
      description:
        'Password of the Redis data nodes with REDIS_SENTINELS or REDIS_CLUSTER_NODES (with REDIS_URL it goes in the URL).',
      secret: true,
    },
    secret((raw) => accept(raw)),
  ),
  REDIS_TLS: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'on',
      description:
        'TLS to every node (and sentinel) with REDIS_SENTINELS or REDIS_CLUSTER_NODES: `on` or `off`. Unset: ' +
        '`off`, under the same clear-text rule as a redis:// REDIS_URL, applied to each address given.',
      secret: false,
    },
    checkSwitch,
  ),
  REDIS_WAIT_REPLICAS: optionalVariable(
    {
      requiredWhen: 'never',
      example: '1',
      description:
        'How many replicas must acknowledge (WAIT) an approval transition or an exactly-once mark before fwbot ' +
        'acts on it (0–5). Unset: 1 with REDIS_SENTINELS or REDIS_CLUSTER_NODES, 0 with REDIS_URL.',
      secret: false,
    },
    integerBetween(0, 5),
  ),
  REDIS_WAIT_TIMEOUT_MS: defaultedVariable(
    {
      requiredWhen: 'never',
      example: '2000',
      description:
        'How long fwbot waits for those acknowledgements, in milliseconds (1–60000); when they do not come ' +
        'it does not act, and says so.',
      secret: false,
    },
    '1000',
    integerBetween(1, 60_000),
  ),
};
