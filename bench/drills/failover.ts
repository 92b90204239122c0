// Drills: a Redis failover in the middle of a run, behind Sentinel (a primary, two replicas, three
// sentinels) and on a Cluster (three primaries with a replica each), all real processes on loopback.
// While 300 followed transactions finish, 20 deletions wait for approval and 100 /fw commands are queued,
// the primary holding fwbot's keys is killed with SIGKILL and 10 of the approvals are pressed while a
// replica is promoted. Afterwards: every transaction's outcome posted once, every approved deletion sent
// to SCC once and reported once, the 10 others still pending, every command answered. The time from the
// kill to the first write Redis accepted again is measured by a probe writing every 20 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { type Environment, loadConfig } from '../../src/config.js';
import { startWorkers } from '../../src/jobs/workers.js';
import { connectRedis } from '../../src/redis/connection.js';
import { createSccClient } from '../../src/scc/client.js';
import { startSimulator } from '../../src/simulator/index.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { startFakeSlack } from '../../test/support/fakeSlack.js';
import {
  type ClusterTopology,
  type SentinelTopology,
  startClusterTopology,
  startSentinelTopology,
} from '../../test/support/redisTopologies.js';
import { postSigned, slashCommandBody } from '../../test/support/slackRequests.js';
import { stopChild } from '../support/processes.js';
import { ReplyTally } from '../support/world.js';
import { buttons, clickBody, writePolicy } from './approvals.js';
import { DRILL_SCHEDULE, type Drill, type DrillReport, sleep, until } from './drill.js';
import { followMany } from './followMany.js';
import { DRILL_SIGNING_SECRET, startFwbot } from './fwbotProcess.js';

const TRANSACTIONS = 300;
const APPROVALS = 20;
const APPROVED = 10;
const COMMANDS = 100;
const REQUESTER = 'U0ALICE001';
const APPROVER = 'U0APPROV01';
const CHANNEL = 'C0OPS00001';
const DEVICE = 'asa-branch-02';

interface Topology {
  env: Environment;
  /** The port of the primary that holds fwbot's keys now. */
  primary(): Promise<number>;
  crash(port: number): Promise<void>;
  stop(): Promise<void>;
  describe: string;
}

function sentinelTopology(t: SentinelTopology): Topology {
  return {
    env: { REDIS_SENTINELS: t.sentinelList, REDIS_SENTINEL_MASTER: t.masterName },
    primary: () => t.primaryPort(),
    crash: (port) => t.crash(port),
    stop: () => t.stop(),
    describe: 'a primary, two replicas and three sentinels (down after 1 s, quorum 2)',
  };
}

function clusterTopology(t: ClusterTopology): Topology {
  return {
    env: { REDIS_CLUSTER_NODES: t.nodeList },
    // Every key of the deployment is in the slot of its hash tag: the primary of {fwbot} holds them all.
    primary: () => t.primaryFor('{fwbot}'),
    crash: (port) => t.crash(port),
    stop: () => t.stop(),
    describe: 'three primaries with two replicas each (cluster-node-timeout 1 s)',
  };
}

/** Counts SCC DELETE requests per path as they happen (the request log keeps only the latest 10,000). */
function deleteCounter(sim: Awaited<ReturnType<typeof startSimulator>>) {
  let seen = 0;
  const counts = new Map<string, number>();
  const timer = setInterval(() => {
    for (const entry of sim.requestLog.list()) {
      if (entry.seq <= seen) continue;
      seen = entry.seq;
      if (entry.method === 'DELETE') counts.set(entry.path, (counts.get(entry.path) ?? 0) + 1);
    }
  }, 50);
  return { counts, stop: () => clearInterval(timer) };
}

async function failoverRun(kind: 'sentinel' | 'cluster'): Promise<DrillReport> {
  const did: string[] = [];
  const findings: string[] = [];
  const topology =
    kind === 'sentinel'
      ? sentinelTopology(await startSentinelTopology({ replicas: 2 }))
      : clusterTopology(await startClusterTopology({ replicas: 2 }));
  did.push(`started ${topology.describe} on loopback`);
  const sim = await startSimulator({ port: 0, clock: 'real', speed: 1 });
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), `fwbot-drill-${kind}-`));
  const config = loadConfig({ ...topology.env, REDIS_WAIT_TIMEOUT_MS: '2000' });
  const quiet = pino({ level: 'silent' });
  const sccClient = createSccClient({
    baseUrl: sim.url,
    token: sim.tokens.superAdmin,
    profile: 'default',
    retry: { maxAttempts: 1 },
  });
  const probe = connectRedis(config.redis);
  probe.on('error', () => undefined);
  const deletes = deleteCounter(sim);
  let bot: Awaited<ReturnType<typeof startFwbot>> | undefined;
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  try {
    // The deletions to approve: VLAN interfaces made for the drill on one ASA.
    const deviceUid = sim.deviceUid(DEVICE);
    const names: string[] = [];
    for (let i = 0; i < APPROVALS; i += 1) {
      const name = `drill${String(i).padStart(2, '0')}`;
      await sccClient.interfaces.vlan.create(deviceUid, { vlanId: 600 + i, name });
      names.push(name);
    }
    const profiles = await writePolicy(dir, REQUESTER, [APPROVER]);
    bot = await startFwbot(
      { sim, slack },
      { profilesFile: profiles, env: { ...topology.env, REDIS_WAIT_TIMEOUT_MS: '2000' } },
    );
    workers = await startWorkers({
      redisUrl: config.redis,
      // A prefix of its own in fwbot's hash slot: on the cluster the killed primary holds it too.
      prefix: '{fwbot}drill',
      clients: sccClientsFrom(new Map([['default', sccClient]])),
      chat: slackChatOf(createWorkerSlackClient('xoxb-worker', slack.apiUrl), quiet),
      schedule: DRILL_SCHEDULE,
      logger: quiet,
    });
    const followed = await followMany({ sim }, workers.jobs, TRANSACTIONS, { minMs: 500, maxMs: 8_000 });
    const replies = new ReplyTally(slack);
    did.push(
      `followed ${TRANSACTIONS} transactions finishing 0.5–8 s after the start, from in-process workers`,
    );

    const eventsUrl = bot.eventsUrl;
    for (const name of names)
      await postSigned(
        eventsUrl,
        DRILL_SIGNING_SECRET,
        slashCommandBody({
          text: `interfaces delete ${DEVICE} ${name}`,
          userId: REQUESTER,
          channelId: CHANNEL,
          responseUrl: slack.responseUrl(),
        }),
      );
    const cards = new Map<string, { ts: string; args: Record<string, unknown> }>();
    const readCards = () => {
      for (const [key, message] of slack.messages()) {
        const text = String(message.text ?? '');
        if (!key.startsWith(`${CHANNEL}/`) || !text.startsWith('Approval needed')) continue;
        const name = names.find((n) => text.includes(` ${n}`) || text.includes(`\`${n}\``));
        const ts = key.split('/')[1] ?? '';
        if (name && !cards.has(name)) cards.set(name, { ts, args: message });
      }
      return cards.size;
    };
    if (!(await until(() => readCards() >= APPROVALS, 60_000)))
      throw new Error(`only ${cards.size} approval cards`);
    did.push(`asked for ${APPROVALS} interface deletions: ${APPROVALS} approval cards pending`);

    followed.go();
    await until(() => replies.account(followed.threads).delivered >= 30, 60_000);
    const before = replies.account(followed.threads).delivered;
    // The device list answers after 2 s, so the commands are still running when the primary dies.
    sim.faults.add({ path: '/v1/inventory/devices', method: 'GET', latencyMs: 2_000 });
    const commandUrls = Array.from({ length: COMMANDS }, () => slack.responseUrl());
    await Promise.all(
      commandUrls.map((url, i) =>
        postSigned(
          eventsUrl,
          DRILL_SIGNING_SECRET,
          slashCommandBody({
            text: 'devices',
            userId: REQUESTER,
            channelId: CHANNEL,
            responseUrl: url,
            triggerId: `t-${i}`,
          }),
        ),
      ),
    );
    const answered = (url: string) =>
      slack.calls.filter(
        (c) => c.method === 'response_url' && c.args.responseUrlId === url.split('/response/')[1],
      );
    const answeredBeforeKill = commandUrls.filter((url) => answered(url).length > 0).length;
    const primary = await topology.primary();
    const killedAt = Date.now();
    await topology.crash(primary);
    // The probe: the first write Redis accepts after the kill (ioredis queues it until a primary answers).
    const firstWrite = (async () => {
      for (;;) {
        try {
          await probe.set('{fwbot}:drill:probe', String(Date.now()));
          return Date.now() - killedAt;
        } catch {
          await sleep(20);
        }
      }
    })();
    const toApprove = names.slice(0, APPROVED);
    const clicks = await Promise.all(
      toApprove.map((name, i) => {
        const card = cards.get(name);
        const approve = buttons(card?.args ?? {}).find((b) => b.action_id?.startsWith('fw.approval.approve'));
        if (!card || !approve?.action_id) throw new Error(`the card for ${name} has no Approve button`);
        return postSigned(
          eventsUrl,
          DRILL_SIGNING_SECRET,
          clickBody(APPROVER, CHANNEL, card, approve, i, slack.url),
        );
      }),
    );
    did.push(
      `queued ${COMMANDS} /fw devices commands, then SIGKILLed the primary (port ${primary}) after ${before} replies; pressed Approve on ${APPROVED} cards at once during the failover: HTTP ${[...new Set(clicks.map((c) => c.status))].join(', ')}`,
    );
    const firstWriteMs = await firstWrite;
    const promoted = await topology.primary();
    did.push(
      `a replica (port ${promoted}) was promoted; first write accepted ${firstWriteMs} ms after the kill`,
    );

    // An approval click lost to the failover is pressed again, as a person would when the card did not change.
    const threadReplies = (name: string) => {
      const ts = cards.get(name)?.ts;
      return slack.calls
        .filter((c) => c.method === 'chat.postMessage' && c.status === 200 && c.args.thread_ts === ts)
        .map((c) => String(c.args.text ?? ''));
    };
    // The outcome of the approved deletion; the staged change's pending-command count may follow it.
    const outcomeReplies = (name: string) =>
      threadReplies(name).filter((text) => text.includes(`the deletion of VLAN interface ${name} `)).length;
    /** Replies that repeat an earlier reply of the same thread word for word. */
    const repeatedReplies = (name: string) => {
      const texts = threadReplies(name);
      return texts.length - new Set(texts).size;
    };
    let reclicked = 0;
    const approvedAll = await until(() => toApprove.every((name) => outcomeReplies(name) >= 1), 30_000);
    if (!approvedAll) {
      for (const [i, name] of toApprove.entries()) {
        if (outcomeReplies(name) >= 1) continue;
        const card = cards.get(name);
        const latest = slack.messages().get(`${CHANNEL}/${card?.ts}`);
        const approve = buttons(latest ?? {}).find((b) => b.action_id?.startsWith('fw.approval.approve'));
        if (!card || !approve) continue;
        reclicked += 1;
        await postSigned(
          eventsUrl,
          DRILL_SIGNING_SECRET,
          clickBody(APPROVER, CHANNEL, card, approve, 100 + i, slack.url),
        );
      }
      await until(() => toApprove.every((name) => outcomeReplies(name) >= 1), 60_000);
    }
    const complete = await replies.until(followed.threads, Date.now() + 120_000);
    await until(() => commandUrls.every((url) => answered(url).length >= 1), 60_000);
    await sleep(2_000); // time for a second execution or answer to show itself, if there were one

    const final = replies.account(followed.threads);
    did.push(
      `${final.delivered} of ${TRANSACTIONS} threads got their final reply${complete ? '' : ' (bound of 120 s reached)'}`,
    );
    const deletesTotal = [...deletes.counts.values()].reduce((a, b) => a + b, 0);
    const deletesTwice = [...deletes.counts.values()].filter((n) => n > 1).length;
    const approvedReplies = toApprove.map(outcomeReplies);
    const pendingLeft = names.slice(APPROVED).filter((name) => {
      const latest = slack.messages().get(`${CHANNEL}/${cards.get(name)?.ts}`);
      return buttons(latest ?? {}).some((b) => b.action_id?.startsWith('fw.approval.approve'));
    }).length;
    const decidedUnasked = names.slice(APPROVED).filter((name) => outcomeReplies(name) > 0).length;
    const repeated = names.reduce((sum, name) => sum + repeatedReplies(name), 0);
    for (const name of toApprove.filter((n) => outcomeReplies(n) > 1 || repeatedReplies(n) > 0)) {
      const texts = threadReplies(name).map((text) => JSON.stringify(text.slice(0, 120)));
      findings.push(`the thread of ${name} got ${texts.length} replies: ${texts.join(' / ')}`);
    }
    const answers = commandUrls.map((url) => answered(url).length);
    const unanswered = answers.filter((n) => n === 0).length;
    const twice = answers.filter((n) => n > 1).length;
    findings.push(
      `SCC DELETE requests: ${deletesTotal} for ${APPROVED} approvals (paths sent twice: ${deletesTwice}); outcome replies per approved card: ${[...new Set(approvedReplies)].join(', ')}; approvals pressed again after the failover: ${reclicked}; thread replies repeated word for word: ${repeated}`,
      `approvals left pending: ${pendingLeft} of ${APPROVALS - APPROVED} (decided without a click: ${decidedUnasked})`,
      `commands answered: ${COMMANDS - unanswered} of ${COMMANDS}, ${answeredBeforeKill} of them before the kill (answered more than once: ${twice}, allowed for a read)`,
      `time from the kill to the first accepted write: ${firstWriteMs} ms`,
    );
    const lost =
      final.lost +
      approvedReplies.filter((n) => n === 0).length +
      Math.max(0, APPROVED - deletesTotal + deletesTwice) +
      (APPROVALS - APPROVED - pendingLeft) +
      unanswered;
    const duplicated =
      final.duplicated +
      approvedReplies.reduce((sum, n) => sum + Math.max(0, n - 1), 0) +
      repeated +
      [...deletes.counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0) +
      decidedUnasked;
    return { did, findings, lost, duplicated };
  } finally {
    deletes.stop();
    if (bot) await stopChild(bot.child);
    await workers?.close();
    probe.disconnect();
    await sccClient.close();
    await slack.stop();
    await sim.stop();
    await topology.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export const sentinelDrill: Drill = {
  name: 'sentinel',
  summary: `SIGKILL the Sentinel primary mid-run (${TRANSACTIONS} followed, ${APPROVALS} approvals, ${COMMANDS} commands)`,
  run: () => failoverRun('sentinel'),
};

export const clusterDrill: Drill = {
  name: 'cluster',
  summary: `SIGKILL the cluster primary of {fwbot} mid-run (${TRANSACTIONS} followed, ${APPROVALS} approvals, ${COMMANDS} commands)`,
  run: () => failoverRun('cluster'),
};
