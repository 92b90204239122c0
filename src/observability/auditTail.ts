// Approvals by outcome, for /metrics: the approvals module writes one audit record per request, decision
// and execution (src/approvals/audit.ts), so the metric reads that stream instead of asking the module for
// hooks. Like the queue events, every process sees every record: take `max` across instances.

import type { Logger } from 'pino';
import { z } from 'zod';
import { connectRedis, type RedisTarget } from '../redis/connection.js';
import type { FwbotMetrics } from './metrics.js';
import { isRedisConnectionError, RedisHealth } from './redisHealth.js';

const StreamReply = z
  .array(z.tuple([z.string(), z.array(z.tuple([z.string(), z.array(z.string())]))]))
  .nullable();

export interface AuditTailOptions {
  redisUrl: RedisTarget;
  /** The audit stream's key (RedisKeys.audit, as AuditTrail.key names it). */
  streamKey: string;
  metrics: FwbotMetrics;
  log: Logger;
  /** How long one blocking read waits before looping (and noticing close()). Default 5 s. */
  blockMs?: number;
  /** The process's view of Redis; without one, the tail keeps its own. */
  redisHealth?: RedisHealth;
}

export interface AuditTail {
  close(): Promise<void>;
}

/** The `action` field of a flat [field, value, …] stream entry. */
function actionOf(fields: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'action') return fields[i + 1];
  return undefined;
}

export function tailAudit(options: AuditTailOptions): AuditTail {
  const { metrics, log, streamKey } = options;
  const blockMs = options.blockMs ?? 5_000;
  const redis = connectRedis(options.redisUrl);
  const health = options.redisHealth ?? new RedisHealth({ log, where: 'Redis' });
  health.watch('audit tail', redis);
  let closed = false;
  // From now, by the clock: only records written while this process runs are counted.
  let lastId = `${Date.now() - 1}-0`;

  const loop = async (): Promise<void> => {
    while (!closed) {
      try {
        const reply = StreamReply.parse(
          await redis.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', streamKey, lastId),
        );
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            lastId = id;
            const action = actionOf(fields);
            if (action) metrics.approvals.inc({ outcome: action });
          }
        }
      } catch (error) {
        if (closed) return;
        // While Redis is away the health view has said so once; a line per retry would flood the log.
        if (!isRedisConnectionError(error)) log.warn({ err: error }, 'audit tail: read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  };
  const running = loop();

  return {
    async close() {
      closed = true;
      // Ends the blocking read at once; the loop sees `closed` and returns.
      redis.disconnect();
      await running;
    },
  };
}
