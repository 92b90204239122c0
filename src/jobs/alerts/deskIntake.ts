// Takes a batch of AlertEvents into one channel's incidents, exactly once: events already taken (by key)
// are skipped, and everything one batch changes (incident records, the "taken" marks, what must be shown
// again, the thread replies to post) is written in one MULTI (deskBatch.ts), so a worker killed halfway
// leaves either nothing or all of it. The caller holds the channel's desk lock, so no two intakes of a
// channel interleave. The events are applied oldest first, each by what it is: incidents open, update,
// close and flap (deskIncidents.ts); opens of one kind beyond the burst threshold join one summary
// (deskBursts.ts); too many notices of a kind are one summary (deskNotices.ts); catch-up events join one
// catch-up summary per batch (deskCatchUp.ts); what was already wrong when the channel subscribed
// (`current` events) is one "right now" summary whose members keep their own messages in its thread
// (deskRightNow.ts); muted devices open nothing.
import type { AlertEvent } from '../../alerts/model.js';
import { renderCatchUpReply } from '../../alerts/render.js';
import type { RedisClient } from '../../redis/connection.js';
import type { RedisKeys } from '../../redis/keys.js';
import type { Schedule } from '../schedule.js';
import { DeskBatch } from './deskBatch.js';
import { decideBursts } from './deskBursts.js';
import { applyCatchUp, settleCatchUp } from './deskCatchUp.js';
import { apply } from './deskIncidents.js';
import { incidentId } from './deskRecord.js';
import { applyCurrent, settleThread } from './deskRightNow.js';

export interface IntakeResult {
  /** Events of this batch taken now (not seen before). */
  taken: number;
  /** Events skipped as seen before. */
  repeated: number;
  /** Whether something opened or closed (what the Home lists changed). */
  openChanged: boolean;
}

function byTime(events: readonly AlertEvent[]): AlertEvent[] {
  return events
    .map((event, index) => ({ event, index, at: Date.parse(event.at) }))
    .sort((a, b) => (a.at || 0) - (b.at || 0) || a.index - b.index)
    .map(({ event }) => event);
}

export class DeskIntake {
  readonly #batch: DeskBatch;

  constructor(redis: RedisClient, keys: RedisKeys, schedule: Schedule, channelId: string, now: number) {
    this.#batch = new DeskBatch(redis, keys, schedule, channelId, now);
  }

  /** Takes the events into the channel (an intake object serves one batch, once). */
  async take(events: readonly AlertEvent[]): Promise<IntakeResult> {
    const batch = this.#batch;
    const { redis, keys, channelId } = batch;
    const mine = events.filter((event) => event.channels.includes(channelId));
    const unique = [...new Map(mine.map((event) => [event.key, event])).values()];
    const seen =
      unique.length === 0
        ? []
        : await redis.mget(...unique.map((event) => keys.alertSeen(channelId, event.key)));
    const fresh = byTime(unique.filter((_, i) => seen[i] === null));
    if (fresh.length === 0) return { taken: 0, repeated: unique.length, openChanged: false };
    await batch.readLatest(fresh);
    const catchUps = fresh.filter((event) => event.catchUp);
    const currents = fresh.filter((event) => event.current);
    batch.catchUpId = incidentId(channelId, 'catch-up', ...catchUps.map((event) => event.key).sort());
    await batch.readMutes(fresh);
    await decideBursts(
      batch,
      fresh.filter((event) => !event.catchUp && !event.current),
    );
    for (const event of fresh) {
      if (event.catchUp) await applyCatchUp(batch, event);
      else if (!event.current) await apply(batch, event);
    }
    // After the rest: an incident the channel already has open (an older subscription told it) stays as it is.
    for (const event of currents) await applyCurrent(batch, event, currents);
    settleCatchUp(batch, catchUps);
    if (batch.currentId) await settleThread(batch, batch.currentId);
    for (const group of batch.noticeGroups.values())
      batch.reply(group.id, 'lines', renderCatchUpReply(group.lines));
    await batch.write(fresh);
    const openChanged = batch.opened.size > 0 || batch.closed.size > 0;
    return { taken: fresh.length, repeated: unique.length - fresh.length, openChanged };
  }
}
