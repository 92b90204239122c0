// Drill: requests that did not come from Slack. Forged signatures, no signature, a replay of a genuine
// request older than five minutes, a tampered body, a timestamp from the future. The real fwbot must
// refuse each one, run nothing (no SCC request, no reply), and still answer the genuine control request.
import { postSigned, slackSignature, slashCommandBody } from '../../test/support/slackRequests.js';
import { stopChild } from '../support/processes.js';
import { startWorld } from '../support/world.js';
import { type Drill, sleep } from './drill.js';
import { DRILL_SIGNING_SECRET, startFwbot } from './fwbotProcess.js';

const ROUNDS = 20;

export const forgedDrill: Drill = {
  name: 'forged',
  summary:
    'forged, unsigned, replayed (older than 5 minutes), tampered and future-dated requests: all refused',
  async run() {
    const world = await startWorld();
    const bot = await startFwbot(world);
    const did: string[] = [];
    const findings: string[] = [];
    let failed = false;
    try {
      const now = () => Math.floor(Date.now() / 1000);
      const body = (id: string) =>
        slashCommandBody({
          text: 'devices',
          responseUrl: `${world.slack.url}/response/${id}`,
          triggerId: id,
        });
      const kinds: [string, (id: string) => Promise<number>][] = [
        [
          'forged signature',
          async (id) => (await postSigned(bot.eventsUrl, 'not-the-secret', body(id))).status,
        ],
        [
          'no signature',
          async (id) =>
            (await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body(id), { signature: null })).status,
        ],
        [
          'replayed, 6 minutes old',
          async (id) =>
            (await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body(id), { timestamp: now() - 360 }))
              .status,
        ],
        [
          'tampered body',
          async (id) => {
            const ts = now();
            const signature = slackSignature(DRILL_SIGNING_SECRET, ts, body(`${id}-original`));
            return (
              await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body(id), { timestamp: ts, signature })
            ).status;
          },
        ],
        [
          'future-dated by 10 minutes',
          async (id) =>
            (await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body(id), { timestamp: now() + 600 }))
              .status,
        ],
        [
          'empty signature',
          async (id) =>
            (await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body(id), { signature: '' })).status,
        ],
      ];
      const sccBefore = world.sim.requestLog.total;
      let accepted = 0;
      for (const [kind, send] of kinds) {
        const statuses = new Map<number, number>();
        for (let i = 0; i < ROUNDS; i += 1) {
          const status = await send(`forged-${kind.replace(/\W+/g, '-')}-${i}`);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          // fwbot refuses future dates itself (src/slack/requestWindow.ts): Bolt checks staleness only.
          if (status >= 200 && status < 300) accepted += 1;
        }
        did.push(`${ROUNDS} × ${kind}: HTTP ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
      }
      // Anything accepted would have answered by now; give it a moment to show.
      await sleep(1_000);
      const replies = world.slack.calls.filter(
        (c) => c.method === 'response_url' && String(c.args.responseUrlId).startsWith('forged-'),
      ).length;
      const sccCalls = world.sim.requestLog.total - sccBefore;
      findings.push(
        `forged, unsigned, replayed, tampered, future-dated, empty-signature requests accepted: ${accepted}; replies sent for them: ${replies}; SCC requests made for them: ${sccCalls}`,
      );
      const control = await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, body('genuine'));
      const answered = await world.slack
        .waitFor((c) => c.method === 'response_url' && c.args.responseUrlId === 'genuine', 10_000)
        .then(() => true)
        .catch(() => false);
      findings.push(
        `control: a genuine signed request got HTTP ${control.status} and ${answered ? 'an answer' : 'NO answer'}`,
      );
      failed = accepted > 0 || replies > 0 || sccCalls > 0 || control.status !== 200 || !answered;
      // A forged request that got through is the security equivalent of a duplicate: it ran something.
      return { did, lost: 0, duplicated: accepted, findings, failed };
    } finally {
      await stopChild(bot.child);
      await world.stop();
    }
  },
};
