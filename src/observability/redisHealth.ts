// Redis once running: one view per process of whether Redis is there, fed by every connection the
// process opens (fwbot's own ioredis clients and the BullMQ queues and workers built on them). A lost
// Redis makes each connection emit an error per reconnect attempt — ioredis retries every 2 s at most,
// BullMQ re-emits each one, and a connection without a listener prints its stack to stderr: 2,214 lines
// in 20 s from one demo process before this existed. Here they become state changes instead: one line
// when Redis is lost (with the reason as a sentence), a reconnecting line whose spacing doubles from 5 s
// to 5 min (with the next attempt's delay), one line when it is back (with how long it was away), and a
// readiness check that answers with the same reason.
import type { Logger } from 'pino';
import { describeRedisFailure, type RedisVariables } from '../redis/check.js';
import type { ReadinessCheck, RedisLike } from './health.js';

/** What an ioredis client emits as its connection changes (the subset watched). */
export interface RedisConnectionEvents {
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'close' | 'end', listener: () => void): unknown;
  on(event: 'reconnecting', listener: (delayMs: number) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Anything else that re-emits Redis errors (BullMQ's Queue, Worker, QueueEvents). */
export interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface RedisHealthOptions {
  log: Logger;
  /** REDIS_URL as fwbot shows it (redacted): sentences name it. */
  where: string;
  /** The variables a sentence tells a person to check (default: REDIS_URL). */
  variables?: RedisVariables;
  now?: () => number;
  /** First spacing of the "still reconnecting" lines; doubles up to `maxQuietMs`. Default 5 s. */
  quietMs?: number;
  maxQuietMs?: number;
}

/** Errors that say the connection is gone or unusable, rather than that a command went wrong. */
const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|Connection is closed|Stream isn't writeable|connect ETIMEDOUT|Protocol error|WRONGPASS|NOAUTH|LOADING|READONLY|MASTERDOWN|CLUSTERDOWN/i;

export function isRedisConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return CONNECTION_ERROR.test(`${typeof code === 'string' ? code : ''} ${String(error)}`);
}

/** While down, `attempts` counts the reconnect attempts of the connection that has made the most. */
type State =
  | { kind: 'up' }
  | { kind: 'down'; since: number; reason: string; attempts: number; byConnection: Map<string, number> };

export class RedisHealth {
  readonly #log: Logger;
  readonly #where: string;
  readonly #variables: RedisVariables | undefined;
  readonly #now: () => number;
  readonly #quietMs: number;
  readonly #maxQuietMs: number;
  /** Connections and whether each is ready; the process is up when every one of them is. */
  readonly #connections = new Map<string, boolean>();
  #state: State = { kind: 'up' };
  #nextReconnectLine = 0;
  #quiet: number;
  #outages = 0;

  constructor(options: RedisHealthOptions) {
    this.#log = options.log;
    this.#where = options.where;
    this.#variables = options.variables;
    this.#now = options.now ?? Date.now;
    this.#quietMs = options.quietMs ?? 5_000;
    this.#maxQuietMs = options.maxQuietMs ?? 300_000;
    this.#quiet = this.#quietMs;
  }

  /** Follows an ioredis connection. `name` tells connections apart in the logs' fields. */
  watch(name: string, connection: RedisConnectionEvents & { readonly status?: string }): void {
    this.#connections.set(name, connection.status === undefined || connection.status === 'ready');
    connection.on('ready', () => this.#ready(name));
    connection.on('close', () => this.#lost(name, undefined));
    connection.on('end', () => this.#lost(name, undefined));
    connection.on('reconnecting', (delayMs) => this.#reconnecting(name, delayMs));
    connection.on('error', (error) => this.#error(name, error, true));
  }

  /**
   * Takes the error events of a BullMQ queue or worker: connection errors feed the state (they repeat
   * once per reconnect attempt), anything else is logged as it comes.
   */
  absorb(name: string, emitter: ErrorEmitter): void {
    emitter.on('error', (error) => this.#error(name, error, false));
  }

  get up(): boolean {
    return this.#state.kind === 'up';
  }

  get outages(): number {
    return this.#outages;
  }

  /** Why Redis is not usable, as a sentence; undefined while it is. */
  get reason(): string | undefined {
    const state = this.#state;
    if (state.kind === 'up') return undefined;
    const away = Math.round((this.#now() - state.since) / 1000);
    return `Redis lost ${away} s ago, reconnecting (${state.attempts} attempts so far): ${state.reason}`;
  }

  /** /readyz's Redis check: the reason while Redis is lost, otherwise PING on `redis`. */
  readinessCheck(redis: RedisLike, name = 'redis'): ReadinessCheck {
    return {
      name,
      check: async () => {
        const reason = this.reason;
        if (reason !== undefined) throw new Error(reason);
        if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
        const answer = await redis.ping();
        if (answer !== 'PONG') throw new Error(`Redis answered PING with ${answer}`);
      },
    };
  }

  #error(name: string, error: Error, watched: boolean): void {
    if (isRedisConnectionError(error)) {
      this.#lost(watched ? name : undefined, error);
      return;
    }
    this.#log.error({ err: error, connection: name }, 'Redis error');
  }

  /** `name` is a watched connection's (it now waits for its 'ready'); undefined for an absorbed emitter. */
  #lost(name: string | undefined, error: Error | undefined): void {
    if (name !== undefined) this.#connections.set(name, false);
    const state = this.#state;
    if (state.kind === 'down') {
      // A new reason (the server came back refusing the password, say) is a change worth a line.
      if (error === undefined) return;
      const reason = describeRedisFailure(error, this.#where, this.#variables);
      if (reason !== state.reason) {
        state.reason = reason;
        this.#log.warn({ connection: name }, `Redis still unavailable, now: ${reason}`);
      }
      return;
    }
    // A connection closing on its own (quit at shutdown, BullMQ recycling a blocking client) is not an
    // outage until something says Redis cannot be reached.
    if (error === undefined) return;
    const reason = describeRedisFailure(error, this.#where, this.#variables);
    this.#state = { kind: 'down', since: this.#now(), reason, attempts: 0, byConnection: new Map() };
    this.#outages += 1;
    this.#quiet = this.#quietMs;
    this.#nextReconnectLine = 0;
    this.#log.warn(
      { connection: name },
      `Redis lost: ${reason} fwbot keeps reconnecting; /readyz answers 503 until Redis is back, and work waits.`,
    );
  }

  #reconnecting(name: string, delayMs: number): void {
    const state = this.#state;
    if (state.kind === 'up') return;
    const attempts = (state.byConnection.get(name) ?? 0) + 1;
    state.byConnection.set(name, attempts);
    state.attempts = Math.max(state.attempts, attempts);
    const now = this.#now();
    if (now < this.#nextReconnectLine) return;
    this.#nextReconnectLine = now + this.#quiet;
    this.#quiet = Math.min(this.#quiet * 2, this.#maxQuietMs);
    const away = Math.round((now - state.since) / 1000);
    this.#log.info(
      { attempts: state.attempts, delayMs },
      `Redis: reconnecting, next attempt in ${delayMs} ms (away ${away} s, ${state.attempts} attempts so far).`,
    );
  }

  #ready(name: string): void {
    this.#connections.set(name, true);
    const state = this.#state;
    if (state.kind === 'up') return;
    if ([...this.#connections.values()].some((ready) => !ready)) return;
    const away = Math.round((this.#now() - state.since) / 1000);
    this.#state = { kind: 'up' };
    this.#log.info(
      { awayMs: this.#now() - state.since, attempts: state.attempts },
      `Redis is back after ${away} s (${state.attempts} reconnect attempts); work resumes.`,
    );
  }
}
