// Who is waiting for a followed thing, and how it ended. One tracking job polls; any number of threads
// subscribe to it. The two sides meet in Redis so no thread is forgotten whatever the interleaving:
// a subscriber is added before the outcome is read, an outcome is recorded before the subscribers are
// read, so either the finishing worker sees the new subscriber or the subscriber sees the outcome.
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { Outcome, TRACK_KINDS } from '../follow/index.js';
import { statusLine } from '../follow/words.js';
import { workspaceOf } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import { notificationJobId, type RedisKeys, subscriberKey, trackJobId } from '../redis/keys.js';
import { finalReply, outcomeButton } from './messages.js';
import { type NotifyJobData, parseStored, Subscriber } from './payloads.js';
import type { Schedule } from './schedule.js';

/** The notification key of one subscriber's message about one followed thing. */
export function subscriberNotificationKey(trackId: string, subscriber: Subscriber, what: string): string {
  return `${trackId}|${subscriberKey(subscriber.thread)}|${what}`;
}

export class Subscriptions {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly notifyQueue: Queue,
    private readonly schedule: Schedule,
    private readonly log: Logger,
    /** Told who asked for a followed thing once it has ended (their App Homes show its state). */
    private readonly onSettled?: (requesterIds: string[]) => void,
  ) {}

  /** Adds a thread; returns the outcome when the thing has already ended (the caller then tells it). */
  async subscribe(trackId: string, subscriber: Subscriber): Promise<Outcome | undefined> {
    const ttlMs = this.schedule.retentionMs;
    const subsKey = this.keys.subscribers(trackId);
    const results = await this.redis
      .multi()
      .hset(subsKey, subscriberKey(subscriber.thread), JSON.stringify(subscriber))
      .pexpire(subsKey, ttlMs)
      .get(this.keys.outcome(trackId))
      .exec();
    const raw = results?.[2]?.[1];
    return typeof raw === 'string' ? parseStored(Outcome, raw, this.keys.outcome(trackId)) : undefined;
  }

  async subscribers(trackId: string): Promise<Subscriber[]> {
    const raw = await this.redis.hgetall(this.keys.subscribers(trackId));
    const out: Subscriber[] = [];
    for (const [field, value] of Object.entries(raw)) {
      try {
        out.push(parseStored(Subscriber, value, `${this.keys.subscribers(trackId)}#${field}`));
      } catch (error) {
        this.log.error({ err: error, trackId, field }, 'skipping a malformed subscriber');
      }
    }
    return out;
  }

  /**
   * Who started the followed work about an SCC transaction, from its threads (every kind whose job is keyed
   * by the transaction's uid); undefined when no thread follows it. Approved when any thread's call was.
   */
  async startedBy(
    profile: string,
    transactionUid: string,
  ): Promise<{ requesters: string[]; approvedBy: string[] } | undefined> {
    const threads = (
      await Promise.all(
        TRACK_KINDS.map((kind) => this.subscribers(trackJobId(profile, kind, transactionUid))),
      )
    )
      .flat()
      .map((subscriber) => subscriber.thread);
    if (threads.length === 0) return undefined;
    return {
      requesters: [...new Set(threads.map((thread) => thread.requesterId))],
      approvedBy: [...new Set(threads.flatMap((thread) => thread.approvedBy ?? []))],
    };
  }

  async outcome(trackId: string): Promise<Outcome | undefined> {
    const raw = await this.redis.get(this.keys.outcome(trackId));
    return raw === null ? undefined : parseStored(Outcome, raw, this.keys.outcome(trackId));
  }

  /**
   * Records the outcome (the first one recorded wins: a step repeated after a crash may see something
   * else, e.g. a 404 once the transaction has expired) and queues the final reply of every subscriber.
   */
  async settle(trackId: string, outcome: Outcome): Promise<Outcome> {
    const key = this.keys.outcome(trackId);
    // Kept longer than the finished job, so a late subscriber always finds either the job or this.
    const ttlMs = this.schedule.retentionMs * 2;
    const results = await this.redis
      .multi()
      .set(key, JSON.stringify(outcome), 'PX', ttlMs, 'NX')
      .get(key)
      .exec();
    const raw = results?.[1]?.[1];
    const effective = typeof raw === 'string' ? parseStored(Outcome, raw, key) : outcome;
    const subscribers = await this.subscribers(trackId);
    await this.tell(trackId, effective, subscribers);
    this.onSettled?.([...new Set(subscribers.map((subscriber) => subscriber.thread.requesterId))]);
    return effective;
  }

  /** Queues the final reply of each subscriber; repeated calls add nothing (job ids and posted marks). */
  async tell(trackId: string, outcome: Outcome, subscribers: readonly Subscriber[]): Promise<void> {
    if (outcome.quiet) return;
    const jobs = subscribers.flatMap((subscriber) => {
      const key = subscriberNotificationKey(trackId, subscriber, 'final');
      const data: NotifyJobData = {
        key,
        channelId: subscriber.thread.channelId,
        threadTs: subscriber.thread.threadTs,
        text: finalReply(subscriber, outcome),
        eventType: 'fwbot_outcome',
        ...workspaceOf(subscriber.thread),
        ...(outcome.progressText
          ? {
              settleStatus: {
                key: subscriberNotificationKey(trackId, subscriber, 'status'),
                text: statusLine(subscriber.label, outcome.progressText),
              },
            }
          : {}),
      };
      const offered = outcome.button ? outcomeButton(subscriber, outcome.button) : undefined;
      const button: NotifyJobData[] = offered
        ? [
            {
              key: subscriberNotificationKey(trackId, subscriber, 'button'),
              channelId: subscriber.thread.channelId,
              threadTs: subscriber.thread.threadTs,
              ...offered,
              eventType: 'fwbot_outcome',
              ...workspaceOf(subscriber.thread),
            },
          ]
        : [];
      return [data, ...button].map((job) => notifyJob(job, this.schedule));
    });
    if (jobs.length > 0) await this.notifyQueue.addBulk(jobs);
  }
}

/** A notification job: its id comes from its key, so queueing it twice keeps one job. */
export function notifyJob(data: NotifyJobData, schedule: Schedule) {
  return {
    name: data.eventType,
    data,
    opts: {
      jobId: notificationJobId(data.key),
      attempts: schedule.slack.attempts,
      backoff: { type: 'exponential', delay: schedule.slack.backoffMs },
      removeOnComplete: { age: Math.ceil(schedule.retentionMs / 1000) },
      removeOnFail: { age: Math.ceil(schedule.retentionMs / 1000) },
    },
  };
}
