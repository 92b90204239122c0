// What people do to incidents (IncidentDesk: the Acknowledge and Mute buttons, `/fw alerts ack|mute`) and
// what the Home and `/fw alerts` read, over the desk's records in Redis. An acknowledgement is kept apart
// from the incident's record (the desk worker rewrites records; it never writes this), and a desk worker
// is asked to edit the message so it shows who and when.
import type { IncidentDesk, OpenIncident } from '../../alerts/model.js';
import type { RedisClient } from '../../redis/connection.js';
import type { RedisKeys } from '../../redis/keys.js';
import type { JobsCore } from '../core.js';
import { redeliver } from './desk.js';
import { INCIDENT_ID, messageKey, openIncident, readAck, readRecord, readRecords } from './deskRecord.js';

export class RedisIncidentDesk implements IncidentDesk {
  constructor(
    private readonly core: JobsCore,
    private readonly clock: () => number = Date.now,
  ) {}

  async acknowledge(incidentId: string, userId: string): Promise<OpenIncident | undefined> {
    const { redis, keys } = this.core;
    const record = await readRecord(redis, keys, incidentId);
    if (!record) return undefined;
    // The summary's message is the one that shows it for a summary's row.
    const shownId = record.groupId ?? record.id;
    const ack = JSON.stringify({ userId, at: new Date(this.clock()).toISOString() });
    // The first acknowledgement stands: a second click does not rewrite who took it.
    const set = await redis.set(keys.incidentAck(shownId), ack, 'PX', this.core.schedule.retentionMs, 'NX');
    if (set === 'OK') {
      await redis.hincrby(keys.deskDirty(record.channelId), shownId, 1);
      await redeliver(this.core, [record.channelId], `ack:${shownId}`);
    }
    const shown = shownId === record.id ? record : await readRecord(redis, keys, shownId);
    return openIncident(
      shown ?? record,
      await readAck(redis, keys, shownId),
      (await redis.get(keys.posted(messageKey(shownId)))) ?? undefined,
    );
  }

  async mute(mute: {
    channelId: string;
    profile: string;
    deviceUid: string;
    untilMs: number;
    userId: string;
  }): Promise<void> {
    const key = this.core.keys.alertMute(mute.channelId, mute.profile, mute.deviceUid);
    const forMs = mute.untilMs - this.clock();
    if (forMs <= 0) {
      await this.core.redis.del(key);
      return;
    }
    const value = JSON.stringify({ untilMs: mute.untilMs, userId: mute.userId });
    await this.core.redis.set(key, value, 'PX', Math.ceil(forMs));
  }

  /** The open incidents and summaries of these channels, the oldest first (a summary stands for its rows). */
  openIncidents(channelIds: readonly string[]): Promise<OpenIncident[]> {
    return readOpenIncidents(this.core.redis, this.core.keys, channelIds);
  }

  async find(channelIds: readonly string[], incidentId: string): Promise<OpenIncident | undefined> {
    const { redis, keys } = this.core;
    // Typed by a person: only what incidentId makes is looked up.
    if (!INCIDENT_ID.test(incidentId)) return undefined;
    const record = await readRecord(redis, keys, incidentId);
    if (!record || !channelIds.includes(record.channelId)) return undefined;
    if (!record.open && record.type !== 'notice') return undefined;
    const shownId = record.groupId ?? record.id;
    const [ack, ts] = await Promise.all([
      readAck(redis, keys, shownId),
      redis.get(keys.posted(messageKey(shownId))),
    ]);
    return openIncident(record, ack, ts ?? undefined);
  }

  /** The channels that have open incidents (for the Home: which to look through). */
  async channelsWithIncidents(): Promise<string[]> {
    return this.core.redis.smembers(this.core.keys.incidentChannels());
  }
}

/** The open incidents and summaries of these channels, the oldest first (what the Home reads too). */
export async function readOpenIncidents(
  redis: RedisClient,
  keys: RedisKeys,
  channelIds: readonly string[],
): Promise<OpenIncident[]> {
  const out: OpenIncident[] = [];
  for (const channelId of new Set(channelIds)) {
    const ids = await redis.zrange(keys.openIncidents(channelId), 0, -1);
    const records = await readRecords(redis, keys, ids);
    for (const record of records) {
      if (!record.open) continue;
      const [ack, ts] = await Promise.all([
        readAck(redis, keys, record.id),
        redis.get(keys.posted(messageKey(record.id))),
      ]);
      out.push(openIncident(record, ack, ts ?? undefined));
    }
  }
  return out.sort((a, b) => Date.parse(a.openedAt) - Date.parse(b.openedAt) || a.id.localeCompare(b.id));
}
