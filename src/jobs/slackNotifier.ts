// Posts into Slack exactly once, and edits progress messages at Slack's pace.
//
// Exactly once across crashes: before a post, a "posting" mark is written; after Slack accepts it, a
// "posted" mark with the message ts. Each message carries metadata (event_type, event_payload.key: a hash
// of the notification key). A worker that finds "posting" without "posted" cannot know whether Slack
// accepted the earlier attempt (the process may have died between Slack's answer and Redis), so it reads
// the thread (or channel) back with `include_all_metadata` and posts only when no message carries the
// key. Slack's 429 and definite refusals prove nothing was posted, so they clear the mark.
// `showMessage` builds on it for messages that are edited as what they tell evolves (the incident desk):
// posted once, then edited only when what they show changes.
// A message is text or a View, handed to the chat port (src/model/message.ts): Slack's side makes Block
// Kit of it (src/slack/chat.ts), the console shows it. Each message goes out with the chat of the
// workspace it names (teamId / enterpriseId; none: the home workspace), so in OAuth mode a customer's
// workspace hears fwbot with its own installation's token.

import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Chat, ChatMessage, MessagesRead } from '../model/message.js';
import type { View } from '../model/view.js';
import { type WorkspaceRef, workspaceOf } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { replicated } from '../redis/replication.js';
import { runScript } from '../redis/scripts.js';
import { classifySlackError, SlackRefused } from '../slackApi/errors.js';
import type { EventType } from './payloads.js';
import type { Schedule } from './schedule.js';
import { SlackPace } from './slackPace.js';

/** Come back after `delayMs`: the job reschedules itself instead of sleeping (a 429, the pace, a busy key). */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
  }
}

export interface PostRequest {
  key: string;
  channelId: string;
  threadTs?: string | undefined;
  /** The message's text (fwbot's mrkdwn); beside a view, the view's summary. */
  text: string;
  /** The message as a View (a queued call's outcome, an incident): the chat renders it. */
  view?: View | undefined;
  /** Block Kit an older fwbot kept in Redis (src/jobs/legacyBlocks.ts), posted as it is: one release. */
  legacyBlocks?: readonly Record<string, unknown>[] | undefined;
  eventType: EventType;
  /** The workspace the channel is in (absent: the home workspace): its client posts. */
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/** The chat of one workspace: one for all (single-workspace mode), or one per workspace. */
export type ChatOfWorkspace = Chat | ((team: WorkspaceRef) => Chat);

/** Pages read back at most: a thread rarely holds more, a busy channel's recent past does. */
const READ_BACK_PAGES = 10;

/** What a message shows, hashed: an edit to the same text and view is skipped. */
function contentDigest(request: Pick<PostRequest, 'text' | 'view' | 'legacyBlocks'>): string {
  return createHash('sha256')
    .update(JSON.stringify([request.text, request.view ?? request.legacyBlocks ?? null]))
    .digest('hex')
    .slice(0, 40);
}

/** The request as the chat takes it, with the metadata that finds it again by its key. */
function chatMessage(request: PostRequest): ChatMessage {
  return {
    text: request.text,
    ...(request.view ? { view: request.view } : {}),
    ...(request.legacyBlocks ? { legacyBlocks: request.legacyBlocks } : {}),
    metadata: { event_type: request.eventType, event_payload: { key: metadataKey(request.key) } },
  };
}

/** The posted mark of a message withdrawn before it was posted: it never will be. */
const WITHDRAWN = 'withdrawn';

/** The key as it appears in Slack: hashed, because metadata is readable by anyone in the channel. */
export function metadataKey(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 40);
}

export class SlackNotifier {
  private readonly pace: SlackPace;
  private readonly chatOf: (team: WorkspaceRef) => Chat;

  constructor(
    chat: ChatOfWorkspace,
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly schedule: Schedule,
    private readonly log: Logger,
  ) {
    this.pace = new SlackPace(redis, keys);
    this.chatOf = typeof chat === 'function' ? chat : () => chat;
  }

  /** The ts of a notification already accepted by Slack, if any. */
  async postedTs(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.posted(key))) ?? undefined;
  }

  /**
   * Posts the message unless Slack already holds it. Throws RetryLater (429, pace, busy key),
   * SlackRefused (permanent), or the transient error itself.
   */
  async postOnce(request: PostRequest): Promise<{ ts: string; posted: boolean }> {
    const done = await this.postedTs(request.key);
    if (done) return { ts: done, posted: false };
    const lockKey = this.keys.notifyLock(request.key);
    const token = randomUUID();
    const locked = await this.redis.set(lockKey, token, 'PX', this.schedule.slack.lockMs, 'NX');
    if (locked !== 'OK')
      throw new RetryLater(this.schedule.slack.lockMs, `notification ${request.key} is busy`);
    try {
      return await this.postLocked(request);
    } finally {
      await runScript(this.redis, 'lock-release', [lockKey], [token]);
    }
  }

  /**
   * Uploads a file into a thread at most once. Slack's uploads carry no metadata to read back, so unlike a
   * post an interrupted upload cannot be checked: the "posting" mark is never cleared, and a second
   * attempt after one that may have reached Slack answers `unsure` for the caller to say it another way.
   */
  async uploadOnce(
    key: string,
    file: {
      channelId: string;
      threadTs: string;
      filename: string;
      title: string;
      content: string;
      comment: string;
      teamId?: string | undefined;
      enterpriseId?: string | undefined;
    },
  ): Promise<'uploaded' | 'already' | 'unsure' | 'failed'> {
    if (await this.postedTs(key)) return 'already';
    const ttlMs = this.schedule.retentionMs;
    const taken = await this.redis.set(this.keys.posting(key), String(Date.now()), 'PX', ttlMs, 'NX');
    if (taken !== 'OK') return 'unsure';
    await replicated(this.redis, this.keys.posting(key));
    try {
      await this.chatOf(workspaceOf(file)).upload({
        channel: file.channelId,
        threadTs: file.threadTs,
        filename: file.filename,
        title: file.title,
        content: file.content,
        comment: file.comment,
      });
    } catch (error) {
      this.log.warn({ err: error, key }, 'file not uploaded');
      return 'failed';
    }
    await this.redis.set(this.keys.posted(key), 'file', 'PX', ttlMs);
    return 'uploaded';
  }

  private async postLocked(request: PostRequest): Promise<{ ts: string; posted: boolean }> {
    const postedKey = this.keys.posted(request.key);
    const postingKey = this.keys.posting(request.key);
    const again = await this.postedTs(request.key);
    if (again) return { ts: again, posted: false };
    const ttlMs = this.schedule.retentionMs;
    if ((await this.redis.exists(postingKey)) === 1) {
      const found = await this.findPosted(request);
      if (found) {
        await this.redis.set(postedKey, found, 'PX', ttlMs);
        this.log.info(
          { key: request.key, ts: found },
          'notification found in Slack after an interrupted post',
        );
        return { ts: found, posted: false };
      }
    }
    const wait = await this.pace.reserve(
      'chat.postMessage',
      request.channelId,
      this.schedule.slack.postIntervalMs,
    );
    if (wait > 0) throw new RetryLater(wait, `pacing posts to ${request.channelId}`);
    await this.redis.set(postingKey, String(Date.now()), 'PX', ttlMs);
    // On a replica too before the post: a promoted replica without it would post again rather than look.
    await replicated(this.redis, postingKey);
    let ts: string;
    try {
      ts = (
        await this.chatOf(workspaceOf(request)).post(
          request.channelId,
          chatMessage(request),
          request.threadTs,
        )
      ).ts;
    } catch (error) {
      throw await this.failed(error, 'chat.postMessage', request.channelId, postingKey);
    }
    await this.redis.set(postedKey, ts, 'PX', ttlMs);
    await replicated(this.redis, postedKey);
    return { ts, posted: true };
  }

  /** Turns a Slack failure into what the job should do, clearing the posting mark when nothing was posted. */
  private async failed(
    error: unknown,
    method: string,
    channelId: string,
    postingKey?: string,
  ): Promise<Error> {
    const failure = classifySlackError(error);
    if (postingKey && !failure.mayHaveApplied) await this.redis.del(postingKey);
    if (failure.kind === 'rateLimited') {
      const delayMs = failure.retryAfterMs ?? this.schedule.slack.backoffMs;
      // Every job bound for this channel waits too, not only this one.
      await this.pace.holdOff(method, channelId, delayMs);
      return new RetryLater(delayMs, `Slack rate-limited ${method} (Retry-After ${delayMs} ms)`);
    }
    if (failure.kind === 'refused') return new SlackRefused(failure.reason, method);
    return error instanceof Error ? error : new Error(failure.reason);
  }

  /** The ts of a message in the thread (or channel) that carries the key, if Slack holds one. */
  private async findPosted(request: PostRequest): Promise<string | undefined> {
    const wanted = metadataKey(request.key);
    let cursor: string | undefined;
    for (let page = 0; page < READ_BACK_PAGES; page += 1) {
      let read: MessagesRead;
      try {
        read = await this.chatOf(workspaceOf(request)).read({
          channel: request.channelId,
          threadTs: request.threadTs,
          cursor,
          limit: 200,
        });
      } catch (error) {
        const failure = classifySlackError(error);
        if (failure.kind === 'refused') {
          // Without the history scopes the thread cannot be checked; a rare duplicate beats a lost reply.
          this.log.warn(
            { key: request.key, slackError: failure.reason },
            'cannot read the thread back to check an interrupted post (channels:history / groups:history?)',
          );
          return undefined;
        }
        throw await this.failed(
          error,
          request.threadTs ? 'conversations.replies' : 'conversations.history',
          request.channelId,
        );
      }
      for (const message of read.messages) {
        if (message.metadata?.event_payload?.key === wanted && message.ts) return message.ts;
      }
      cursor = read.nextCursor;
      if (!cursor) return undefined;
    }
    return undefined;
  }

  /**
   * Makes the message kept under `request.key` show `request` (its text or view): posts it exactly once when
   * Slack has none (postOnce), else edits it, unless it already shows exactly this. Unlike progress edits,
   * these must land: Slack's pace and a 429 throw RetryLater, so a job comes back and shows the state of
   * then. A message a person deleted stays deleted (`gone`). With `threadTs` it is a thread reply, posted once.
   */
  async showMessage(
    request: PostRequest,
  ): Promise<{ ts: string; shown: 'posted' | 'edited' | 'unchanged' | 'gone' }> {
    const shownKey = this.keys.shownDigest(request.key);
    const digest = contentDigest(request);
    let ts = await this.postedTs(request.key);
    if (!ts) {
      const result = await this.postOnce(request);
      ts = result.ts;
      if (result.posted) {
        await this.redis.set(shownKey, digest, 'PX', this.schedule.retentionMs);
        return { ts, shown: 'posted' };
      }
      // Found in Slack after an interrupted post: what it shows is unknown, so it is edited below.
    }
    if ((await this.redis.get(shownKey)) === digest) return { ts, shown: 'unchanged' };
    const wait = await this.pace.reserve(
      'chat.update',
      request.channelId,
      this.schedule.slack.updateIntervalMs,
    );
    if (wait > 0) throw new RetryLater(wait, `pacing edits in ${request.channelId}`);
    try {
      // Metadata sent again: the message must stay findable by its key whatever Slack does on edit.
      await this.chatOf(workspaceOf(request)).edit(request.channelId, ts, chatMessage(request));
    } catch (error) {
      const reason = await this.failed(error, 'chat.update', request.channelId);
      if (!(reason instanceof SlackRefused && reason.slackError === 'message_not_found')) throw reason;
      await this.redis.set(shownKey, digest, 'PX', this.schedule.retentionMs);
      return { ts, shown: 'gone' };
    }
    await this.redis.set(shownKey, digest, 'PX', this.schedule.retentionMs);
    return { ts, shown: 'edited' };
  }

  /**
   * Edits the message posted under `key` to show `replacement` (an offer whose button no longer applies),
   * under the key's own lock, so it cannot cross the offer's post: posted, it is edited (it must land:
   * RetryLater on Slack's pace); not posted, its key is marked so it never will be; a post under way or
   * interrupted is waited for (RetryLater) and then edited.
   */
  async withdraw(key: string, replacement: PostRequest): Promise<'edited' | 'never-posted' | 'gone'> {
    const lockKey = this.keys.notifyLock(key);
    const token = randomUUID();
    const locked = await this.redis.set(lockKey, token, 'PX', this.schedule.slack.lockMs, 'NX');
    if (locked !== 'OK') throw new RetryLater(this.schedule.slack.lockMs, `notification ${key} is busy`);
    try {
      const ts = await this.postedTs(key);
      if (ts === WITHDRAWN) return 'never-posted';
      if (!ts) {
        if ((await this.redis.exists(this.keys.posting(key))) === 1)
          throw new RetryLater(this.schedule.slack.lockMs, `notification ${key} may be in Slack already`);
        await this.redis.set(this.keys.posted(key), WITHDRAWN, 'PX', this.schedule.retentionMs);
        await replicated(this.redis, this.keys.posted(key));
        return 'never-posted';
      }
      // Under the lock nothing else posts it: the edit is showMessage's (paced; a deleted message stays so).
      const { shown } = await this.showMessage({ ...replacement, key });
      return shown === 'gone' ? 'gone' : 'edited';
    } finally {
      await runScript(this.redis, 'lock-release', [lockKey], [token]);
    }
  }

  /** Posts a progress message once and remembers the text it shows. */
  async postStatus(request: PostRequest): Promise<void> {
    const { posted } = await this.postOnce(request);
    if (posted)
      await this.redis.set(this.keys.statusText(request.key), request.text, 'PX', this.schedule.retentionMs);
  }

  /**
   * Edits a progress message. `progress` edits are best effort (skipped when Slack's pace or a 429 says
   * not now: the next step shows a newer state anyway); `settle` edits must land, so they throw RetryLater.
   * `team`: the workspace the channel is in, as its post named it (absent: the home workspace).
   */
  async editStatus(
    key: string,
    channelId: string,
    text: string,
    mode: 'progress' | 'settle',
    team: WorkspaceRef = {},
  ): Promise<void> {
    const ts = await this.postedTs(key);
    if (!ts) return;
    const shownKey = this.keys.statusText(key);
    if ((await this.redis.get(shownKey)) === text) return;
    const wait = await this.pace.reserve('chat.update', channelId, this.schedule.slack.updateIntervalMs);
    if (wait > 0) {
      if (mode === 'progress') return;
      throw new RetryLater(wait, `pacing edits in ${channelId}`);
    }
    try {
      // Metadata sent again: the message must stay findable by its key whatever Slack does on edit.
      await this.chatOf(team).edit(channelId, ts, {
        text,
        metadata: { event_type: 'fwbot_status', event_payload: { key: metadataKey(key) } },
      });
    } catch (error) {
      const reason = await this.failed(error, 'chat.update', channelId);
      if (mode === 'progress') {
        // A progress edit that fails changes nothing that matters: the final reply still comes.
        this.log.warn({ key, err: reason }, 'progress edit skipped');
        return;
      }
      // A person deleted the progress message: there is nothing left to settle.
      if (reason instanceof SlackRefused && reason.slackError === 'message_not_found') return;
      throw reason;
    }
    await this.redis.set(shownKey, text, 'PX', this.schedule.retentionMs);
  }
}
