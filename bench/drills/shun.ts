// Drill (issue 38): 50 shuns with their ends over 20 simulator ASAs on the simulator's manual clock, a
// failover in the middle on a device with active shuns, and the process that runs the shuns' ends
// (bench/drills/shunWorker.ts: fwbot's pass over timed work) SIGKILLed at an expiry minute, right as it
// sends `no shun`. Each shun is placed by the real `/fw shun` operation (its impact read, `shun` sent, its
// end scheduled); the drill then moves the clock a minute at a time, samples every device's live shun list
// in the simulator before each pass, and at the end counts the `no shun` lines the simulator received per
// device and address. A failover drops the device's shuns at once (an ASA does not replicate them): the
// failover minute on that device is the gap fwbot's re-apply (the shun-guard timed kind) closes, counted
// apart, and every shun it dropped must be back after that minute's pass. A shun missing from its device
// during any other minute it was active is lost; a `no shun` sent more than once is duplicated; a shun whose end never sent `no shun`, or one left on a device or in
// the timed work at the end, fails the drill.
//
// Without the re-apply the failed-over device's shuns are missing until their ends, and this drill says so
// and fails. The killed process runs fwbot's pass over timed work, where the re-apply runs.
import type { ChildProcess } from 'node:child_process';
import pino from 'pino';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { operationContext } from '../../src/dispatch/context.js';
import { createJobs } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { driveClock } from '../../test/support/driveClock.js';
import { spawnTsx, stopChild, waitForLine } from '../support/processes.js';
import { startWorld, type World } from '../support/world.js';
import type { Drill } from './drill.js';

const SHUNS = 50;
const DEVICES = 20;
const MINUTE = 60_000;
/** The shuns last 10 to 59 minutes; the failover comes at minute 20, the kill at the first expiry after 30. */
const FAILOVER_MINUTE = 20;
const KILL_AFTER_MINUTE = 30;
const LAST_MINUTE = 62;
const PREFIX = 'drill-shun';
/** A dead process's claim lapses after 30 s of the drill's clock: the next minute's pass takes it over. */
const SCHEDULE = { timed: { leaseMs: 30_000, passEveryMs: 5_000, batch: 50, concurrency: 4 } };
const WORKER_ENTRY = new URL('./shunWorker.ts', import.meta.url).pathname;
const log = pino({ level: 'silent' });

interface PlacedShun {
  address: string;
  device: string;
  deviceUid: string;
  placedAt: number;
  until: number;
  /** Minutes it was active and missing from its device. */
  missing: number[];
}

/** The seed's three ASAs of the default tenant, and clones of the HA pair asa-dc-03 up to `count`. */
function twentyAsas(sim: SimulatorHandle, count: number): string[] {
  const names = ['asa-hq-01', 'asa-branch-02', 'asa-dc-03'];
  const pair = sim.state.devices.get(sim.deviceUid('asa-dc-03'));
  if (!pair) throw new Error('the simulator has no asa-dc-03');
  for (let i = names.length + 1; i <= count; i += 1) {
    const name = `asa-drill-${String(i).padStart(2, '0')}`;
    const uid = `d0d0d0d0-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const copy = structuredClone(pair);
    copy.device = { ...copy.device, uid, name };
    sim.state.devices.set(uid, copy);
    names.push(name);
  }
  return names;
}

function startWorker(world: World, at: number): Promise<ChildProcess> {
  const child = spawnTsx(WORKER_ENTRY, [], {
    env: {
      REDIS_URL: world.redis.url,
      PREFIX,
      SIM_URL: world.sim.url,
      SIM_TOKEN: world.sim.tokens.superAdmin,
      SCHEDULE: JSON.stringify(SCHEDULE),
      START_AT: String(at),
      LOG_LEVEL: process.env.BENCH_WORKER_LOG ?? 'silent',
    },
  });
  return waitForLine(child, /ready/, 60_000).then(() => child);
}

/** One pass of the worker at `at`, the simulator's clock driven while it runs the command lines. */
async function pass(world: World, worker: ChildProcess, at: number): Promise<void> {
  const answered = waitForLine(worker, /^(passed|failed) .*$/m, 120_000);
  worker.stdin?.write(`pass ${at}\n`);
  const [line] = await driveClock(world.sim.clock, answered, { stepMs: 500, maxSteps: 2_000 });
  if (line.startsWith('failed')) throw new Error(`the worker's pass ${line}`);
}

const noShunsSent = (sim: SimulatorHandle, shun: PlacedShun) =>
  receivedCliScripts(sim.state).filter(
    (s) =>
      s.script === `no shun ${shun.address}` &&
      Array.isArray(s.deviceUids) &&
      s.deviceUids.includes(shun.deviceUid),
  ).length;

export const shunDrill: Drill = {
  name: 'shun',
  summary: `${SHUNS} shuns with ends over ${DEVICES} ASAs, a failover mid-way, the timed-work process SIGKILLed at an expiry: each shun on its device while active, one \`no shun\` each, nothing left`,
  async run() {
    const world = await startWorld();
    const sim = world.sim;
    const did: string[] = [];
    const findings: string[] = [];
    const jobs = createJobs({
      redisUrl: world.redis.url,
      prefix: PREFIX,
      logger: log,
      clock: () => sim.clock.now(),
    });
    const scc = createSccClient({
      baseUrl: sim.url,
      token: sim.tokens.superAdmin,
      profile: 'default',
      logger: log,
    });
    let worker: ChildProcess | undefined;
    try {
      const names = twentyAsas(sim, DEVICES);
      const catalogue = createCatalogue();
      const shun = catalogue.get('shun');
      if (!shun?.target) throw new Error('the catalogue has no shun operation with a target');
      const ctx = operationContext(
        {
          scc: sccClientsFrom(new Map([['default', scc]])),
          services: { timed: jobs.timed },
          clock: () => sim.clock.now(),
        },
        { actor: { userId: 'U0DRILL', channelId: 'C0DRILL' }, requestId: 'drill-shun', log },
        'default',
      );
      // Placed by the operation itself: the impact read, `shun` sent, its end scheduled. Every ASA gets
      // two or three; they last 10 to 59 minutes.
      const placed: PlacedShun[] = [];
      const placing = Date.now();
      for (let i = 0; i < SHUNS; i += 1) {
        const device = names[i % DEVICES] ?? '';
        const address = `198.51.100.${i + 10}`;
        const minutes = 10 + ((i * 17) % 50);
        const raw = { address, devices: device, for: `${minutes}m`, reason: `drill shun ${i + 1}` };
        const resolved = await driveClock(sim.clock, shun.target.resolve(ctx, raw), { stepMs: 500 });
        const placedAt = sim.clock.now();
        await driveClock(sim.clock, shun.execute(ctx, resolved.raw, resolved.facts), { stepMs: 500 });
        placed.push({
          address,
          device,
          deviceUid: sim.deviceUid(device),
          placedAt,
          until: placedAt + minutes * MINUTE,
          missing: [],
        });
      }
      const ends = await jobs.timed.list({ kind: 'shun-expiry' });
      for (const s of placed) {
        const end = ends.find((e) => e.what === `no shun ${s.address} on ${s.device}`);
        if (end) s.until = end.dueAt;
      }
      const onDevices = placed.filter((s) =>
        (sim.state.shuns.get(s.deviceUid) ?? []).some((r) => r.address === s.address),
      );
      did.push(
        `placed ${SHUNS} shuns with /fw shun's operation on ${DEVICES} ASAs (3 of the seed, ${DEVICES - 3} clones of the HA pair asa-dc-03), 10–59 minutes each, in ${((Date.now() - placing) / 1000).toFixed(1)} s: ${onDevices.length} on their devices, ${ends.length} ends scheduled`,
      );

      const start = sim.clock.now();
      worker = await startWorker(world, start);
      let failover: { device: string; lost: number } | undefined;
      let kill: string | undefined;
      let kills = 0;
      let samples = 0;
      let reapplied: { of: number; back: number } | undefined;
      for (let minute = 1; minute <= LAST_MINUTE; minute += 1) {
        const at = Math.max(start + minute * MINUTE, sim.clock.now());
        sim.clock.advance(at - sim.clock.now());
        if (minute === FAILOVER_MINUTE) {
          const victim =
            placed.find((s) => s.until > at && s.device === 'asa-dc-03') ?? placed.find((s) => s.until > at);
          if (victim) {
            const before = (sim.state.shuns.get(victim.deviceUid) ?? []).length;
            const res = await fetch(`${sim.url}/_sim/devices/${victim.device}/failover`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ action: 'switch' }),
            });
            if (!res.ok) throw new Error(`failover of ${victim.device}: ${res.status}`);
            failover = { device: victim.device, lost: before };
          }
        }
        // What the devices hold now, before this minute's pass: every shun active now must be there.
        for (const s of placed) {
          if (s.placedAt > at || s.until <= at) continue;
          samples += 1;
          if (!(sim.state.shuns.get(s.deviceUid) ?? []).some((r) => r.address === s.address))
            s.missing.push(minute);
        }
        const dueNow = placed.filter((s) => s.until <= at && s.until > at - MINUTE);
        if (kill === undefined && minute > KILL_AFTER_MINUTE && dueNow.length > 0 && worker) {
          // SIGKILL as the first `no shun` of this minute reaches the simulator.
          const sentBefore = receivedCliScripts(sim.state).filter((s) =>
            s.script.startsWith('no shun'),
          ).length;
          const answered = waitForLine(worker, /^(passed|failed) /m, 120_000).catch(() => undefined);
          worker.stdin?.write(`pass ${at}\n`);
          for (let step = 0; step < 2_000; step += 1) {
            const sent = receivedCliScripts(sim.state).filter((s) => s.script.startsWith('no shun')).length;
            if (sent > sentBefore) break;
            sim.clock.advance(500);
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
          await stopChild(worker, 'SIGKILL');
          await answered;
          kills += 1;
          kill = `minute ${minute}, ${dueNow.length} end${dueNow.length === 1 ? '' : 's'} due, killed as the first \`no shun\` reached the simulator`;
          worker = await startWorker(world, sim.clock.now());
          continue;
        }
        if (worker) await pass(world, worker, at);
        if (minute === FAILOVER_MINUTE && failover) {
          // Right after this minute's pass: the failed-over device's active shuns are back (shun-guard).
          const lostThere = placed.filter(
            (s) => s.device === failover?.device && s.placedAt <= at && s.until > at,
          );
          reapplied = {
            of: lostThere.length,
            back: lostThere.filter((s) =>
              (sim.state.shuns.get(s.deviceUid) ?? []).some((r) => r.address === s.address),
            ).length,
          };
        }
      }
      // Past every end and the dead process's lease: a last pass settles whatever is left.
      sim.clock.advance(5 * MINUTE);
      if (worker) await pass(world, worker, sim.clock.now());

      const once = placed.filter((s) => noShunsSent(sim, s) === 1).length;
      const never = placed.filter((s) => noShunsSent(sim, s) === 0);
      const twice = placed.filter((s) => noShunsSent(sim, s) > 1);
      const leftOnDevices = [...sim.state.shuns.values()].flat().length;
      const leftEnds = (await jobs.timed.list({ kind: 'shun-expiry' })).length;
      const history = await jobs.timed.history({ kind: 'shun-expiry' });
      // A failover drops the device's shuns at once (an ASA does not replicate them); fwbot cannot have them
      // back before it looks. So the failover minute on that device is the gap re-applying closes, counted
      // apart; a shun missing at any other minute is lost.
      const atFailover = (s: PlacedShun, minute: number) =>
        minute === FAILOVER_MINUTE && s.device === failover?.device;
      const missingMinutes = placed.reduce(
        (n, s) => n + s.missing.filter((m) => !atFailover(s, m)).length,
        0,
      );
      const gapMinutes = placed.reduce((n, s) => n + s.missing.filter((m) => atFailover(s, m)).length, 0);
      const missingShuns = placed.filter((s) => s.missing.some((m) => !atFailover(s, m)));
      did.push(
        `failover at minute ${FAILOVER_MINUTE} on ${failover?.device ?? 'no device'} (${failover?.lost ?? 0} active shuns lost by the device); SIGKILL: ${kill ?? 'none (no end due after minute 30)'}`,
      );
      const rows: [string, string][] = [
        ['shuns placed / devices', `${SHUNS} / ${DEVICES}`],
        ['minutes simulated', String(LAST_MINUTE + 5)],
        ['active shun-minutes sampled', String(samples)],
        ['shun-minutes missing at the failover (dropped by it)', String(gapMinutes)],
        [
          'of those, re-applied by the pass of that minute',
          reapplied ? `${reapplied.back} of ${reapplied.of}` : 'no failover',
        ],
        ['shun-minutes missing otherwise (lost)', String(missingMinutes)],
        ['shuns missing for a while', String(missingShuns.length)],
        ['`no shun` sent exactly once', `${once} of ${SHUNS}`],
        ['`no shun` never sent', String(never.length)],
        ['`no shun` sent more than once', String(twice.length)],
        ['shuns left on devices at the end', String(leftOnDevices)],
        ['ends left in the timed work', String(leftEnds)],
        [
          'ends in history (done / failed)',
          `${history.filter((h) => h.state === 'done').length} / ${history.filter((h) => h.state === 'failed').length}`,
        ],
        ['processes SIGKILLed', String(kills)],
      ];
      const width = Math.max(...rows.map(([k]) => k.length));
      for (const [k, v] of rows) findings.push(`${k.padEnd(width)}  ${v}`);
      for (const s of missingShuns)
        findings.push(
          `${s.address} on ${s.device} missing at minutes ${s.missing[0]}–${s.missing.at(-1)} (${s.missing.length} of its active minutes), its end ${noShunsSent(sim, s) === 0 ? 'found it gone and sent nothing' : 'sent `no shun`'}`,
        );
      const failed =
        never.length > 0 ||
        leftOnDevices > 0 ||
        leftEnds > 0 ||
        once + twice.length + never.length !== SHUNS ||
        (reapplied !== undefined && reapplied.back < reapplied.of);
      return {
        did,
        findings,
        lost: missingMinutes,
        duplicated: twice.reduce((n, s) => n + noShunsSent(sim, s) - 1, 0),
        ...(failed ? { failed: true } : {}),
      };
    } finally {
      if (worker) await stopChild(worker, 'SIGKILL');
      await scc.close();
      await jobs.close();
      await world.stop();
    }
  },
};
