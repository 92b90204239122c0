// Brings one channel's desk messages in line with their records: each incident or summary marked to be
// shown again is posted once (SlackNotifier.postOnce: "posting"/"posted" marks and metadata read-back)
// or edited (showMessage), then the waiting thread replies are posted once under their parents. What is
// rendered is the state of now, so ten changes to one incident while Slack's pace holds it back are one
// edit. Slack's pace and 429s throw RetryLater out of here: the job comes back and carries on from what
// is still marked. The caller holds the channel's desk lock. Everything goes out in the channel's
// workspace (the one its subscriptions were made in), with that workspace's chat, as Views: the chat
// renders them (src/slack/chat.ts on Slack).
import type { Logger } from 'pino';
import { renderIncident, renderSummary, renderSummaryPage, summaryPageCount } from '../../alerts/render.js';
import type { View } from '../../model/view.js';
import { type WorkspaceRef, workspaceOf } from '../../model/workspace.js';
import type { RedisClient } from '../../redis/connection.js';
import type { RedisKeys } from '../../redis/keys.js';
import { runScript } from '../../redis/scripts.js';
import { SlackRefused } from '../../slackApi/errors.js';
import { StoredDeskReply, shownMessage } from '../legacyBlocks.js';
import { parseStored, textBeside } from '../payloads.js';
import type { SlackNotifier } from '../slackNotifier.js';
import {
  type DeskRecord,
  incidentMessage,
  messageKey,
  readAck,
  readRecords,
  summaryMessage,
} from './deskRecord.js';

export interface DeskDeliveryDeps {
  redis: RedisClient;
  keys: RedisKeys;
  notifier: SlackNotifier;
  log: Logger;
  /** The channel's workspace (absent: the home workspace). */
  workspace?: WorkspaceRef;
}

/**
 * A desk record's message as it should read now, and for a summary with more rows than one message holds,
 * the pages of its table that go in its thread (rendered from the same read of its members).
 */
export async function renderRecord(
  deps: Pick<DeskDeliveryDeps, 'redis' | 'keys'>,
  record: DeskRecord,
): Promise<{ view: View; pages: View[] }> {
  const ack = await readAck(deps.redis, deps.keys, record.id);
  if (
    record.type === 'burst' ||
    record.type === 'catch-up' ||
    record.type === 'notices' ||
    record.type === 'current'
  ) {
    const members = await readRecords(deps.redis, deps.keys, record.members ?? []);
    const message = summaryMessage(record, members, ack);
    const pages: View[] = [];
    for (let page = 2; page <= summaryPageCount(message); page += 1)
      pages.push(renderSummaryPage(message, page));
    return { view: renderSummary(message), pages };
  }
  return { view: renderIncident(incidentMessage(record, ack)), pages: [] };
}

/** Shows every marked message of the channel, then posts its waiting thread replies. */
export async function deliverChannel(deps: DeskDeliveryDeps, channelId: string): Promise<void> {
  const { redis, keys, notifier, log } = deps;
  const dirtyKey = keys.deskDirty(channelId);
  const marks = await readMarks(redis, keys, channelId);
  const clear = (ids: readonly string[]) => clearMarks(redis, dirtyKey, marks, ids);
  const ids = [...marks.keys()];
  const records = await readRecords(redis, keys, ids);
  const known = new Set(records.map((record) => record.id));
  const vanished = ids.filter((id) => !known.has(id));
  if (vanished.length > 0) await clear(vanished);
  // Oldest first: a burst's summary and the incidents before it appear in the order they began. Messages
  // in a summary's thread come after the summary, which must be posted for them to have a thread.
  records.sort(
    (a, b) =>
      Number(a.threadOf !== undefined) - Number(b.threadOf !== undefined) ||
      Date.parse(a.openedAt) - Date.parse(b.openedAt) ||
      a.id.localeCompare(b.id),
  );
  for (const record of records) {
    // A summary's row has no message of its own: its summary was marked with it.
    if (!record.groupId) {
      const { view, pages } = await renderRecord(deps, record);
      // Its summary refused (not in the channel…): it is said at the channel's top rather than not at all.
      const threadTs = record.threadOf ? await notifier.postedTs(messageKey(record.threadOf)) : undefined;
      try {
        const { ts } = await notifier.showMessage({
          key: messageKey(record.id),
          channelId,
          ...(threadTs === undefined ? {} : { threadTs }),
          text: textBeside(view),
          view,
          eventType: 'fwbot_alert',
          ...workspaceOf(deps.workspace ?? {}),
        });
        await showSummaryPages(notifier, channelId, record.id, pages, ts, deps.workspace);
      } catch (error) {
        if (!(error instanceof SlackRefused)) throw error;
        // Not in the channel, archived, blocks refused: trying again changes nothing; the log says it.
        log.error(
          { channelId, incidentId: record.id, slackError: error.slackError },
          'incident message refused',
        );
      }
    }
    // Only the version read above: a mark made while this message was shown (an acknowledgement between
    // its render and here) stays, and the delivery that mark asked for shows it.
    await clear([record.id]);
  }
  await postReplies(deps, channelId);
}

/** The channel's marks, id → version (a release before versions' set taken in on the way). */
async function readMarks(
  redis: RedisClient,
  keys: RedisKeys,
  channelId: string,
): Promise<Map<string, string>> {
  const flat = (await runScript(
    redis,
    'desk-dirty-read',
    [keys.deskDirty(channelId), keys.legacyDeskDirty(channelId)],
    [],
  )) as string[];
  const marks = new Map<string, string>();
  for (let index = 0; index + 1 < flat.length; index += 2)
    marks.set(flat[index] ?? '', flat[index + 1] ?? '');
  return marks;
}

async function clearMarks(
  redis: RedisClient,
  dirtyKey: string,
  marks: ReadonlyMap<string, string>,
  ids: readonly string[],
): Promise<void> {
  const args = ids.flatMap((id) => [id, marks.get(id) ?? '']);
  if (args.length > 0) await runScript(redis, 'desk-dirty-clear', [dirtyKey], args);
}

/** A summary's pages in its thread, each posted once and edited only when its rows changed (showMessage). */
async function showSummaryPages(
  notifier: SlackNotifier,
  channelId: string,
  recordId: string,
  pages: readonly View[],
  threadTs: string,
  workspace: WorkspaceRef = {},
): Promise<void> {
  for (const [index, page] of pages.entries()) {
    await notifier.showMessage({
      key: `${messageKey(recordId)}:page:${index + 2}`,
      channelId,
      threadTs,
      text: textBeside(page),
      view: page,
      eventType: 'fwbot_alert',
      ...workspaceOf(workspace),
    });
  }
}

async function postReplies(deps: DeskDeliveryDeps, channelId: string): Promise<void> {
  const { redis, keys, notifier, log } = deps;
  const listKey = keys.deskReplies(channelId);
  for (;;) {
    const raw = await redis.lindex(listKey, 0);
    if (raw === null) return;
    const reply = parseStored(StoredDeskReply, raw, listKey);
    const parentTs = await notifier.postedTs(messageKey(reply.parentId));
    if (parentTs) {
      try {
        await notifier.postOnce({
          key: reply.key,
          channelId,
          threadTs: parentTs,
          ...shownMessage(reply),
          eventType: 'fwbot_alert',
          ...workspaceOf(deps.workspace ?? {}),
        });
      } catch (error) {
        if (!(error instanceof SlackRefused)) throw error;
        log.error(
          { channelId, incidentId: reply.parentId, slackError: error.slackError },
          'thread reply refused',
        );
      }
    } else {
      // Its parent was refused or is gone: a reply without a thread would be noise at the channel's top.
      log.warn(
        { channelId, incidentId: reply.parentId },
        'thread reply dropped: its message was never posted',
      );
    }
    // Only this worker (the lock's holder) takes from the list: the first is still the one just handled.
    await redis.lpop(listKey);
  }
}
