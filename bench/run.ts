// `npm run bench`: the benchmarks of issue 8, and the upgrades benchmark of issue 37, one after another, each bounded to a couple of
// minutes on a 2-core machine; prints each table as it is measured and writes bench/RESULTS.md with the
// machine they ran on (the upgrades benchmark in a part of its own). Flags:
//   --only ack,tracking,scale,events,upgrades   run some of them (RESULTS.md is then left alone unless --write)
//   --quick                     smaller sizes and shorter runs (a smoke run; RESULTS.md left alone)
//   --write                     write RESULTS.md even for a partial or quick run
//   --transactions N            tracking benchmark size (default 1000)
//   --scale N                   scale benchmark size (default 10000)
//   --speed X                   how much faster the simulator's work goes, tracking benchmark (default 10)
//   --mixed-speed X             the same for its mixed workload (default 4: its 2 s poller reads most)
//   --seconds S                 seconds per ack cell (default 5)
//   --devices N                 events benchmark: devices across its managed tenants (default 10000)
//   --compress X                events benchmark: how many times faster than SCC's its time goes (default 6)
//   --upgrade-devices N         upgrades benchmark: devices across its 50 managed tenants (default 500)
//   --upgrade-speed X           upgrades benchmark: how much faster the simulator's upgrade runs go (default 20)
//   --note TEXT                 a line about the conditions of the run for RESULTS.md (repeatable), e.g.
//                               --note "another engineer ran the test suite at the same time"
// RESULTS.md also records how long each benchmark and the whole run took.
import { parseArgs } from 'node:util';
import { benchAck } from './ack.js';
import { benchEvents } from './events.js';
import { benchScale } from './scale.js';
import { describeMachine, loadAverage, machineLines } from './support/machine.js';
import { RESULTS_PATH, writeBenchPart, writeUpgradesPart } from './support/results.js';
import { markdownTable, type Table } from './support/stats.js';
import { benchTracking } from './tracking.js';
import { benchUpgrades } from './upgrades.js';

const BENCHMARKS = ['ack', 'tracking', 'scale', 'events', 'upgrades'] as const;
type Benchmark = (typeof BENCHMARKS)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    transactions: { type: 'string' },
    scale: { type: 'string' },
    speed: { type: 'string' },
    'mixed-speed': { type: 'string' },
    seconds: { type: 'string' },
    devices: { type: 'string' },
    compress: { type: 'string' },
    'upgrade-devices': { type: 'string' },
    'upgrade-speed': { type: 'string' },
    note: { type: 'string', multiple: true },
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
  const upgradeTables: Table[] = [];
  const show = (table: Table, into: Table[] = tables) => {
    into.push(table);
    console.log(`\n${markdownTable(table)}\n`);
  };
  const started = Date.now();
  const timings: string[] = [];
  const timed = async <T>(name: Benchmark, run: () => Promise<T>): Promise<T> => {
    const at = Date.now();
    console.log(`\n[${name}] started at ${new Date(at).toISOString()}`);
    const result = await run();
    const seconds = (Date.now() - at) / 1000;
    console.log(`[${name}] took ${seconds.toFixed(0)} s`);
    timings.push(`${name} ${seconds.toFixed(0)} s`);
    return result;
  };
  if (wanted('ack')) {
    const seconds = numberFlag(values.seconds, quick ? 2 : 5);
    const ackTables = await timed('ack', () =>
      benchAck({
        concurrency: [10, 50, 200],
        rates: quick ? [100] : [100, 300],
        seconds,
        warmupSeconds: quick ? 1 : 2,
        drainSeconds: 60,
      }),
    );
    for (const table of ackTables) show(table);
  }
  if (wanted('tracking')) {
    const trackingTables = await timed('tracking', () =>
      benchTracking({
        transactions: numberFlag(values.transactions, quick ? 200 : 1000),
        speed: numberFlag(values.speed, quick ? 30 : 10),
        naiveIntervalsS: quick ? [10] : [5, 10, 30],
        mixed: {
          transactions: numberFlag(values.transactions, quick ? 200 : 1000),
          speed: numberFlag(values['mixed-speed'], quick ? 10 : 4),
          arrivalS: quick ? 120 : 900,
          naiveIntervalsS: quick ? [2, 10] : [2, 5, 10, 30],
          history: 400,
          readBudgets: [1, 2],
        },
        seed: 8,
      }),
    );
    for (const table of trackingTables) show(table);
  }
  if (wanted('scale')) {
    show(
      await timed('scale', () =>
        benchScale({
          transactions: numberFlag(values.scale, quick ? 2000 : 10_000),
          finishWithinS: 10,
          workers: [1, 3],
          boundS: quick ? 60 : 150,
          seed: 8,
        }),
      ),
    );
  }
  if (wanted('events')) {
    const devices = numberFlag(values.devices, quick ? 2_000 : 10_000);
    const eventTables = await timed('events', () =>
      benchEvents({
        devices,
        tenants: quick ? 40 : 200,
        transitions: quick ? 300 : 1_000,
        burst: quick ? 100 : 300,
        flappers: quick ? 10 : 20,
        flapsEach: 5,
        compress: numberFlag(values.compress, 6),
        seed: 26,
      }),
    );
    for (const table of eventTables) show(table);
  }
  if (wanted('upgrades')) {
    const measured = await timed('upgrades', () =>
      benchUpgrades({
        tenants: quick ? 10 : 50,
        devices: numberFlag(values['upgrade-devices'], quick ? 100 : 500),
        speed: numberFlag(values['upgrade-speed'], 20),
        readinessFaults: quick ? 2 : 5,
        nodeFaults: quick ? 1 : 3,
        boundS: quick ? 240 : 420,
      }),
    );
    for (const table of measured) show(table, upgradeTables);
  }
  const loadAfter = loadAverage();
  const total = `${((Date.now() - started) / 1000).toFixed(0)} s (${timings.join(', ')})`;
  console.log(`done in ${total}; load average at end ${loadAfter}`);
  // The upgrades benchmark has a part of its own in RESULTS.md (it runs for minutes and is often run apart).
  const main = BENCHMARKS.filter((name) => name !== 'upgrades');
  const writeMain = main.some(wanted) && ((main.every(wanted) && !quick) || values.write === true);
  const writeUpgrades = wanted('upgrades') && (!quick || values.write === true);
  if (!writeMain && !writeUpgrades) {
    console.log('partial or quick run: bench/RESULTS.md left as it was (--write to replace it)');
    return;
  }
  const machineAndRun = [
    ...machineLines(machine, loadAfter),
    `- Run time: ${total}`,
    ...(values.note ?? []).map((note) => `- Conditions: ${note}`),
  ];
  if (writeMain) writeBenchPart(results(machineAndRun, tables, quick));
  if (writeUpgrades) writeUpgradesPart(upgradesResults(machineAndRun, upgradeTables, quick));
  console.log(`wrote ${RESULTS_PATH}${writeMain ? '' : ' (the upgrades part only)'}`);
}

function upgradesResults(machine: readonly string[], tables: readonly Table[], isQuick: boolean): string {
  return [
    '## Firewall software upgrades across tenants',
    '',
    `Written by \`npm run bench -- --only upgrades${isQuick ? ' --quick' : ''}\` (bench/upgrades.ts), or by a whole \`npm run bench\`; every figure below was measured in that run.`,
    '',
    ...machine,
    '',
    ...tables.flatMap((table) => [markdownTable(table), '']),
  ].join('\n');
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
