// Benchmark: firewall software upgrades across the MSP portal's tenants (issue 37, item 11). A scaled MSP
// world (`devices` across `tenants` managed tenants: ASAs, one in ten an HA pair, and cdFMC-managed FTDs)
// on a simulator `speed` times faster than SCC, with failures injected through the simulator's own route
// (POST /_sim/devices/{name}/upgrade-fault): readiness checks that fail (standalone ASAs and FTDs) and HA
// units that fail while upgrading (HA pairs). Everything runs as in production: the real bot process
// (`npm start`, HTTP mode, BOT_WORKERS=off, a role policy) takes `/fw upgrade` as signed slash commands from
// the portal's channel, once for the ASAs and once for the FTDs; a second person presses Approve on each
// card; the approved run starts SCC's MSP upgrades (at most 50 per model per tenant each); real worker
// processes (`npm run worker`) run the commands and follow each MSP run into its card's thread, on fwbot's
// own poll schedule, against the fake Slack Web API and a private redis-server. Twice, on a fresh world each:
// undisturbed, and with the worker SIGKILLed while the runs go (a new one started in its place).
// Measured: SCC calls per device (the bot's checks and triggers, and the following), Slack messages per
// MSP run (progress post and edits, replies), the time from each device's end (the simulator's clock when
// its units' last task ended, or its run's end for a device its run stopped) to its run's outcome post,
// and per run: exactly one outcome each (lost: none, duplicated: more), and tenant runs that ended other
// than the injected faults say (unexplained).
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceUpgradeRunRecord } from '../src/simulator/state/model.js';
import type { RecordedCall } from '../test/support/fakeSlack.js';
import { postSigned, slashCommandBody } from '../test/support/slackRequests.js';
import { buttons, clickBody, writePolicy } from './drills/approvals.js';
import { DRILL_SIGNING_SECRET, type FwbotProcess, startFwbot } from './drills/fwbotProcess.js';
import { stopChild } from './support/processes.js';
import { median, num, percentile, ratio, type Table } from './support/stats.js';
import { SccRequestTally, startWorld, type World } from './support/world.js';

export interface UpgradesOptions {
  tenants: number;
  devices: number;
  /** How many times faster than SCC the simulator runs (fwbot's schedule is its own, not compressed). */
  speed: number;
  /** Standalone devices whose readiness check fails, and HA pairs one of whose units fails. */
  readinessFaults: number;
  nodeFaults: number;
  /** Upper bound on one pass (wall seconds) before it gives up and counts what is missing as lost. */
  boundS: number;
}

const REQUESTER = 'U0BENCHREQ';
const APPROVER = 'U0BENCHAPP';
const CHANNEL = 'C0BENCHUPG';
const COMMANDS = [
  { kind: 'ASA', text: 'upgrade "name:bench-* deviceType:ASA" --version 9.20.3' },
  { kind: 'FTD', text: 'upgrade "name:bench-* deviceType:CDFMC_MANAGED_FTD" --version 7.4.2' },
] as const;

interface Pass {
  name: string;
  devices: number;
  runs: number;
  tenantRuns: number;
  faulted: number;
  unexplained: string[];
  sccCalls: number;
  followCalls: number;
  slackMessages: number;
  deviceEndToPost: number[];
  runEndToPost: number[];
  lost: number;
  duplicated: number;
  killed: string | undefined;
}

/** A process of fwbot's (the bot or a worker), on the world, as `npm start` / `npm run worker` run it. */
function startProcess(world: World, profiles: string, entry?: string): Promise<FwbotProcess> {
  return startFwbot(world, {
    profilesFile: profiles,
    env: { BOT_WORKERS: 'off', LOG_LEVEL: process.env.BENCH_WORKER_LOG ?? 'warn' },
    ...(entry ? { entry } : {}),
  });
}

const OUTCOME_RUN = /\*(fwbot \S+ msp \d+)\* to \S+ across/;
const isOutcome = (call: RecordedCall) =>
  call.method === 'chat.postMessage' &&
  call.status === 200 &&
  (call.args.metadata as { event_type?: unknown } | undefined)?.event_type === 'fwbot_outcome';

/** Asks for one upgrade as the requester, approves its card as the approver; the card's ts. */
async function askAndApprove(world: World, bot: FwbotProcess, text: string, i: number): Promise<string> {
  const before = world.slack.calls.length;
  // The card is a new message (an earlier pass's card may say the very same words).
  const known = new Set(world.slack.messages().keys());
  await postSigned(
    bot.eventsUrl,
    DRILL_SIGNING_SECRET,
    slashCommandBody({
      text,
      userId: REQUESTER,
      channelId: CHANNEL,
      responseUrl: `${world.slack.url}/response/upgrade-${i}`,
      triggerId: `trigger-upgrade-${i}-${Date.now()}`,
    }),
  );
  const card = await world.slack.waitFor(
    (c) =>
      world.slack.calls.indexOf(c) >= before &&
      c.method === 'chat.postMessage' &&
      String(c.args.text ?? '').startsWith('Approval needed'),
    180_000,
  );
  const ts = [...world.slack.messages().entries()]
    .find(([key, m]) => !known.has(key) && m.text === card.args.text)?.[0]
    .split('/')[1];
  const approve = buttons(card.args).find((b) => b.action_id?.startsWith('fw.approval.approve'));
  if (!ts || !approve) throw new Error(`the card of \`${text}\` has no Approve button`);
  const click = clickBody(APPROVER, CHANNEL, { ts, args: card.args }, approve, i, world.slack.url);
  const answer = await postSigned(bot.eventsUrl, DRILL_SIGNING_SECRET, click);
  if (answer.status !== 200) throw new Error(`Approve answered HTTP ${answer.status}`);
  return ts;
}

/** The device's end: its units' last completed task, or (a device its run stopped) the run's end. */
function deviceEnds(run: DeviceUpgradeRunRecord): number[] {
  const runEnd = run.lastUpdatedTime ?? 0;
  return run.devices.map((d) => {
    const done = d.nodes.map((n) => n.completedAt).filter((t): t is number => typeof t === 'number');
    return done.length === d.nodes.length && done.length > 0 ? Math.max(...done) : runEnd;
  });
}

const ENDED = /COMPLETED|FAILED|STAGED/;

/** One pass on a world of its own: a fresh simulator, Redis and Slack. */
async function onePass(
  options: UpgradesOptions,
  profiles: string,
  name: string,
  kill: boolean,
): Promise<Pass> {
  const world = await startWorld({
    sim: {
      clock: 'real',
      speed: options.speed,
      scale: { tenants: options.tenants, devices: options.devices },
    },
  });
  try {
    return await measure(world, options, profiles, name, kill);
  } finally {
    await world.stop();
  }
}

async function measure(
  world: World,
  options: UpgradesOptions,
  profiles: string,
  name: string,
  kill: boolean,
): Promise<Pass> {
  const { sim } = world;
  // Faults spread over the tenants: the world deals devices out round-robin, so every k-th one is apart.
  const bench = [...sim.state.devices.values()].filter((d) => d.device.name.startsWith('bench-'));
  const pairs = bench.filter((d) => d.kind === 'ASA' && d.device.asaFailoverMode === 'ACTIVE_STANDBY');
  const alone = bench.filter((d) => !pairs.includes(d));
  const spread = <T>(from: readonly T[], n: number) =>
    n <= 0 ? [] : from.filter((_, i) => i % Math.max(1, Math.floor(from.length / n)) === 0).slice(0, n);
  const faults = new Map<string, 'READINESS_CHECK' | 'NODE'>();
  for (const d of spread(alone, options.readinessFaults)) faults.set(d.device.name, 'READINESS_CHECK');
  for (const d of spread(pairs, options.nodeFaults)) faults.set(d.device.name, 'NODE');
  for (const [device, kind] of faults) {
    const body =
      kind === 'NODE'
        ? { kind, node: 'HA_PRIMARY', message: 'The primary unit did not come back after its reload' }
        : { kind, message: 'Readiness check failed: not enough free space on disk0' };
    const res = await fetch(`${sim.url}/_sim/devices/${encodeURIComponent(device)}/upgrade-fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`the simulator refused a fault on ${device}: ${res.status}`);
  }

  const scc = new SccRequestTally(sim).start(100);
  const slackFrom = world.slack.calls.length;
  const children: ChildProcess[] = [];
  let killed: string | undefined;
  try {
    const worker = await startProcess(world, profiles, 'src/entry/worker.ts');
    children.push(worker.child);
    const bot = await startProcess(world, profiles);
    children.push(bot.child);
    const threads: string[] = [];
    for (const [i, command] of COMMANDS.entries())
      threads.push(await askAndApprove(world, bot, command.text, i));
    const runs = () => [...sim.state.mspDeviceUpgradeRuns.values()];
    // The approved runs start SCC's runs at once; none within the bound means fwbot refused or failed:
    // what it said in the channel is printed, and the pass counts every request as lost.
    const started = Date.now() + options.boundS * 1000;
    while (runs().length < COMMANDS.length && Date.now() < started)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (runs().length < COMMANDS.length)
      for (const c of world.slack.calls.slice(slackFrom).filter((c) => c.method !== 'chat.update'))
        console.log(`  [${name}] no run started; fwbot said: ${String(c.args.text ?? '').slice(0, 300)}`);
    const tenantRuns = () =>
      runs().flatMap((r) => r.tenantRunUids.flatMap((uid) => sim.state.deviceUpgradeRuns.get(uid) ?? []));
    if (kill) {
      // While the runs go: once a unit is upgrading somewhere, SIGKILL the worker and start another.
      const deadline = Date.now() + options.boundS * 1000;
      while (
        runs().length > 0 &&
        !tenantRuns().some((r) => r.status === 'PERFORMING_UPGRADE') &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      const ended = tenantRuns().filter((r) => ENDED.test(r.status)).length;
      await stopChild(worker.child, 'SIGKILL');
      killed = `SIGKILLed the worker with ${ended} of ${tenantRuns().length} tenant runs ended`;
      children.push((await startProcess(world, profiles, 'src/entry/worker.ts')).child);
    }
    // Until every MSP run has its outcome in its card's thread, or the bound.
    const outcomes = () =>
      world.slack.calls
        .slice(slackFrom)
        .filter((c) => isOutcome(c) && threads.includes(String(c.args.thread_ts)));
    const deadline = Date.now() + options.boundS * 1000;
    let told = Date.now();
    for (;;) {
      const named = new Set(outcomes().map((c) => OUTCOME_RUN.exec(String(c.args.text))?.[1]));
      const all = runs();
      if (all.length > 0 && all.every((r) => named.has(r.name))) break;
      if (Date.now() > deadline) {
        console.log(`  [${name}] bound reached: ${named.size} of ${all.length} runs told`);
        break;
      }
      if (Date.now() - told > 15_000) {
        told = Date.now();
        const ended = tenantRuns().filter((r) => ENDED.test(r.status)).length;
        console.log(
          `  [${name}] ${named.size} of ${all.length} runs told; ${ended} of ${tenantRuns().length} tenant runs ended`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A second execution or a late duplicate would show within a few polls.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    scc.stop();

    const posts = outcomes();
    let lost = 0;
    let duplicated = 0;
    const deviceEndToPost: number[] = [];
    const runEndToPost: number[] = [];
    const unexplained: string[] = [];
    for (const run of runs()) {
      const mine = posts.filter((c) => OUTCOME_RUN.exec(String(c.args.text))?.[1] === run.name);
      if (mine.length === 0) lost += 1;
      duplicated += Math.max(0, mine.length - 1);
      const posted = mine[0]?.at;
      const tenant = run.tenantRunUids.flatMap((uid) => sim.state.deviceUpgradeRuns.get(uid) ?? []);
      for (const t of tenant) {
        // What the injected faults say this tenant run must end as.
        const names = t.devices.map((d) => d.name);
        const kinds = names.map((n) => faults.get(n));
        const expected = kinds.includes('READINESS_CHECK')
          ? /STAGING_FAILED|UGPRADE_STAGING_FAILED/
          : kinds.includes('NODE')
            ? /^UPGRADE_FAILED$/
            : /^UPGRADE_COMPLETED$/;
        if (!expected.test(t.status)) unexplained.push(`${t.name} (${names.length} devices): ${t.status}`);
        if (posted === undefined) continue;
        runEndToPost.push(posted - (t.lastUpdatedTime ?? posted));
        for (const end of deviceEnds(t)) deviceEndToPost.push(posted - end);
      }
    }
    // Everything fwbot said in the channel after the commands but the cards themselves and their edits:
    // the announcements in the threads, each run's progress message and its edits, the outcomes.
    const slackMessages = world.slack.calls
      .slice(slackFrom)
      .filter(
        (c) =>
          (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
          c.status === 200 &&
          c.args.channel === CHANNEL &&
          !String(c.args.text ?? '').startsWith('Approval needed') &&
          !(c.method === 'chat.update' && threads.includes(String(c.args.ts))),
      ).length;
    const devices = tenantRuns().reduce((n, t) => n + t.devices.length, 0);
    const follow = ['getMspDeviceUpgradeRun', 'getMspDeviceUpgradeRuns'];
    return {
      name,
      devices,
      runs: runs().length,
      tenantRuns: tenantRuns().length,
      faulted: faults.size,
      unexplained,
      sccCalls: scc.total,
      followCalls: follow.reduce((n, op) => n + (scc.byOperation.get(op) ?? 0), 0),
      slackMessages,
      deviceEndToPost,
      runEndToPost,
      lost,
      duplicated,
      killed,
    };
  } finally {
    scc.stop();
    for (const child of children) await stopChild(child, 'SIGTERM', 10_000);
  }
}

export async function benchUpgrades(options: UpgradesOptions): Promise<Table[]> {
  const dir = await mkdtemp(join(tmpdir(), 'fwbot-bench-upgrades-'));
  try {
    const profiles = await writePolicy(dir, REQUESTER, [APPROVER]);
    const passes = [
      await onePass(options, profiles, 'undisturbed', false),
      await onePass(options, profiles, 'worker SIGKILLed during runs', true),
    ];
    for (const pass of passes) {
      if (pass.killed) console.log(`  [${pass.name}] ${pass.killed}`);
      for (const line of pass.unexplained.slice(0, 10))
        console.log(`  [${pass.name}] tenant run not explained by the faults: ${line}`);
    }
    const s = (ms: number) => num(ms / 1000, 1);
    return [
      {
        title: `Upgrades across tenants: ${options.devices} devices in ${options.tenants} tenants (one ASA in ten an HA pair; ${options.readinessFaults} readiness and ${options.nodeFaults} HA-unit faults), simulator ×${options.speed}, fwbot's own poll schedule; real bot and worker processes`,
        headers: [
          'pass',
          'devices upgraded',
          'MSP runs (tenant runs)',
          'tenant runs unexplained by the faults',
          'SCC calls / device (following)',
          'Slack messages / MSP run',
          'device end → post, median / p95 / max (s)',
          'run end → post, median / max (s)',
          'lost',
          'duplicated',
        ],
        rows: passes.map((p) => [
          p.name,
          String(p.devices),
          `${p.runs} (${p.tenantRuns})`,
          String(p.unexplained.length),
          `${num(ratio(p.sccCalls, p.devices), 2)} (${num(ratio(p.followCalls, p.devices), 2)})`,
          num(ratio(p.slackMessages, p.runs), 1),
          `${s(median(p.deviceEndToPost))} / ${s(percentile(p.deviceEndToPost, 95))} / ${s(Math.max(0, ...p.deviceEndToPost))}`,
          `${s(median(p.runEndToPost))} / ${s(Math.max(0, ...p.runEndToPost))}`,
          String(p.lost),
          String(p.duplicated),
        ]),
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
