// Drill: Slack answers 429 with Retry-After to chat.postMessage and chat.update while fwbot reports
// outcomes. Every final reply must land exactly once, every thread's progress message must be posted
// once, and the progress message must end showing the final state (its settling edit must land too).
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { createJobs } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import type { RecordedCall } from '../../test/support/fakeSlack.js';
import { silentLog, startWorkerProcess, stopWorkers } from '../support/workers.js';
import { ReplyTally, startWorld, threadKey } from '../support/world.js';
import { DRILL_SCHEDULE, type Drill, until } from './drill.js';
import { followMany } from './followMany.js';

const TRACKED = 40;
const POST_429S = 20;
const UPDATE_429S = 6;

const eventType = (call: RecordedCall) =>
  (call.args.metadata as { event_type?: string } | undefined)?.event_type;

export const slackRateLimitDrill: Drill = {
  name: 'slack-429',
  summary: `Slack 429 on chat.postMessage (${POST_429S}×) and chat.update (${UPDATE_429S}×): every message delivered once`,
  async run() {
    // Upgrade runs take minutes of simulated time: a clock 20× faster makes them seconds.
    const world = await startWorld({ sim: { clock: 'real', speed: 20 } });
    const prefix = 'drill-slack';
    const jobs = createJobs({
      redisUrl: world.redis.url,
      prefix,
      schedule: DRILL_SCHEDULE,
      logger: silentLog,
    });
    const scc = createSccClient({
      baseUrl: world.sim.url,
      token: world.sim.tokens.superAdmin,
      profile: 'default',
    });
    const did: string[] = [];
    const findings: string[] = [];
    let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
    try {
      const followed = await followMany(world, jobs, TRACKED, { minMs: 2_000, maxMs: 40_000 });
      const upgradeThreads: ThreadRef[] = [];
      for (const device of ['asa-hq-01']) {
        try {
          const started = await scc.secureClient.triggerAsaUpgrade({
            deviceUids: [world.sim.deviceUid(device)],
            version: '5.1.8.105',
            name: `drill ${device}`,
          });
          const thread: ThreadRef = {
            channelId: 'C0UPGRADE1',
            threadTs: `1710000000.00000${upgradeThreads.length}`,
            requesterId: 'U0DRILL01',
            profile: 'default',
          };
          await jobs.tracker.follow(
            {
              kind: 'upgradeRun',
              transactionUid: String(started.transactionUid),
              label: `upgrade ${device}`,
            },
            thread,
          );
          upgradeThreads.push(thread);
        } catch (error) {
          findings.push(
            `could not start an upgrade on ${device}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      world.slack.rateLimit('chat.postMessage', POST_429S, 1);
      world.slack.rateLimit('chat.update', UPDATE_429S, 1);
      did.push(
        `followed ${TRACKED} transactions and ${upgradeThreads.length} VPN client upgrade runs; Slack will answer the next ${POST_429S} chat.postMessage and ${UPDATE_429S} chat.update calls with 429, Retry-After 1 s`,
      );
      worker = await startWorkerProcess(world, { prefix, schedule: DRILL_SCHEDULE });
      followed.go();
      const threads = [...followed.threads, ...upgradeThreads];
      const replies = new ReplyTally(world.slack);
      await until(() => replies.account(threads).lost === 0, 120_000, 100);
      const account = replies.account(threads);
      const limited = (method: string) =>
        world.slack.calls.filter((c) => c.method === method && c.status === 429).length;
      did.push(
        `Slack answered 429 to ${limited('chat.postMessage')} posts and ${limited('chat.update')} updates; ${account.delivered} of ${threads.length} threads got their final reply`,
      );
      let statusDuplicates = 0;
      let statusLost = 0;
      let unsettled = 0;
      for (const thread of upgradeThreads) {
        const statusPosts = world.slack.calls.filter(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.status === 200 &&
            eventType(c) === 'fwbot_status' &&
            threadKey(c.args.channel, c.args.thread_ts) === threadKey(thread.channelId, thread.threadTs),
        );
        if (statusPosts.length === 0) statusLost += 1;
        statusDuplicates += Math.max(0, statusPosts.length - 1);
        const ts = [...world.slack.messages().entries()].find(
          ([, m]) =>
            m.thread_ts === thread.threadTs &&
            (m.metadata as { event_type?: string } | undefined)?.event_type === 'fwbot_status',
        );
        const finalText = String(ts?.[1].text ?? '');
        const outcome = world.slack.calls.find(
          (c) => c.status === 200 && eventType(c) === 'fwbot_outcome' && c.args.thread_ts === thread.threadTs,
        );
        // The settled progress line names the run's final state, as the final reply does.
        const settled = /\b(succeeded|failed|done|completed|cancelled|100 ?%)/i.test(finalText);
        if (!settled) unsettled += 1;
        findings.push(
          `${thread.threadTs}: progress message now reads "${finalText.slice(0, 160)}"; final reply "${String(outcome?.args.text ?? '').slice(0, 120)}"`,
        );
      }
      findings.push(
        `progress messages posted twice: ${statusDuplicates}; missing: ${statusLost}; not settled to the final state: ${unsettled}`,
      );
      return {
        did,
        lost: account.lost + statusLost,
        duplicated: account.duplicated + statusDuplicates,
        findings,
        failed: unsettled > 0,
      };
    } finally {
      if (worker) await stopWorkers([worker]);
      await jobs.close();
      await scc.close();
      await world.stop();
    }
  },
};
