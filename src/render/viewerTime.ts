// How a scheduled moment (a held deploy's time, a window's next opening) is written for people: in the
// zone its change window is kept in, which is what the team agreed on ("Sat 22:00 Europe/Berlin, in 2
// days"), and beside it in each reader's own zone, which Slack fills in per reader (`localDate`, no scope
// and no user lookup). Where the reader's clock is unknown (an old client, the console, the
// CLI, plain text) the aside reads in UTC, named as such. Every place that shows a scheduled time uses this.
import { describeMoment, describeWhen } from '../model/changeWindows.js';
import { localDate } from './mrkdwn.js';

/**
 * `Sat 22:00 Europe/Berlin, in 2 days (your time: <Slack's date>)` as View text (mrkdwn with a wrapped date
 * token: render it through the Block Kit or text renderers, never paste it into a Slack payload as is).
 */
export function viewerTime(at: number, now: number, zone: string): string {
  return `${describeWhen(at, now, zone)} (your time: ${localDate(at, describeMoment(at, now, 'UTC'))})`;
}
