// Drill: fifty approvers press Approve on one destructive request at the same moment, split over two
// fwbot processes (the real `npm start` assembly) sharing Redis. SCC must see one DELETE, the thread one
// outcome, and the card must end without buttons.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interactionBody, postSigned, slashCommandBody } from '../../test/support/slackRequests.js';
import { stopChild } from '../support/processes.js';
import { startWorld } from '../support/world.js';
import { type Drill, sleep, until } from './drill.js';
import { DRILL_SIGNING_SECRET, startFwbot } from './fwbotProcess.js';

const REQUESTER = 'U0ALICE001';
const CHANNEL = 'C0OPS00001';
const APPROVERS = Array.from({ length: 50 }, (_, i) => `U0APPROV${String(i).padStart(2, '0')}`);

interface Element {
  action_id?: string;
  value?: string;
}

export function buttons(message: Record<string, unknown>): Element[] {
  const blocks = Array.isArray(message.blocks)
    ? (message.blocks as { type?: string; elements?: Element[] }[])
    : [];
  return blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
}

/** A profiles file in `dir` whose policy lets everyone read, `operator` change and `approvers` approve. */
export async function writePolicy(
  dir: string,
  operator: string,
  approvers: readonly string[],
): Promise<string> {
  const path = join(dir, 'profiles.yml');
  const policy = ['policy:', '  workspace:', '    viewer: "*"', `    operator: [${operator}]`];
  await writeFile(path, [...policy, `    approver: [${approvers.join(', ')}]`, ''].join('\n'));
  return path;
}

/** A press of `button` on the approval card `card` (ts, as posted) by `user`, as Slack sends it. */
export function clickBody(
  user: string,
  channel: string,
  card: { ts: string; args: Record<string, unknown> },
  button: Element,
  i: number,
  slackUrl: string,
): string {
  const { ts, args } = card;
  return interactionBody({
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), team_id: 'T0FAKE' },
    api_app_id: 'A0FWBOT',
    team: { id: 'T0FAKE', domain: 'fake' },
    channel: { id: channel, name: 'ops' },
    container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: false },
    message: { type: 'message', ts, text: args.text, blocks: args.blocks },
    trigger_id: `trigger-${user}-${i}`,
    response_url: `${slackUrl}/response/click-${i}`,
    actions: [
      {
        type: 'button',
        action_id: button.action_id,
        block_id: 'b',
        value: button.value,
        action_ts: String(Date.now() / 1000),
      },
    ],
  });
}

export const approvalsDrill: Drill = {
  name: 'approvals',
  summary: '50 concurrent approvals of one delete, over two bot processes: one SCC call',
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'fwbot-drill-approvals-'));
    const profiles = await writePolicy(dir, REQUESTER, APPROVERS);
    const world = await startWorld();
    const bots = [
      await startFwbot(world, { profilesFile: profiles }),
      await startFwbot(world, { profilesFile: profiles }),
    ];
    const did: string[] = [];
    const findings: string[] = [];
    try {
      const [first, second] = bots;
      if (!first || !second) throw new Error('two bots expected');
      const command = slashCommandBody({
        text: 'interfaces delete asa-branch-02 printers',
        userId: REQUESTER,
        channelId: CHANNEL,
        responseUrl: `${world.slack.url}/response/ask`,
      });
      await postSigned(first.eventsUrl, DRILL_SIGNING_SECRET, command);
      const card = await world.slack.waitFor(
        (c) => c.method === 'chat.postMessage' && String(c.args.text ?? '').startsWith('Approval needed'),
        15_000,
      );
      const ts = [...world.slack.messages().entries()]
        .find(([, m]) => m.text === card.args.text)?.[0]
        .split('/')[1];
      const approve = buttons(card.args).find((b) => b.action_id?.startsWith('fw.approval.approve'));
      if (!ts || !approve?.action_id) throw new Error('the approval card has no Approve button');
      did.push(`asked for \`/fw interfaces delete asa-branch-02 printers\`; the card was posted (ts ${ts})`);
      const deletesBefore = world.sim.requestLog.list().filter((e) => e.method === 'DELETE').length;
      const click = (user: string, i: number) =>
        postSigned(
          (i % 2 === 0 ? first : second).eventsUrl,
          DRILL_SIGNING_SECRET,
          clickBody(user, CHANNEL, { ts, args: card.args }, approve, i, world.slack.url),
        );
      const statuses = await Promise.all(APPROVERS.map(click));
      did.push(
        `50 approvers clicked Approve at once, alternating between the two processes: HTTP ${[...new Set(statuses.map((s) => s.status))].join(', ')}`,
      );
      const threadReplies = () =>
        world.slack.calls.filter(
          (c) => c.method === 'chat.postMessage' && c.status === 200 && c.args.thread_ts === ts,
        );
      await until(() => threadReplies().length >= 1, 20_000);
      await sleep(2_000); // time for a second execution to show itself, if there were one
      const deletes = world.sim.requestLog.list().filter((e) => e.method === 'DELETE').length - deletesBefore;
      const replies = threadReplies().length;
      const final = world.slack.messages().get(`${CHANNEL}/${ts}`);
      const left = final ? buttons(final).length : -1;
      findings.push(
        `SCC DELETE requests: ${deletes}; outcome replies in the thread: ${replies}; buttons left on the card: ${left}`,
      );
      return {
        did,
        lost: deletes === 0 || replies === 0 ? 1 : 0,
        duplicated: Math.max(0, deletes - 1) + Math.max(0, replies - 1),
        findings,
        failed: left !== 0,
      };
    } finally {
      for (const bot of bots) await stopChild(bot.child);
      await world.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
