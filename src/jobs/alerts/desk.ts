// The incident desk's front door: the scan hands it the AlertEvents it found (`deliverAlerts`), as one job
// on the `alerts` queue whose id the events decide, so a scan repeated after a crash queues nothing new.
// A desk worker (deskWorker.ts) takes each batch into the channels' incidents exactly once and brings
// their Slack messages in line, at Slack's pace.
import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { AlertEvent } from '../../alerts/model.js';
import type { JobsCore } from '../core.js';

/** A job of the `alerts` queue: a scan's batch of events, or "bring these channels' messages in line". */
export const DeskJob = z.discriminatedUnion('type', [
  z.object({ type: z.literal('batch'), events: z.array(AlertEvent) }),
  z.object({ type: z.literal('deliver'), channels: z.array(z.string().min(1)).min(1) }),
]);
export type DeskJob = z.infer<typeof DeskJob>;

/** Finished desk jobs are kept a while, so a batch queued again soon after is recognised by its id. */
const KEEP = { removeOnComplete: { age: 3_600, count: 1_000 }, removeOnFail: 1_000 } as const;

/** BullMQ job id of a batch: a digest of its events' keys and channels, in any order. */
export function alertBatchJobId(events: readonly AlertEvent[]): string {
  const lines = events.map((event) => `${event.key}\u0000${[...event.channels].sort().join(',')}`).sort();
  return `alerts~${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 40)}`;
}

function jobOptions(jobId: string, core: JobsCore): JobsOptions {
  const { attempts, backoffMs } = core.schedule.slack;
  return { jobId, attempts, backoff: { type: 'exponential', delay: backoffMs }, ...KEEP };
}

/**
 * Hands a scan's events to the incident desk. Call it once per scan pass with everything the pass found
 * (a burst is recognised within one batch: 300 devices going offline in one pass are one summary), after
 * the scan's own state is saved or before, as suits: the desk takes each event into each of its
 * `channels` once (by `key`), so a pass repeated after a crash may hand the same events again. Events
 * without channels are ignored. Resolves once the batch is queued in Redis, not when Slack has it.
 */
export async function deliverAlerts(core: JobsCore, events: readonly AlertEvent[]): Promise<void> {
  const routed = events.filter((event) => event.channels.length > 0);
  if (routed.length === 0) return;
  const data: DeskJob = { type: 'batch', events: routed };
  const jobId = alertBatchJobId(routed);
  await core.alertsQueue.add('batch', data, jobOptions(jobId, core));
}

/** Asks a desk worker to bring channels' messages in line (after an acknowledgement); `reason` names the job. */
export async function redeliver(core: JobsCore, channels: readonly string[], reason: string): Promise<void> {
  if (channels.length === 0) return;
  const data: DeskJob = { type: 'deliver', channels: [...channels] };
  const jobId = `deliver~${createHash('sha256').update(reason).digest('hex').slice(0, 40)}`;
  await core.alertsQueue.add('deliver', data, jobOptions(jobId, core));
}
