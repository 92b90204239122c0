// Readiness: is this process able to do its work right now? Each dependency (Redis, SCC, Slack) is one
// check that resolves or throws with a reason; they run in parallel, each within a time limit, so a
// hung dependency makes /readyz answer "not ready" quickly instead of hanging the probe. Checks that
// cost a remote call (SCC, Slack's auth.test) are cached briefly: orchestrators probe every few seconds.
// A reason may name hosts, ports and errors, so it is shown only where operators look (httpSide.ts), and
// logged (with the reason) when a check starts failing, and when it passes again.
import type { Logger } from 'pino';
import type { SccClients } from '../scc/client.js';
import { SlackApi, type WebApiClient } from '../slackApi/slackApi.js';
import type { FwbotMetrics } from './metrics.js';

export interface ReadinessCheck {
  /** Short name shown in /readyz and in the `fwbot_ready{check}` series: `redis`, `scc:default`, `slack`. */
  readonly name: string;
  /**
   * Resolves when ready, optionally with one line on what it sees (shown as `detail`, e.g. the Redis
   * topology); throws (or rejects) with a reason a person can act on.
   */
  check(signal: AbortSignal): Promise<unknown>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /**
   * The reason when not ok, or what a passing check sees. Never holds a secret (checks say what failed, not
   * with which credentials), but may name hosts and ports: not for the public port.
   */
  detail?: string;
  ms: number;
}

export interface ReadinessReport {
  ready: boolean;
  /** True once shutdown began: the process finishes what it has and takes nothing new. */
  draining: boolean;
  checks: CheckResult[];
}

export interface Readiness {
  evaluate(): Promise<ReadinessReport>;
  /** From now on the process reports not ready (load balancers stop sending it work). */
  drain(): void;
  readonly draining: boolean;
}

export interface ReadinessOptions {
  /** Limit for each check. Default 2 s: well inside a probe's usual timeout. */
  timeoutMs?: number;
  metrics?: FwbotMetrics;
  /** Where a check that starts failing (with its reason) or passes again is said. */
  log?: Logger;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const seen = await Promise.race([check.check(controller.signal), timeout]);
    const detail = typeof seen === 'string' ? { detail: seen } : {};
    return { name: check.name, ok: true, ...detail, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      name: check.name,
      ok: false,
      detail: reasonOf(error),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness(
  checks: readonly ReadinessCheck[],
  options: ReadinessOptions = {},
): Readiness {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const { log } = options;
  let draining = false;
  /** The checks failing at the last evaluation: a change either way is said once. */
  const failing = new Set<string>();
  const noteChange = (result: CheckResult) => {
    // Only the change is logged: a reason can change at every probe (counters, seconds away).
    if (result.ok) {
      if (failing.delete(result.name))
        log?.info({ check: result.name }, `readiness: ${result.name} passes again`);
      return;
    }
    if (failing.has(result.name)) return;
    failing.add(result.name);
    log?.warn(
      { check: result.name },
      `readiness: ${result.name} fails: ${result.detail ?? 'no reason given'}`,
    );
  };
  return {
    async evaluate() {
      const results = await Promise.all(checks.map((check) => runCheck(check, timeoutMs)));
      for (const result of results) {
        options.metrics?.readiness.set({ check: result.name }, result.ok ? 1 : 0);
        noteChange(result);
      }
      return { ready: !draining && results.every((r) => r.ok), draining, checks: results };
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}

/** A check whose result (pass or fail) is reused for `ttlMs`, so probes do not turn into API traffic. */
export function cachedCheck(
  check: ReadinessCheck,
  ttlMs: number,
  now: () => number = Date.now,
): ReadinessCheck {
  let last: { at: number; error: unknown; ok: boolean } | undefined;
  let inFlight: Promise<void> | undefined;
  return {
    name: check.name,
    async check(signal) {
      if (last && now() - last.at < ttlMs) {
        if (last.ok) return;
        throw last.error;
      }
      // One remote call at a time, however many probes arrive while it runs.
      inFlight ??= check
        .check(signal)
        .then(
          () => {
            last = { at: now(), error: undefined, ok: true };
          },
          (error: unknown) => {
            last = { at: now(), error, ok: false };
            throw error;
          },
        )
        .finally(() => {
          inFlight = undefined;
        });
      await inFlight;
    },
  };
}

/** The part of an ioredis client the Redis check needs. */
export interface RedisLike {
  readonly status: string;
  ping(): Promise<string>;
}

/**
 * Redis answers PING. The connection's status is read first: BullMQ's connections queue commands while
 * reconnecting (maxRetriesPerRequest: null), so a PING to a lost Redis would wait rather than fail.
 */
export function redisCheck(redis: RedisLike, name = 'redis'): ReadinessCheck {
  return {
    name,
    async check() {
      if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`Redis answered PING with ${answer}`);
    },
  };
}

/**
 * Every SCC profile answers an authenticated read (one device of the inventory). A refused token counts
 * as not ready: the bot could not do anything useful with it. Cached for `ttlMs` (default 30 s).
 */
export function sccChecks(clients: SccClients, options: { ttlMs?: number } = {}): ReadinessCheck[] {
  return clients.names().map((profile) =>
    cachedCheck(
      {
        name: `scc:${profile}`,
        async check(signal) {
          await clients.get(profile).devices.list({ limit: 1 }, { signal, timeoutMs: 5_000 });
        },
      },
      options.ttlMs ?? 30_000,
    ),
  );
}

/** HTTP mode: Slack accepts the bot token (auth.test), cached for `ttlMs` (default 60 s; Tier 4). */
export function slackApiCheck(client: WebApiClient, options: { ttlMs?: number } = {}): ReadinessCheck {
  const slack = new SlackApi(client);
  return cachedCheck(
    {
      name: 'slack',
      async check() {
        await slack.authTest();
      },
    },
    options.ttlMs ?? 60_000,
  );
}

/** What a Socket Mode client emits as its connection changes (@slack/socket-mode's states). */
export interface SocketStateEmitter {
  on(event: 'connected' | 'disconnected' | 'reconnecting' | 'connecting', listener: () => void): unknown;
}

/** Socket Mode: the WebSocket to Slack is open. Follows the client's events; costs nothing per probe. */
export function slackSocketCheck(socket: SocketStateEmitter, initiallyConnected = false): ReadinessCheck {
  let state = initiallyConnected ? 'connected' : 'not connected yet';
  socket.on('connected', () => {
    state = 'connected';
  });
  for (const event of ['disconnected', 'reconnecting', 'connecting'] as const) {
    socket.on(event, () => {
      state = event;
    });
  }
  return {
    name: 'slack',
    async check() {
      if (state !== 'connected') throw new Error(`Slack Socket Mode is ${state}`);
    },
  };
}
