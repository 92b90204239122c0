// `npm run bench`: the three benchmarks of issue 8, one after another, each bounded to a couple of
// minutes on a 2-core machine; prints each table as it is measured and writes bench/RESULTS.md with the
// machine they ran on. Flags:
//   --only ack,tracking,scale   run some of them (RESULTS.md is then left alone unless --write)
//   --quick                     smaller sizes and shorter runs (a smoke run; RESULTS.md left alone)
//   --write                     write RESULTS.md even for a partial or quick run
//   --transactions N            tracking benchmark size (default 1000)
//   --scale N                   scale benchmark size (default 10000)
//   --speed X                   simulated ms per real ms in the tracking benchmark (default 10)
//   --seconds S                 seconds per ack cell (default 5)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchAck } from './ack.js';
import { benchScale } from './scale.js';
import { describeMachine, loadAverage, machineLines } from './support/machine.js';
import { markdownTable, type Table } from './support/stats.js';
import { benchTracking } from './tracking.js';

const BENCHMARKS = ['ack', 'tracking', 'scale'] as const;
type Benchmark = (typeof BENCHMARKS)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    transactions: { type: 'string' },
    scale: { type: 'string' },
    speed: { type: 'string' },
    seconds: { type: 'string' },
  },
});

const quick = values.quick === true;
const chosen = (values.only?.split(',') ?? [...BENCHMARKS]).map((name) => name.trim());
for (const name of chosen) {
  if (!BENCHMARKS.some((known) => known === name)) {
    process.stderr.write(`unknown benchmark "${name}"; known: ${BENCHMARKS.join(', ')}\n`);
    process.exit(2);
  }
}
const wanted = (name: Benchmark) => chosen.includes(name);
const numberFlag = (value: string | undefined, fallback: number) =>
  value === undefined ? fallback : Number(value);

async function main(): Promise<void> {
  const machine = describeMachine();
  console.log(`fwbot benchmarks${quick ? ' (quick)' : ''}`);
  for (const line of machineLines(machine)) console.log(line);
  const tables: Table[] = [];
  const show = (table: Table) => {
    tables.push(table);
    console.log(`\n${markdownTable(table)}\n`);
  };
  const started = Date.now();
  if (wanted('ack')) {
    const seconds = numberFlag(values.seconds, quick ? 2 : 5);
    for (const table of await benchAck({
      concurrency: [10, 50, 200],
      rates: quick ? [100] : [100, 300],
      seconds,
      warmupSeconds: quick ? 1 : 2,
      drainSeconds: 30,
    }))
      show(table);
  }
  if (wanted('tracking')) {
    show(
      await benchTracking({
        transactions: numberFlag(values.transactions, quick ? 200 : 1000),
        speed: numberFlag(values.speed, quick ? 30 : 10),
        naiveIntervalsS: quick ? [10] : [5, 10, 30],
        seed: 8,
      }),
    );
  }
  if (wanted('scale')) {
    show(
      await benchScale({
        transactions: numberFlag(values.scale, quick ? 2000 : 10_000),
        finishWithinS: 10,
        workers: [1, 3],
        boundS: quick ? 60 : 150,
        seed: 8,
      }),
    );
  }
  const loadAfter = loadAverage();
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; load average at end ${loadAfter}`);
  const complete = BENCHMARKS.every(wanted) && !quick;
  if (!complete && values.write !== true) {
    console.log('partial or quick run: bench/RESULTS.md left as it was (--write to replace it)');
    return;
  }
  const path = new URL('./RESULTS.md', import.meta.url);
  writeFileSync(path, results(machineLines(machine, loadAfter), tables, quick));
  console.log(`wrote ${path.pathname}`);
}

function results(machine: readonly string[], tables: readonly Table[], isQuick: boolean): string {
  return [
    '# fwbot benchmark results',
    '',
    `Written by \`npm run bench${isQuick ? ' -- --quick' : ''}\` (bench/run.ts); every figure below was measured in that run. The machine is shared: other work running at the same time shows in the load average.`,
    '',
    ...machine,
    '',
    ...tables.flatMap((table) => [markdownTable(table), '']),
  ].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
