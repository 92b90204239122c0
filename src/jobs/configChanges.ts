// What a deploy changed on its devices, told in its threads (issue 28). When followed work whose kind
// kept running configurations before it began (FollowKind.configBefore: a deploy) ends, each device's
// running configuration is read and kept again (an after-deploy snapshot), and the unified diff of
// before and after is uploaded into every thread that follows it as one file. When the upload fails
// (files:write missing, Slack down), the diff is posted as a code block instead, cut to what a message
// holds, with the command that shows all of it.
//
// At most once: a mark per followed thing is taken before anything is read, so a step repeated after a
// crash reports nothing a second time; the upload itself is at most once per thread (uploadOnce), and
// the code block that replaces it is posted exactly once like every notification.
import type { Logger } from 'pino';
import type { ConfigSnapshots } from '../catalogue/operation.js';
import type { SccClients } from '../dispatch/ports.js';
import { classifySccError } from '../follow/failures.js';
import { kindOf, type TrackJob } from '../follow/index.js';
import type { KeptSnapshot } from '../follow/kind.js';
import { maskConfigSecrets } from '../model/configSecrets.js';
import { unifiedConfigDiff } from '../model/unifiedDiff.js';
import { workspaceOf } from '../model/workspace.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { snapshotTime } from '../render/configHistory.js';
import { counted } from '../render/format.js';
import { escapeAll } from '../render/mrkdwn.js';
import type { NotifyJobData, Subscriber } from './payloads.js';
import type { Schedule } from './schedule.js';
import type { SlackNotifier } from './slackNotifier.js';
import { subscriberNotificationKey } from './subscriptions.js';

/** What of the diff a message shows when the file could not be uploaded. */
const FALLBACK_CHARS = 2_800;

export interface ConfigChangesDeps {
  snapshots: ConfigSnapshots;
  notifier: SlackNotifier;
  notify: (messages: readonly NotifyJobData[]) => Promise<void>;
  clients: SccClients;
  redis: RedisClient;
  keys: RedisKeys;
  schedule: Schedule;
  log: Logger;
}

/** One device's part of the report. */
interface DeviceChange {
  device: string;
  /** A sentence about it: what changed, or why nothing can be said. */
  line: string;
  /** The unified diff when something changed. */
  diff?: string;
  /** The command that shows the same diff again. */
  again?: string;
}

async function compareDevice(
  deps: ConfigChangesDeps,
  job: TrackJob,
  kept: KeptSnapshot,
): Promise<DeviceChange> {
  const { profile, request } = job;
  const name = escapeAll(kept.device);
  const before = await deps.snapshots.get(profile, kept.deviceUid, kept.snapshotId);
  if (!before)
    return {
      device: kept.device,
      line: `${name}: snapshot ${kept.snapshotId} is no longer kept; nothing to compare.`,
    };
  let text: string;
  try {
    const { data } = await deps.clients
      .get(profile)
      .call('getAsaConfiguration', { path: { deviceUid: kept.deviceUid } });
    text = data.configOnDevice ?? '';
  } catch (error) {
    const failure = classifySccError(error);
    return {
      device: kept.device,
      line: `${name}: the running configuration could not be read after the deploy (${escapeAll(failure.kind === 'transient' ? failure.reason : failure.sccSays)}).`,
    };
  }
  const afterId = await deps.snapshots.keep(profile, {
    deviceUid: kept.deviceUid,
    device: kept.device,
    at: Date.now(),
    phase: 'after-deploy',
    requestId: before.requestId,
    approvalId: before.approvalId,
    transactionUid: 'transactionUid' in request ? request.transactionUid : undefined,
    actor: before.actor,
    text,
  });
  const changes = unifiedConfigDiff(before.text, text, {
    before: `${kept.device} snapshot ${before.id} (before the deploy, ${snapshotTime(before.at)})`,
    after: `${kept.device} snapshot ${afterId} (after the deploy)`,
  });
  if (!changes)
    return {
      device: kept.device,
      line: `${name}: the running configuration is the same as before (snapshots ${before.id} and ${afterId}).`,
    };
  const again = `/fw config diff ${kept.device} ${before.id} ${afterId}`;
  return {
    device: kept.device,
    line: `${name}: ${counted(changes.counts.removed, 'line')} removed, ${changes.counts.added} added (snapshots ${before.id} → ${afterId}).`,
    // Masked when reported, not when kept: a snapshot holds what the device ran (issue 34).
    diff: maskConfigSecrets(changes.text),
    again,
  };
}

/** A code block that Slack shows as typed: no markup, no mentions, and no fence closed from inside. */
function codeBlock(text: string): string {
  return `\`\`\`${escapeAll(text.replace(/```/g, 'ˋˋˋ'))}\`\`\``;
}

function fallbackText(label: string, changes: readonly DeviceChange[]): string {
  const diffs = changes.flatMap((change) => (change.diff ? [change.diff] : [])).join('\n');
  const cut = diffs.length > FALLBACK_CHARS;
  const shown = cut ? `${diffs.slice(0, diffs.lastIndexOf('\n', FALLBACK_CHARS) + 1)}…\n` : diffs;
  const again = changes.flatMap((change) => (change.again ? [`\`${escapeAll(change.again)}\``] : []));
  return [
    `*${escapeAll(label)}*: what changed in the running configuration (the file could not be uploaded):`,
    ...changes.map((change) => `• ${change.line}`),
    codeBlock(shown),
    ...(cut ? [`Cut to fit a message; all of it: ${again.join(', ')}.`] : []),
  ].join('\n');
}

/** Reports what the followed work changed on its devices, when its kind kept configurations before it. */
export async function reportConfigChanges(
  deps: ConfigChangesDeps,
  trackId: string,
  job: TrackJob,
  subscribers: readonly Subscriber[],
): Promise<void> {
  const kept = kindOf(job.request.kind).configBefore?.(job.request as never) ?? [];
  if (kept.length === 0 || subscribers.length === 0) return;
  const mark = deps.keys.configChangesReported(trackId);
  const taken = await deps.redis.set(mark, String(Date.now()), 'PX', deps.schedule.retentionMs * 2, 'NX');
  if (taken !== 'OK') return;
  const changes: DeviceChange[] = [];
  for (const snapshot of kept) changes.push(await compareDevice(deps, job, snapshot));
  const diffs = changes.flatMap((change) => (change.diff ? [change.diff] : []));
  for (const subscriber of subscribers) {
    const { channelId, threadTs } = subscriber.thread;
    const team = workspaceOf(subscriber.thread);
    const key = (what: string) => subscriberNotificationKey(trackId, subscriber, what);
    const summary = changes.map((change) => `• ${change.line}`).join('\n');
    if (diffs.length === 0) {
      await deps.notify([
        {
          key: key('config-diff'),
          channelId,
          threadTs,
          text: `*${escapeAll(subscriber.label)}*: the running configuration after the deploy:\n${summary}`,
          eventType: 'fwbot_note',
          ...team,
        },
      ]);
      continue;
    }
    const uploaded = await deps.notifier.uploadOnce(key('config-diff-file'), {
      channelId,
      threadTs,
      ...team,
      filename: `${kept.length === 1 ? (kept[0]?.device ?? 'devices') : 'devices'}-deploy.diff`,
      title: `Running configuration before and after: ${subscriber.label}`,
      content: diffs.join('\n'),
      comment: `${escapeAll(subscriber.label)}: what changed in the running configuration\n${changes.map((change) => `• ${change.line}`).join('\n')}`,
    });
    if (uploaded === 'uploaded' || uploaded === 'already') continue;
    await deps.notify([
      {
        key: key('config-diff'),
        channelId,
        threadTs,
        text: fallbackText(subscriber.label, changes),
        eventType: 'fwbot_note',
        ...team,
      },
    ]);
  }
}
