// `npm run bench`: the benchmarks (issue 8's ack, tracking and scale, issue 26's events, issue 36's access,
// issue 37's upgrades), one after another, each bounded to minutes on a 2-core machine; prints each table as
// it is measured and writes bench/RESULTS.md with the machine they ran on. Flags:
//   --only ack,tracking,scale,events,access,upgrades   run some of them (RESULTS.md is then left alone unless
//                               --write, except for the benchmarks that keep a section of their own below)
//   --quick                     smaller sizes and shorter runs (a smoke run; RESULTS.md left alone)
//   --write                     write RESULTS.md even for a partial or quick run
//                               (`--only access` and `--only upgrades`, not quick, always write their own
//                               sections of it, keeping the rest of the file)
//   --transactions N            tracking benchmark size (default 1000)
//   --scale N                   scale benchmark size (default 10000)
//   --speed X                   how much faster the simulator's work goes, tracking benchmark (default 10)
//   --mixed-speed X             the same for its mixed workload (default 4: its 2 s poller reads most)
//   --seconds S                 seconds per ack cell (default 5)
//   --devices N                 events benchmark: devices across its managed tenants (default 10000)
//   --compress X                events benchmark: how many times faster than SCC's its time goes (default 6)
//   --access-requests N         access benchmark: requests (default 200, quick 40) over --access-devices
//   --access-devices N          ASAs (default 20, quick 8)
//   --access-speed X            the simulator's speed for the access benchmark (default 1: SCC's pace)
//   --upgrade-devices N         upgrades benchmark: devices across its 50 managed tenants (default 500)
//   --upgrade-speed X           upgrades benchmark: how much faster the simulator's upgrade runs go (default 20)
//   --note TEXT                 a line about the conditions of the run for RESULTS.md (repeatable), e.g.
//                               --note "another engineer ran the test suite at the same time"
// RESULTS.md also records how long each benchmark and the whole run took.
import { parseArgs } from 'node:util';
import { benchAccess } from './access.js';
import { benchAck } from './ack.js';
import { benchEvents } from './events.js';
import { benchScale } from './scale.js';
import { describeMachine, loadAverage, machineLines } from './support/machine.js';
import { RESULTS_PATH, writeBenchPart, writeBenchSection } from './support/results.js';
import { markdownTable, type Table } from './support/stats.js';
import { benchTracking } from './tracking.js';
import { benchUpgrades } from './upgrades.js';

const BENCHMARKS = ['ack', 'tracking', 'scale', 'events', 'access', 'upgrades'] as const;
type Benchmark = (typeof BENCHMARKS)[number];
/** Benchmarks that run for many minutes and are often run apart: each keeps a section of RESULTS.md. */
const SECTIONS: Partial<Record<Benchmark, { title: string; file: string }>> = {
  access: { title: 'Access requests (issue 36)', file: 'bench/access.ts' },
  upgrades: { title: 'Firewall software upgrades across tenants (issue 37)', file: 'bench/upgrades.ts' },
};

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
    'access-requests': { type: 'string' },
    'access-devices': { type: 'string' },
    'access-speed': { type: 'string' },
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
  const sectionTables = new Map<Benchmark, Table[]>();
  const show = (table: Table, section?: Benchmark) => {
    tables.push(table);
    if (section) sectionTables.set(section, [...(sectionTables.get(section) ?? []), table]);
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
  if (wanted('access')) {
    const accessTables = await timed('access', () =>
      benchAccess({
        requests: numberFlag(values['access-requests'], quick ? 40 : 200),
        devices: numberFlag(values['access-devices'], quick ? 8 : 20),
        concurrentDevices: quick ? 1 : 4,
        groupSize: 5,
        speed: numberFlag(values['access-speed'], 1),
        boundS: quick ? 300 : 900,
        seed: 36,
      }),
    );
    for (const table of accessTables) show(table, 'access');
  }
  if (wanted('upgrades')) {
    const upgradeTables = await timed('upgrades', () =>
      benchUpgrades({
        tenants: quick ? 10 : 50,
        devices: numberFlag(values['upgrade-devices'], quick ? 100 : 500),
        speed: numberFlag(values['upgrade-speed'], 20),
        readinessFaults: quick ? 2 : 5,
        nodeFaults: quick ? 1 : 3,
        boundS: quick ? 240 : 420,
      }),
    );
    for (const table of upgradeTables) show(table, 'upgrades');
  }
  const loadAfter = loadAverage();
  const total = `${((Date.now() - started) / 1000).toFixed(0)} s (${timings.join(', ')})`;
  console.log(`done in ${total}; load average at end ${loadAfter}`);
  const complete = BENCHMARKS.every(wanted) && !quick;
  const machineAndRun = [
    ...machineLines(machine, loadAfter),
    `- Run time: ${total}`,
    ...(values.note ?? []).map((note) => `- Conditions: ${note}`),
  ];
  const sectioned = chosen.every((name) => SECTIONS[name as Benchmark] !== undefined);
  if (sectioned && !quick && values.write !== true) {
    for (const [name, measured] of sectionTables) {
      writeBenchSection(name, section(name, machineAndRun, measured));
      console.log(`wrote the ${name} section of ${RESULTS_PATH}`);
    }
    return;
  }
  if (!complete && values.write !== true) {
    console.log('partial or quick run: bench/RESULTS.md left as it was (--write to replace it)');
    return;
  }
  writeBenchPart(results(machineAndRun, tables, quick));
  console.log(`wrote ${RESULTS_PATH}`);
}

/** A benchmark run apart: its own section, with the machine and run it was measured on. */
function section(name: Benchmark, machine: readonly string[], tables: readonly Table[]): string {
  const about = SECTIONS[name];
  return [
    `## ${about?.title ?? name}`,
    '',
    `Written by \`npm run bench -- --only ${name}\` (bench/run.ts, ${about?.file ?? 'bench'}); every figure below was measured in that run.`,
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
