// Every name fwbot gives a thing in Redis, in one module (as BullMQ's QueueKeys is for its queues): the
// queues, and every key fwbot keeps beside them (approvals, the audit trail, subscribers, outcomes,
// notification marks, watches, alerts, holds, timed work, the Home, Slack's installations, first-sight
// marks). Everything lives under one prefix so several deployments (or tests) share a server without seeing
// each other. No other file builds a key (test/architecture holds it): code asks RedisKeys for one.
//
// The names are what earlier releases wrote, and must stay so: an upgrade reads the keys the previous
// release left (test/redis/keys.test.ts keeps a table of every family's name; test/redis/upgrade.test.ts
// reads state written under those names). A family that has to change its name needs a migration at start,
// not a new spelling here.
import { createHash } from 'node:crypto';

export const QUEUE = {
  track: 'fwbot-track',
  notify: 'fwbot-notify',
  watch: 'fwbot-watch',
  /** /fw commands as the fronts batch them (src/jobs/commandQueue.ts). */
  commandIntake: 'fwbot-commands-intake',
  /** One job per /fw command, its id the trigger id. */
  commands: 'fwbot-commands',
  /** Batches of AlertEvents for the incident desk (src/jobs/alerts/desk.ts), and its Slack deliveries. */
  alerts: 'fwbot-alerts',
  /** The alert scan's passes, one repeating job per profile (src/jobs/alerts/scan.ts). */
  alertScan: 'fwbot-alert-scan',
  /** Publishing the App Homes that changed (src/home/signals.ts). */
  home: 'fwbot-home',
} as const;

/** BullMQ refuses ':' in queue names and job ids; profile names come from configuration. */
function safe(text: string): string {
  return encodeURIComponent(text).replace(/[%:.]/g, '_');
}

/**
 * One BullMQ queue per declared operation queue and profile (src/jobs/operationQueue.ts): BullMQ's limiter
 * is per queue, SCC's limits are per account.
 */
export function operationQueueName(queue: string, profile: string): string {
  // A hash keeps two profiles whose safe spellings collide apart.
  const digest = createHash('sha256').update(profile).digest('hex').slice(0, 8);
  return `fwbot-q-${safe(queue)}-${safe(profile)}-${digest}`;
}

/**
 * The key prefix of a deployment unless told otherwise: the bot, `npm run worker` and the demo must agree
 * on it, or a worker would never see the bot's jobs.
 */
export const DEFAULT_PREFIX = 'fwbot';

/** Strips a trailing ':' so `test:x:` and `test:x` name the same prefix. */
export function normalisePrefix(prefix: string | undefined): string {
  const text = prefix ?? DEFAULT_PREFIX;
  return text.endsWith(':') ? text.slice(0, -1) : text;
}

/**
 * On a Redis Cluster every key fwbot and BullMQ use must sit in one hash slot: Lua scripts and MULTI touch
 * several keys (an approval and its indexes, a job and its queue's lists). A prefix in braces is a hash
 * tag, so `{fwbot}` puts them all in the slot of `fwbot`. Elsewhere the prefix is left as it is: changing it
 * would orphan an existing install's queued jobs and approvals.
 */
export function slotPrefix(prefix: string, cluster: boolean): string {
  if (!cluster || /\{[^}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}

/** The Redis keys of one deployment. */
export class RedisKeys {
  /** The deployment's prefix, without a trailing ':' (`fwbot`, `{fwbot}` on a cluster; `fwbot:` is read the same). */
  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = normalisePrefix(prefix);
  }

  /** The jobs' keys: `<prefix>:fw:…`. */
  private key(...parts: string[]): string {
    return this.at('fw', ...parts);
  }

  /** Every other family: `<prefix>:…`. */
  private at(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  // Approvals (src/approvals/): one hash per request, two indexes, marks of what was said once.

  /** Hash: one approval request, its state and the fields its transitions change (approvals/store.ts). */
  approval(id: string): string {
    return this.at('approval', id);
  }

  /** Sorted set of pending requests (score: when they expire). */
  approvalsPending(): string {
    return this.at('approvals', 'pending');
  }

  /** Sorted set of approved requests not yet finished (score: when a recovery pass may take them). */
  approvalsActive(): string {
    return this.at('approvals', 'active');
  }

  /** Set once a person was refused one way on one request: replayed clicks leave one audit record. */
  approvalRefused(id: string, userId: string, reason: string): string {
    return this.at('approval', id, 'refused', userId, reason.replace(/\s+/g, '_').slice(0, 60));
  }

  /** Set once a thing was said of a request (a hold, a postponement): said once, not each try. */
  approvalNoted(id: string, what: string): string {
    return this.at('approval', id, 'noted', encodeURIComponent(what));
  }

  /** List: the changes staged on one device by approved calls, and the deploy that took them (staging.ts). */
  staged(profile: string, deviceUid: string): string {
    return this.at('staged', profile, deviceUid);
  }

  /** Stream: the audit trail (approvals/audit.ts; read by observability/auditTail.ts). */
  audit(): string {
    return this.at('audit');
  }

  /** JSON: a grant to reveal one secret output once, to the person who asked (dispatch/reveals.ts). */
  reveal(id: string): string {
    return this.at('reveal', id);
  }

  // Slack (src/slack/, src/redis/dedupe.ts).

  /** Set once a Slack interaction (trigger or event id) was seen: Slack's retries are dropped. */
  slackSeen(id: string): string {
    return this.at('slack', 'seen', id);
  }

  /** JSON: one workspace's (team) or organisation's (enterprise) installation (slack/installations.ts). */
  slackInstallation(
    key: { kind: 'team'; teamId: string } | { kind: 'enterprise'; enterpriseId: string },
  ): string {
    return key.kind === 'team'
      ? this.at('slack', 'installation', 'team', key.teamId)
      : this.at('slack', 'installation', 'enterprise', key.enterpriseId);
  }

  /** Pub/sub channel: an installation was removed, told to every process (slack/installations.ts). */
  slackInstallationsRemoved(): string {
    return this.at('slack', 'installation', 'removed');
  }

  /** JSON: the options of one OAuth install in flight, under its state parameter (slack/installStates.ts). */
  slackOAuthState(state: string): string {
    return this.at('slack', 'oauth', 'state', state);
  }

  // The App Home (src/home/).

  /** Sorted set: people whose Home is open now (score: until when it counts as open). */
  homeOpen(): string {
    return this.at('home', 'open');
  }

  /** Sorted set: people whose Home is to be published (score: when). */
  homeDue(): string {
    return this.at('home', 'due');
  }

  /** Hash: person → when their Home was last published. */
  homeLast(): string {
    return this.at('home', 'last');
  }

  /** Hash: person → the workspace they last opened their Home in. */
  homeWorkspace(): string {
    return this.at('home', 'workspace');
  }

  /** What one person follows, as the Home lists it (home/followed.ts). */
  homeFollowed(userId: string): string {
    return this.at('home', 'followed', userId);
  }

  /** List: one person's recent commands, newest first (home/recentCommands.ts). */
  homeRecent(userId: string): string {
    return this.at('home', 'recent', userId);
  }

  /** JSON: one person's channels as Slack said a few minutes ago, per workspace (home/sources.ts). */
  homeChannels(userId: string, team: string | undefined): string {
    return team === undefined
      ? this.at('home', 'channels', userId)
      : this.at('home', 'channels', team, userId);
  }

  // One deployment's Redis (src/redis/topology.ts).

  /** Never written: its hash slot says which cluster primary holds fwbot's keys. */
  topology(): string {
    return this.at('topology');
  }

  // The alert scan (src/jobs/alerts/state.ts): `<prefix>:fw:alert-scan:…`.

  /** Hash: one stream's state (subject → JSON) of one profile, kind and scope. */
  alertScanState(profile: string, kind: string, scope: string): string {
    return this.key('alert-scan', 'state', safe(profile), kind, scope);
  }

  /** Hash: the metas of one profile's streams, with their versions. */
  alertScanMeta(profile: string): string {
    return this.key('alert-scan', 'meta', safe(profile));
  }

  /** Stream of a profile's events not yet handed to the desk. */
  alertScanOutbox(profile: string): string {
    return this.key('alert-scan', 'outbox', safe(profile));
  }

  /** Held while one process drains a profile's outbox. */
  alertScanDrain(profile: string): string {
    return this.key('alert-scan', 'drain', safe(profile));
  }

  /** The devices one scope's query found, per profile (hashed: queries are long). */
  alertScanDevices(profile: string, scope: string, query: string): string {
    return this.key('alert-scan', 'devices', digest(`${profile}\u0000${scope}\u0000${query}`));
  }

  /** Hash: profile → how its scan keeps up (JSON; the readiness check reads it). */
  alertScanHealth(): string {
    return this.key('alert-scan', 'health');
  }

  // The jobs (src/jobs/): `<prefix>:fw:…`.

  /** Hash: subscriber key → ThreadRef JSON, the threads to tell when a followed thing ends. */
  subscribers(trackId: string): string {
    return this.key('subs', trackId);
  }

  /** JSON Outcome of a followed thing, once it has ended. */
  outcome(trackId: string): string {
    return this.key('outcome', trackId);
  }

  /** Set while an attempt to post a notification may have reached Slack; value: when it started. */
  posting(notificationKey: string): string {
    return this.key('posting', notificationKey);
  }

  /** The ts of a notification Slack accepted: it is never posted again. */
  posted(notificationKey: string): string {
    return this.key('posted', notificationKey);
  }

  /** Short lock so two workers never handle one notification at the same moment. */
  notifyLock(notificationKey: string): string {
    return this.key('lock', notificationKey);
  }

  /** The text a progress message shows now (edits that change nothing are skipped). */
  statusText(notificationKey: string): string {
    return this.key('status-text', notificationKey);
  }

  /** Earliest time of the next call of a Slack method into a channel. */
  slackPace(method: string, channelId: string): string {
    return this.key('pace', method, channelId);
  }

  /** Sorted set: snapshot id → when it was kept, one device's running configurations (configSnapshots.ts). */
  configSnapshots(profile: string, deviceUid: string): string {
    return this.key('config-snapshots', safe(profile), safe(deviceUid));
  }

  /** JSON ConfigSnapshot: one running configuration, expiring with the retention. */
  configSnapshot(profile: string, deviceUid: string, id: string): string {
    return this.key('config-snapshot', safe(profile), safe(deviceUid), safe(id));
  }

  /** Counter that numbers one device's snapshots (`1`, `2`, …). */
  configSnapshotSequence(profile: string, deviceUid: string): string {
    return this.key('config-snapshot-seq', safe(profile), safe(deviceUid));
  }

  /** Hash: record id → AccessRecord JSON, the access rules fwbot created for one profile (access/records.ts). */
  accessRecords(profile: string): string {
    return this.key('access-records', safe(profile));
  }

  /** Counter that numbers one profile's access records (`1`, `2`, …), so ids are short to type. */
  accessRecordSequence(profile: string): string {
    return this.key('access-record-seq', safe(profile));
  }

  /** Set once a followed deploy's configuration changes were reported: never twice. */
  configChangesReported(trackId: string): string {
    return this.key('config-changes-reported', trackId);
  }

  /** Hash: channel id → UpgradeWatch JSON, per profile: earlier versions' watches (alerts/watchMigration.ts). */
  watches(profile: string): string {
    return this.key('watches', safe(profile));
  }

  /** Set of channel ids whose watch has been through a scan (the runs ended before it were noted). */
  watchBaselined(profile: string): string {
    return this.key('watch-baselined', safe(profile));
  }

  /** Set of profiles that had at least one watch in earlier versions (alerts/watchMigration.ts). */
  watchedProfiles(): string {
    return this.key('watched-profiles');
  }

  /** Hash: alert subscription id → AlertSubscription JSON (src/jobs/alerts/subscriptions.ts). */
  alertSubscriptions(): string {
    return this.key('alert-subs');
  }

  /** Hash: fingerprint of a subscription (channel, profile, kinds, devices, scope) → its id. */
  alertSubscriptionFingerprints(): string {
    return this.key('alert-sub-fingerprints');
  }

  /** Set of the ids of one channel's alert subscriptions. */
  alertChannelSubscriptions(channelId: string): string {
    return this.key('alert-subs-channel', safe(channelId));
  }

  /** Set of the ids of one profile's alert subscriptions. */
  alertProfileSubscriptions(profile: string): string {
    return this.key('alert-subs-profile', safe(profile));
  }

  /** Set of the profiles that have at least one alert subscription (the ones the scan reads). */
  alertProfiles(): string {
    return this.key('alert-profiles');
  }

  /** Sorted set of upgrade runs already announced (score: when), per profile. */
  announcedRuns(profile: string): string {
    return this.key('announced', safe(profile));
  }

  /** List, newest first: how long one type of SCC transaction took on one profile (learning.ts). */
  durations(profile: string, transactionType: string): string {
    return this.key('durations', safe(profile), safe(transactionType));
  }

  /**
   * Sorted set of the transactions of one type on one profile being followed now: member the tracking
   * job, score how long it had run when last seen running (ms since following began). What is still
   * running is evidence the learned durations cannot give (learning.ts, contradicted).
   */
  running(profile: string, transactionType: string): string {
    return this.key('running', safe(profile), safe(transactionType));
  }

  /** The same transactions, scored by when each was last seen (epoch ms): those no longer followed age out. */
  runningSeenAt(profile: string, transactionType: string): string {
    return this.key('running-seen-at', safe(profile), safe(transactionType));
  }

  /** List, newest first: when the latest calls of a queue started on a profile (ms), for expected starts. */
  queueStarts(queue: string, profile: string): string {
    return this.key('queue-starts', safe(queue), safe(profile));
  }

  /** The request holding a queue's key on a profile, as the declaration compares it (OperationQueue.reserve). */
  queueKey(queue: string, profile: string, key: string): string {
    // Encoded whole (not safe()'s lossy spelling): two keys must never share a Redis key.
    return this.key('queue-key', safe(queue), safe(profile), encodeURIComponent(key));
  }

  /**
   * One queued call: `calling` while its call may be reaching SCC, then the outcome to deliver (JSON), so a
   * job run again after a crash never calls twice.
   */
  queuedCall(queue: string, requestId: string): string {
    return this.key('queued-call', safe(queue), safe(requestId));
  }

  // The incident desk (src/jobs/alerts/desk*.ts). Channel ids are Slack's (no ':'), keys of SCC's things
  // are hashed: they are long and hold ':'.

  /** Set once an alert event has been taken into a channel's incidents: the same event again changes nothing. */
  alertSeen(channelId: string, eventKey: string): string {
    return this.key('alert-seen', channelId, digest(eventKey));
  }

  /** JSON record of one incident, burst or catch-up summary, or notice (its message's state). */
  incident(incidentId: string): string {
    return this.key('incident', incidentId);
  }

  /** The incident id a channel keeps for an incident key (open, or closed recently enough to flap). */
  incidentOf(channelId: string, incidentKey: string): string {
    return this.key('incident-of', channelId, digest(incidentKey));
  }

  /** The newest transition time (ms) the desk applied to an incident of a channel (batches can come out of order). */
  incidentLatest(channelId: string, incidentKey: string): string {
    return this.key('incident-latest', channelId, digest(incidentKey));
  }

  /** JSON: who acknowledged an incident and when (apart from the record: a click never races the desk). */
  incidentAck(incidentId: string): string {
    return this.key('incident-ack', incidentId);
  }

  /** Sorted set of a channel's open incidents and summaries (score: opened at, epoch ms). */
  openIncidents(channelId: string): string {
    return this.key('incidents-open', channelId);
  }

  /** Set of the channels that have open incidents (what the Home and `/fw alerts` look through). */
  incidentChannels(): string {
    return this.key('incident-channels');
  }

  /**
   * Hash: incident id → version, for each incident whose Slack message no longer shows its state. Marking
   * one again (HINCRBY) while its message is being shown makes a new version, which the delivery leaves
   * for its next pass (src/jobs/alerts/deskDelivery.ts).
   */
  deskDirty(channelId: string): string {
    return this.key('desk-marks', channelId);
  }

  /** Set of incident ids to show again, as releases before versioned marks kept them (read once, then gone). */
  legacyDeskDirty(channelId: string): string {
    return this.key('desk-dirty', channelId);
  }

  /** List of thread replies to post, oldest first (JSON DeskReply). */
  deskReplies(channelId: string): string {
    return this.key('desk-replies', channelId);
  }

  /** Held while one worker changes or delivers a channel's incidents. */
  deskLock(channelId: string): string {
    return this.key('desk-lock', channelId);
  }

  /** The burst summary that opens of one kind join in a channel while it lasts. */
  deskBurst(channelId: string, kind: string): string {
    return this.key('desk-burst', channelId, kind);
  }

  /** Opens of one kind counted in a channel within the burst window. */
  deskOpens(channelId: string, kind: string): string {
    return this.key('desk-opens', channelId, kind);
  }

  /** JSON: a device muted in a channel until a time (the key expires then). */
  alertMute(channelId: string, profile: string, deviceUid: string): string {
    return this.key('alert-mute', channelId, digest(`${profile}\u0000${deviceUid}`));
  }

  // Device holds (src/jobs/deviceHolds.ts): one hash per profile, fields per held device.

  /** Hash of one profile's holds: `d:<uid>` the hold (JSON), `h:<uid>` its holder, `s:`/`u:` since and until. */
  deviceHolds(profile: string): string {
    return this.key('holds', encodeURIComponent(profile));
  }

  /** Set of the profiles that have (or had) holds: what `/fw holds` across profiles reads. */
  holdProfiles(): string {
    return this.key('hold-profiles');
  }

  /** Set of every profile's holds hash (deviceHolds): what a take checks a device against, whatever its profile. */
  holdHashes(): string {
    return this.key('hold-hashes');
  }

  /** Set of the profiles where one holder holds devices: what its release goes through. */
  holderProfiles(holderId: string): string {
    return this.key('holder', encodeURIComponent(holderId));
  }

  // Timed work (src/jobs/timed/): one hash per item, one index of what is due, one of what ended.

  /** Hash: one item of timed work, its record and the fields its runs change (timed/store.ts). */
  timedItem(itemId: string): string {
    return this.key('timed', itemId);
  }

  /**
   * Sorted set of items a pass looks at: waiting ones (score: when due), running ones (when their lease
   * ends: a dead runner's item is claimed again then), ended ones whose followed work is not handed on yet.
   */
  timedDue(): string {
    return this.key('timed-due');
  }

  /** Sorted set of items that ended (score: when), for the lists of what happened; trimmed to the retention. */
  timedEnded(): string {
    return this.key('timed-ended');
  }

  /** The text and view a desk message shows now, hashed (edits that change nothing are skipped). */
  shownDigest(notificationKey: string): string {
    return this.key('shown', notificationKey);
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Job id of the one tracking job per followed thing: profile, kind and SCC id decide it. */
export function trackJobId(profile: string, kind: string, id: string): string {
  return `${kind}~${safe(profile)}~${safe(id)}`;
}

/** The id of an item of timed work: its kind, profile and key, each kept readable and apart (`~`). */
export function timedItemId(kind: string, profile: string, key: string): string {
  const part = (text: string) => encodeURIComponent(text).replace(/~/g, '%7E');
  return `${kind}~${part(profile)}~${part(key)}`;
}

/** Stable short id of a subscriber (a thread, and who asked in it). */
export function subscriberKey(thread: { channelId: string; threadTs: string; requesterId: string }): string {
  return `${thread.channelId}~${thread.threadTs}~${thread.requesterId}`;
}

/** A notification key must fit Slack's metadata and BullMQ's job ids: hash what could be long. */
export function notificationJobId(notificationKey: string): string {
  return `n~${createHash('sha256').update(notificationKey).digest('hex').slice(0, 32)}`;
}
