// The bot's scheduled runs as another process reads them (the CLI): the approvals' own store over the
// bot's Redis and key prefix, so `fwbot deployments scheduled` lists exactly what the bot holds. It lists
// only: who may cancel is the requester or an approver, people fwbot knows by their Slack ids, and a
// terminal user is not one of them, so a cancel from here is refused with where to do it instead.

import { ScheduledDeploys } from '../approvals/scheduled.js';
import { ApprovalSettings } from '../approvals/settings.js';
import { ApprovalStore } from '../approvals/store.js';
import type { Operation, ScheduledRuns } from '../catalogue/operation.js';
import { connectRedis, isCluster, type RedisTarget } from '../redis/connection.js';
import { normalisePrefix, slotPrefix } from '../redis/keys.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ScheduledReader {
  scheduled: ScheduledRuns;
  close(): Promise<void>;
}

export function readScheduledRuns(options: {
  redis: RedisTarget;
  /** The deployment's key prefix, as the bot's (default `fwbot`). */
  prefix?: string | undefined;
  lookup: (operationId: string) => Operation | undefined;
}): ScheduledReader {
  // The bot's own defaults: the profiles file does not change the store's retention or lease.
  const settings = ApprovalSettings.parse({});
  const redis = connectRedis(options.redis);
  // The approvals' keys sit under the deployment's prefix and a colon, as the bot's assembly puts them.
  const prefix = slotPrefix(normalisePrefix(options.prefix), isCluster(options.redis));
  const store = new ApprovalStore({
    redis,
    prefix,
    retentionMs: settings.auditRetentionDays * DAY_MS,
    claimGraceMs: settings.executionLeaseMs,
  });
  return {
    scheduled: new ScheduledDeploys({ store, lookup: options.lookup, clock: Date.now }),
    async close() {
      await redis.quit();
    },
  };
}
