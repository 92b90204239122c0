// `npm run drills [name…]`: the resilience drills of issue 8, one after another (all of them when no
// name is given). Each prints what it did, what was lost and what was duplicated; the run exits 1 when
// any drill lost or duplicated something, failed a check, or did not finish within its bound.
//
// A run of every drill (or any run with --write) also replaces the drill section of bench/RESULTS.md
// with what it printed, the machine and the run time; `--note TEXT` (repeatable) adds a line about the
// conditions of the run. FUZZ_RUNS sets the fuzz drill's size (default 100,000).
import { parseArgs } from 'node:util';
import { describeMachine, loadAverage, machineLines } from '../support/machine.js';
import { RESULTS_PATH, writeDrillsPart } from '../support/results.js';
import { accessKillDrill } from './accessKill.js';
import { alertsFailoverDrill } from './alertsFailover.js';
import { alertsKillDrill } from './alertsKill.js';
import { approvalsDrill } from './approvals.js';
import type { Drill, DrillReport } from './drill.js';
import { clusterDrill, sentinelDrill } from './failover.js';
import { forgedDrill } from './forged.js';
import { fuzzDrill } from './fuzz.js';
import { killWorkerDrill } from './killWorker.js';
import { redisRestartDrill } from './redisRestart.js';
import { sccFaultsDrill } from './sccFaults.js';
import { shunDrill } from './shun.js';
import { slackRateLimitDrill } from './slackRateLimit.js';

const DRILLS: readonly Drill[] = [
  killWorkerDrill,
  redisRestartDrill,
  sccFaultsDrill,
  slackRateLimitDrill,
  approvalsDrill,
  sentinelDrill,
  clusterDrill,
  fuzzDrill,

  forgedDrill,
  alertsKillDrill,
  alertsFailoverDrill,
  shunDrill,
  accessKillDrill,
];
const BOUND_MS = 5 * 60_000;

function bounded(drill: Drill): Promise<DrillReport> {
  let timer: NodeJS.Timeout | undefined;
  const bound = drill.boundMs ?? BOUND_MS;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${bound / 1000} s`)), bound);
  });
  return Promise.race([drill.run(), timeout]).finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { write: { type: 'boolean', default: false }, note: { type: 'string', multiple: true } },
  });
  const names = positionals;
  const unknown = names.filter((name) => !DRILLS.some((drill) => drill.name === name));
  if (unknown.length > 0) {
    console.error(`unknown drill ${unknown.join(', ')}; known: ${DRILLS.map((d) => d.name).join(', ')}`);
    return 2;
  }
  const chosen = names.length > 0 ? DRILLS.filter((drill) => names.includes(drill.name)) : DRILLS;
  const machine = describeMachine();
  const runStarted = Date.now();
  const summary: string[] = [];
  /** What was printed, for RESULTS.md. */
  const printed: string[] = [];
  const say = (line: string) => {
    console.log(line);
    printed.push(line);
  };
  let bad = 0;
  for (const drill of chosen) {
    say(`\n== ${drill.name}: ${drill.summary}`);
    const started = Date.now();
    try {
      const report = await bounded(drill);
      for (const line of report.did) say(`  did: ${line}`);
      for (const line of report.findings) say(`  found: ${line}`);
      say(`  lost: ${report.lost}   duplicated: ${report.duplicated}`);
      const ok = report.lost === 0 && report.duplicated === 0 && report.failed !== true;
      if (!ok) bad += 1;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      summary.push(
        `${ok ? 'PASS' : 'FAIL'} ${drill.name.padEnd(14)} lost ${report.lost}, duplicated ${report.duplicated}${report.failed ? ', a check failed' : ''} (${seconds} s)`,
      );
    } catch (error) {
      bad += 1;
      say(`  error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      summary.push(
        `FAIL ${drill.name.padEnd(14)} did not complete: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  say('\n== summary');
  for (const line of summary) say(`  ${line}`);
  const seconds = ((Date.now() - runStarted) / 1000).toFixed(0);
  say(`${chosen.length - bad} passed, ${bad} failed, in ${seconds} s`);
  if (chosen.length === DRILLS.length || values.write === true) {
    const fuzzRuns = process.env.FUZZ_RUNS ?? '100000 (default)';
    writeDrillsPart(
      [
        '## Resilience drills',
        '',
        `Written by \`${names.length > 0 ? `npm run drills -- ${names.join(' ')}` : 'npm run drills'}\` (bench/drills/run.ts) with FUZZ_RUNS=${fuzzRuns}; everything below is what that run printed.`,
        '',
        ...machineLines(machine, loadAverage()),
        `- Run time: ${seconds} s`,
        ...(values.note ?? []).map((note) => `- Conditions: ${note}`),
        '',
        '```',
        ...printed.join('\n').trim().split('\n'),
        '```',
      ].join('\n'),
    );
    console.log(`wrote the drill section of ${RESULTS_PATH}`);
  }
  return bad === 0 ? 0 : 1;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
