// Drill (issue 36 item 12): the worker process SIGKILLed between an access request's deploy and its
// verification; a new worker takes over; the rule is verified exactly once and deployed once. The real
// fwbot (a front with BOT_WORKERS=off and `npm run worker` processes), a real redis-server, the fake
// Slack, the simulator at SCC's pace behind the attributing proxy (bench/support/sccProxy.ts), whose hook
// kills the worker after SCC acted on a call and before the worker hears the answer. Two rounds, each a
// request asked and approved through Slack:
//   1. killed as the verification's read of the deploy run that finds it ended is answered (the deploy is
//      over, packet-tracer has not run);
//   2. killed as the verification's packet-tracer reaches SCC (the device runs it; the worker never learns
//      the run's transaction).
// Counted in each round: thread posts that say the verdict, packet-tracer runs on the device after the
// approval (the simulator's record of command lines), deploys of the device after the approval.
import type { ChildProcess } from 'node:child_process';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import {
  type AccessWorld,
  approve,
  ask,
  postText,
  startAccessWorld,
  threadPosts,
} from '../support/accessWorld.js';
import { stopChild } from '../support/processes.js';
import type { ProxiedCall } from '../support/sccProxy.js';
import type { Drill } from './drill.js';
import { until } from './drill.js';

type KillPoint = 'deploy-ended' | 'packet-tracer-started';

const KILL_POINTS: readonly { point: KillPoint; says: string }[] = [
  {
    point: 'deploy-ended',
    says: "as the worker's read that finds the deploy run ended was answered (packet-tracer not yet run)",
  },
  {
    point: 'packet-tracer-started',
    says: "as the verification's packet-tracer reached SCC (its transaction never reached the worker)",
  },
];

interface Armed {
  point: KillPoint;
  deviceUid: string;
  fired: boolean;
}

export const accessKillDrill: Drill = {
  name: 'access',
  summary:
    'an access request’s worker SIGKILLed between its deploy and its verification: a new worker verifies it exactly once, one deploy',
  // Two rounds at SCC's pace, each with a worker's start and a takeover of its jobs (BullMQ's lock of 30 s,
  // then a stall check every 30 s), on a loaded machine.
  boundMs: 12 * 60_000,
  async run() {
    const started = Date.now();
    const progress = (line: string) =>
      console.log(`  .. ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s ${line}`);
    let armed: Armed | undefined;
    let aw: AccessWorld | undefined;
    let worker: ChildProcess | undefined;
    const kill = async (call: ProxiedCall, answer: unknown) => {
      const a = armed;
      if (!a || a.fired || call.device !== a.deviceUid || !worker) return;
      const hit =
        a.point === 'deploy-ended'
          ? call.operation === 'getDeviceDeploymentRuns' &&
            JSON.stringify(answer).includes('DEPLOY_COMPLETED')
          : call.operation === 'executeCliCommand';
      if (!hit) return;
      a.fired = true;
      await stopChild(worker, 'SIGKILL');
    };
    aw = await startAccessWorld({ devices: 1, speed: 1, beforeAnswer: kill });
    worker = aw.worker;
    const did: string[] = [];
    const findings: string[] = [];
    let lost = 0;
    let duplicated = 0;
    let failed = false;
    try {
      const device = aw.devices[0] ?? 'asa-dc-03';
      const deviceUid = aw.world.sim.deviceUid(device).toLowerCase();
      const sim = aw.world.sim;
      const tracesOnDevice = () =>
        receivedCliScripts(sim.state).filter(
          (s) =>
            s.script.startsWith('packet-tracer') &&
            Array.isArray(s.deviceUids) &&
            s.deviceUids.some((u) => u.toLowerCase() === deviceUid),
        ).length;
      const deploysOfDevice = () =>
        [...sim.state.deploymentRuns.values()].filter((run) =>
          run.devices.some((d) => d.uid.toLowerCase() === deviceUid),
        ).length;
      for (const [round, { point, says }] of KILL_POINTS.entries()) {
        const channel = `C0ACCDRL0${round + 1}`;
        const port = 12_000 + round;
        const text = `access request ${device} tcp 198.51.100.0/24 172.20.41.0/24 ${port} --in outside --reason "drill ${round + 1}"`;
        progress(`round ${round + 1}: asking`);
        const asked = await ask(aw, channel, text, 120_000);
        if (asked.kind !== 'card') throw new Error(`round ${round + 1}: no card: ${asked.text}`);
        const tracesBefore = tracesOnDevice();
        const deploysBefore = deploysOfDevice();
        armed = { point, deviceUid, fired: false };
        await approve(aw, channel, asked.card, round + 1);
        progress(`round ${round + 1}: card posted; approved`);
        const firedInTime = await until(() => armed?.fired === true, 180_000, 50);
        progress(`round ${round + 1}: worker SIGKILLed ${says}`);
        if (!firedInTime) throw new Error(`round ${round + 1}: the kill point was never reached`);
        const tracesAtKill = tracesOnDevice() - tracesBefore;
        worker = await aw.startWorker();
        progress(`round ${round + 1}: a new worker is ready`);
        const verdict = /verified: ALLOW|NOT verified/;
        const ended = await until(
          () => threadPosts(aw as AccessWorld, channel, asked.card).some((p) => verdict.test(postText(p))),
          240_000,
          200,
        );
        progress(
          `round ${round + 1}: ${ended ? 'the verdict is posted' : 'no verdict'}; watching 20 s for a second`,
        );
        // Time for a second verification, if there were to be one, to show itself (the follow kind's cap).
        await new Promise((resolve) => setTimeout(resolve, 20_000));
        const posts = threadPosts(aw, channel, asked.card).map(postText);
        const verifiedPosts = posts.filter(
          (p) => /verified: ALLOW/.test(p) && !/NOT verified/.test(p),
        ).length;
        const notVerified = posts.filter((p) => /NOT verified/.test(p)).length;
        const traces = tracesOnDevice() - tracesBefore;
        const deploys = deploysOfDevice() - deploysBefore;
        did.push(
          `round ${round + 1}: asked and approved \`/fw ${text}\`; the worker SIGKILLed ${says}, with ${tracesAtKill} packet-tracer run${tracesAtKill === 1 ? '' : 's'} on the device by then; a new worker started`,
        );
        findings.push(
          `round ${round + 1} (${point}): "verified: ALLOW" posts ${verifiedPosts}, "NOT verified" posts ${notVerified}, packet-tracer runs after the approval ${traces}, deploys ${deploys}${ended ? '' : ' (no verdict within 240 s)'}`,
        );
        if (verifiedPosts + notVerified === 0) lost += 1;
        duplicated += Math.max(0, verifiedPosts + notVerified - 1) + Math.max(0, deploys - 1);
        if (notVerified > 0 || deploys !== 1) failed = true;
        // The kill before packet-tracer leaves it to the new worker: one run. The kill after it reached SCC
        // leaves a run the new worker never heard of: it starts its own (a read), so two.
        const expectedTraces = point === 'deploy-ended' ? 1 : 2;
        if (traces !== expectedTraces) {
          failed = true;
          findings.push(`round ${round + 1}: expected ${expectedTraces} packet-tracer runs, saw ${traces}`);
        }
      }
      return { did, lost, duplicated, findings, ...(failed ? { failed: true } : {}) };
    } finally {
      armed = undefined;
      await aw.stop();
    }
  },
};
