// `npm run drills [name…]`: the resilience drills of issue 8, one after another (all of them when no
// name is given). Each prints what it did, what was lost and what was duplicated; the run exits 1 when
// any drill lost or duplicated something, failed a check, or did not finish within its bound.
import { approvalsDrill } from './approvals.js';
import type { Drill, DrillReport } from './drill.js';
import { forgedDrill } from './forged.js';
import { fuzzDrill } from './fuzz.js';
import { killWorkerDrill } from './killWorker.js';
import { redisRestartDrill } from './redisRestart.js';
import { sccFaultsDrill } from './sccFaults.js';
import { slackRateLimitDrill } from './slackRateLimit.js';

const DRILLS: readonly Drill[] = [
  killWorkerDrill,
  redisRestartDrill,
  sccFaultsDrill,
  slackRateLimitDrill,
  approvalsDrill,
  fuzzDrill,

  forgedDrill,
];
const BOUND_MS = 5 * 60_000;

function bounded(drill: Drill): Promise<DrillReport> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${BOUND_MS / 1000} s`)), BOUND_MS);
  });
  return Promise.race([drill.run(), timeout]).finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  const names = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = names.filter((name) => !DRILLS.some((drill) => drill.name === name));
  if (unknown.length > 0) {
    console.error(`unknown drill ${unknown.join(', ')}; known: ${DRILLS.map((d) => d.name).join(', ')}`);
    return 2;
  }
  const chosen = names.length > 0 ? DRILLS.filter((drill) => names.includes(drill.name)) : DRILLS;
  const summary: string[] = [];
  let bad = 0;
  for (const drill of chosen) {
    console.log(`\n== ${drill.name}: ${drill.summary}`);
    const started = Date.now();
    try {
      const report = await bounded(drill);
      for (const line of report.did) console.log(`  did: ${line}`);
      for (const line of report.findings) console.log(`  found: ${line}`);
      console.log(`  lost: ${report.lost}   duplicated: ${report.duplicated}`);
      const ok = report.lost === 0 && report.duplicated === 0 && report.failed !== true;
      if (!ok) bad += 1;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      summary.push(
        `${ok ? 'PASS' : 'FAIL'} ${drill.name.padEnd(14)} lost ${report.lost}, duplicated ${report.duplicated}${report.failed ? ', a check failed' : ''} (${seconds} s)`,
      );
    } catch (error) {
      bad += 1;
      console.log(`  error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      summary.push(
        `FAIL ${drill.name.padEnd(14)} did not complete: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  console.log('\n== summary');
  for (const line of summary) console.log(`  ${line}`);
  console.log(`${chosen.length - bad} passed, ${bad} failed`);
  return bad === 0 ? 0 : 1;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
