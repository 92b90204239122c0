// Before anything else uses Redis at start-up: one connection, one PING, a few seconds at most. A Redis
// that is not there (closed port, unknown host), refuses the password, or is not Redis at all (an HTTP
// server answers "Protocol error, got H") ends the start with one sentence naming what failed and what to
// do, instead of ioredis retrying forever and printing a stack trace per attempt.
import { connectRedis, deploymentOf, type RedisTarget } from './connection.js';

/** The exit code of a process that could not reach its Redis at start-up (docs/operating/runbook.md). */
export const EXIT_REDIS_UNREACHABLE = 3;

export class RedisUnreachable extends Error {
  override readonly name = 'RedisUnreachable';
}

/** Which variables a person fixes: where Redis is, and its password (REDIS_URL holds both). */
export interface RedisVariables {
  address: string;
  password: string;
}

export function redisVariables(target: RedisTarget): RedisVariables {
  const { kind } = deploymentOf(target);
  if (kind === 'sentinel') return { address: 'REDIS_SENTINELS', password: 'REDIS_PASSWORD' };
  if (kind === 'cluster') return { address: 'REDIS_CLUSTER_NODES', password: 'REDIS_PASSWORD' };
  return { address: 'REDIS_URL', password: 'REDIS_URL' };
}

/** What went wrong with the Redis at `where`, as one sentence that says what to do. */
export function describeRedisFailure(
  error: unknown,
  where: string,
  variables: RedisVariables = { address: 'REDIS_URL', password: 'REDIS_URL' },
): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const { address, password } = variables;
  if (code === 'ECONNREFUSED')
    return `Nothing answers at ${where}: is Redis running there, on that port? Start it, or point ${address} at yours.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `The host of ${where} is not known (DNS): check the host name in ${address}.`;
  if (/WRONGPASS|invalid username-password|NOAUTH|AUTH/i.test(text))
    return `Redis at ${where} refused the credentials: check the ${password === 'REDIS_URL' ? 'user and password in REDIS_URL' : password}.`;
  if (/Protocol error/i.test(text))
    return `What answers at ${where} is not Redis (it answered “${text}”): check the port in ${address}.`;
  if (/All sentinels are unreachable/i.test(text))
    return `No sentinel answers for ${where}: are they running, on those ports? Check REDIS_SENTINELS.`;
  if (/Failed to refresh slots cache|None of startup nodes is available/i.test(text))
    return `No node of the ${where} answers as a cluster member: check REDIS_CLUSTER_NODES.`;
  if (/timed out|ETIMEDOUT|timeout/i.test(text))
    return `Redis at ${where} did not answer in time: check the address, and any firewall in between.`;
  return `Redis at ${where} could not be used: ${text}.`;
}

/**
 * Resolves when Redis answers PING within `timeoutMs`; otherwise rejects with a RedisUnreachable whose
 * message is one sentence (no stack, no password: `where` is the URL as REDIS_URL shows it, redacted).
 */
export async function checkRedis(target: RedisTarget, where: string, timeoutMs = 5_000): Promise<void> {
  const redis = connectRedis(target, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
    // The PING below is the check: its answer (or the parser's complaint) says what is listening.
    enableReadyCheck: false,
  });
  // Errors are reported by the rejected connect/ping below, once; the event would otherwise be unhandled.
  let last: unknown;
  redis.on('error', (error) => {
    last = error;
  });
  const timer = setTimeout(() => redis.disconnect(), timeoutMs + 500);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    // The most telling of the two: the connection's own error (a protocol error) or the command's.
    const telling = [last, error].find((e) =>
      /Protocol error|WRONGPASS|NOAUTH|ECONNREFUSED|ENOTFOUND/.test(String(e)),
    );
    throw new RedisUnreachable(describeRedisFailure(telling ?? last ?? error, where, redisVariables(target)));
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
