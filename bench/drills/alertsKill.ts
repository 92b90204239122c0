// Drill (issue 26): the alert worker SIGKILLed mid-scan and mid-post. An MSP world of 1,000 devices across
// 20 managed tenants, one channel subscribed to connectivity across them all, a fwbot worker process on a
// compressed schedule; after its baseline, the events benchmark's timetable (a burst of 300 devices going
// offline at once and coming back together, flapping devices, single devices). Meanwhile the worker is
// killed and a new one started each time:
// - mid-scan, as the burst happens: the simulator holds the device list the scan reads, and the worker
//   dies with the request unanswered;
// - mid-post, right after: Slack accepts the desk's next post but holds its answer, and the worker dies
//   not knowing it was posted;
// - mid-edit, as the burst comes back: the same for the edit of its summary;
// - then every few seconds while scans run (lists slowed a little so they take a while), saying for each
//   kill whether a scan was under way.
// Every transition must be shown exactly once and the burst in at most 5 messages.
import type { ChildProcess } from 'node:child_process';
import { seededRandom } from '../support/stats.js';
import { stopWorkers } from '../support/workers.js';
import { startWorld } from '../support/world.js';
import {
  BURST,
  COMPRESS,
  DEVICES,
  drillCore,
  drillTimetable,
  dump,
  gist,
  Injector,
  killWorker,
  ScanProbe,
  settle,
  startDrillWorker,
  subscribe,
  TENANTS,
  underWay,
  untilBaseline,
  untilCall,
  verdict,
} from './alertsDrill.js';
import { type Drill, sleep } from './drill.js';

/** Kills at short intervals after the burst's return, while scans run. */
const REPEATED_KILLS = 6;

export const alertsKillDrill: Drill = {
  name: 'alerts-kill',
  summary: `SIGKILL the alert worker mid-scan and mid-post during a burst of ${BURST} devices offline (${DEVICES.toLocaleString('en-US')} devices, ${TENANTS} tenants): every transition told once`,
  async run() {
    const world = await startWorld({
      sim: { clock: 'real', speed: COMPRESS, scale: { tenants: TENANTS, devices: DEVICES } },
    });
    const prefix = 'drill-alerts-kill';
    const core = drillCore(world.redis.url, prefix);
    const probe = new ScanProbe(world.sim, core);
    const did: string[] = [];
    const findings: string[] = [];
    let worker: ChildProcess | undefined;
    let kills = 0;
    const restart = async () => {
      worker = await startDrillWorker(world, { prefix });
      injector.resume();
    };
    const kill = async () => {
      if (!worker) throw new Error('no worker to kill');
      kills += 1;
      const at = await killWorker(worker, probe);
      worker = undefined;
      injector.pause();
      // A scan job may still look active after its worker died (until BullMQ notices): the SCC read the
      // simulator holds is what says a scan is under way.
      return { ...at, inScan: at.lists > 0 };
    };
    const injector = new Injector(world.sim, drillTimetable(world.sim));
    try {
      await subscribe(core);
      const startedAt = Date.now();
      await restart();
      await untilBaseline(core);
      did.push(
        `${DEVICES.toLocaleString('en-US')} devices across ${TENANTS} managed tenants, time compressed ${COMPRESS}×; ${world.slack.calls.length === 0 ? 'nothing' : `${world.slack.calls.length} Slack calls`} told by the baseline scan, ${((Date.now() - startedAt) / 1000).toFixed(1)} s after the worker started`,
      );
      injector.start();
      did.push(`injected ${injector.describe()}`);
      const { offS, backS } = injector.burstTimes();

      // Mid-scan: the device list that will show the burst is held by the simulator when the worker dies.
      await injector.at(offS);
      probe.slowLists(2_000);
      const held = await probe.untilHeld(10_000);
      await sleep(300);
      const midScan = await kill();
      probe.slowLists(0);
      did.push(
        `SIGKILLed the worker mid-scan as the burst happened (${held ? '' : 'no list request was held within 10 s; '}${underWay(midScan)})`,
      );
      // Mid-post: Slack accepts the desk's next post (the burst's summary, or an incident that came with it)
      // and holds its answer while the worker dies.
      world.slack.holdResponses('chat.postMessage', 2);
      let since = world.slack.calls.length;
      await restart();
      const post = await untilCall(world.slack, 'chat.postMessage', since, 30_000);
      const midPost = await kill();
      const unanswered = world.slack.releaseHeld();
      world.slack.holdResponses('chat.postMessage', 0);
      did.push(
        `started a new worker; SIGKILLed it mid-post: Slack had accepted ${unanswered} post${unanswered === 1 ? '' : 's'} it never answered (${post ? `“${gist(post)}”` : 'none within 30 s'}; ${underWay(midPost)})`,
      );
      await restart();

      // Mid-edit: the burst comes back; Slack accepts the edit of its summary and holds the answer.
      await injector.at(backS);
      world.slack.holdResponses('chat.update', 1);
      since = world.slack.calls.length;
      const edit = await untilCall(world.slack, 'chat.update', since, 30_000);
      const midEdit = await kill();
      const unansweredEdits = world.slack.releaseHeld();
      world.slack.holdResponses('chat.update', 0);
      did.push(
        `started a new worker; as the burst came back, SIGKILLed it mid-edit: ${unansweredEdits} edit${unansweredEdits === 1 ? '' : 's'} accepted and unanswered (${edit ? `“${gist(edit)}”` : 'none within 30 s'}; ${underWay(midEdit)})`,
      );
      await restart();

      // Repeated kills while the flapping and single devices come and go; lists answer 300 ms late, so a
      // scan takes a while. Every other kill lands while a list is held (the scan reading), the others
      // as soon as a list is answered (the scan comparing, committing its state and events, handing them
      // over to the desk).
      probe.slowLists(300);
      const random = seededRandom(2026);
      const repeated: string[] = [];
      let inScans = 0;
      for (let i = 0; i < REPEATED_KILLS; i += 1) {
        await sleep(1_000 + Math.floor(random() * 1_500));
        if (i % 2 === 0) {
          await probe.untilHeld(5_000);
          await sleep(Math.floor(random() * 200));
          const at = await kill();
          repeated.push(at.inScan ? 'reading' : 'between scans');
          if (at.inScan) inScans += 1;
        } else {
          const ago = await probe.untilAnswered(5_000);
          const at = await kill();
          repeated.push(ago === undefined ? 'no list answered' : `${ago} ms after a list answered`);
          if (ago !== undefined || at.inScan) inScans += 1;
        }
        await restart();
      }
      probe.slowLists(0);
      did.push(
        `then SIGKILLed the worker ${REPEATED_KILLS} more times 1–2.5 s apart (lists answering 300 ms late), starting a new one each time, ${inScans} of them during a scan: ${repeated.join('; ')}`,
      );
      const during = [midScan, midPost, midEdit].filter((at) => at.inScan).length + inScans;
      did.push(
        `${kills} SIGKILLs in all, ${during} of them while a scan was under way; the timetable stood still for ${injector.pausedSeconds().toFixed(1)} s in all while no worker ran`,
      );

      const complete = await settle(world.slack, injector, 60_000);
      dump(world.slack, world.sim, injector, did);
      const result = await verdict(world.slack, core, injector, complete);
      did.push(result.did);
      findings.push(...result.findings, `jobs failed for good: ${await probe.failures()}`);
      return {
        did,
        findings,
        lost: result.lost,
        duplicated: result.duplicated,
        ...(result.failed ? { failed: true } : {}),
      };
    } finally {
      if (worker) await stopWorkers([worker]);
      await probe.close();
      await core.close();
      await world.stop();
    }
  },
};
