// What one person's App Home shows, as plain data: gathered from Redis by sources.ts, turned into a View by
// view.ts (pure), into Block Kit by Slack's Home tab (src/slack/homeTab.ts) and into text by the console's
// /home.
import type { OpenIncident } from '../alerts/model.js';
import type { ApprovalRecord } from '../approvals/record.js';

/** A command this person ran (any surface), and how the dispatcher said it ended. */
export interface RecentCommand {
  /** ms since the epoch. */
  at: number;
  /** The command as typed (cut to a line; commands that looked like they held a token are withheld). */
  text: string;
  outcome: 'ran' | 'approval' | 'reveal' | 'queued' | 'confirm' | 'refused' | 'failed';
  /** One line: the outcome's summary, or what went wrong. */
  detail: string;
}

/** Work this person started that fwbot follows (a transaction, an upgrade run, a deployment…). */
export interface FollowedWork {
  /** The tracking job's id (one per followed thing). */
  trackId: string;
  kind: string;
  label: string;
  profile: string;
  channelId: string;
  /** ms since the epoch. */
  since: number;
  /** `running` while followed; else how it ended. */
  state: 'running' | 'succeeded' | 'failed' | 'unknown' | 'stopped';
  /** The last status seen, or the outcome's sentence. */
  status?: string | undefined;
  /** Staged changes only: the device (its name) still to deploy. */
  device?: string | undefined;
}

export interface WatchLine {
  channelId: string;
  profile: string;
  createdBy: string;
}

export interface HomeData {
  userId: string;
  /** Pending requests this person may decide (approver in the request's channel, not the requester). */
  toDecide: ApprovalRecord[];
  /** Their own requests still waiting. */
  myRequests: ApprovalRecord[];
  /** Their followed work, newest first (finished ones stay a while). */
  followed: FollowedWork[];
  /** Upgrade-run watches of channels they are in; undefined when fwbot cannot tell which those are. */
  watches: WatchLine[] | undefined;
  /** Open incidents (alerts) of the channels they are in, oldest first; undefined as for watches. */
  incidents: OpenIncident[] | undefined;
  /** Newest first, at most ten. */
  recent: RecentCommand[];
  /** When this was read (ms since the epoch). */
  now: number;
}
