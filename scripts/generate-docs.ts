// The docs' generated blocks, written from the code they describe: every `<!-- generated:NAME -->` …
// `<!-- /generated:NAME -->` pair in README.md and docs/**/*.md holds what GENERATED_BLOCKS[NAME] gives
// today (the command table from the catalogue the bot serves, the configuration reference from src/config/,
// the poll schedules from src/follow/, the folder graph from the imports of src/). Run `npm run docs` after
// changing any of them; test/docs/generated.test.ts fails while a block differs from what this would write.
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALERT_KINDS, alertKindOf } from '../src/alerts/index.js';
import { fwbotCatalogue } from '../src/app/surface.js';
import { commandsMarkdown } from '../src/catalogue/help.js';
import { usageLine } from '../src/catalogue/usage.js';
import { renderConfigurationSection } from '../src/config/reference.js';
import { FOLLOW_KINDS } from '../src/follow/index.js';
import { DEFAULT_SCHEDULE, pollDelayMs } from '../src/jobs/schedule.js';
import { createMetrics } from '../src/observability/metrics.js';
import { buildImportGraph } from './importGraph.js';
import { cyclesOf, folderEdges, LAYERS } from './layers.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A doc whose markers cannot be read (an unknown name, a block never closed); one sentence. */
export class DocsError extends Error {
  override readonly name = 'DocsError';
}

/** The commands section, from the catalogue a running fwbot serves (src/app/surface.ts). */
function commandsBlock(): string {
  const catalogue = fwbotCatalogue(createMetrics({ processMetrics: false }));
  return commandsMarkdown(catalogue.operations, catalogue.command);
}

/** Every operation a second person may have to approve, with its declared rule (docs/using/approvals.md). */
function governedBlock(): string {
  const catalogue = fwbotCatalogue(createMetrics({ processMetrics: false }));
  const rule = (approval: (typeof catalogue.operations)[number]['approval']) =>
    approval === 'always' ? 'always' : approval === 'never' ? '' : `${approval.default} by default`;
  const rows = catalogue.operations
    .filter((op) => op.approval !== 'never')
    // The ones no policy can lower first, each group in the catalogue's order.
    .sort((a, b) => Number(b.approval === 'always') - Number(a.approval === 'always'))
    .map((op) => {
      const which = op.governsOnly ? ` (${op.governsOnly})` : '';
      const command = usageLine(op, catalogue.command).replace(/\|/g, '\\|');
      return `| ${op.summary}${which} | \`${command}\` | ${rule(op.approval)} |`;
    });
  return ['| Operation | Command | Rule |', '|---|---|---|', ...rows].join('\n');
}

/**
 * The configuration reference of src/config/reference.ts, as a page of its own: its section heading
 * becomes the page's title (one level up, and the levels below it with it), and the note that says where it
 * is generated from gives way to the markers.
 */
function configurationBlock(): string {
  return renderConfigurationSection()
    .split('\n')
    .filter((line) => !line.startsWith('<!-- Generated from'))
    .map((line) => (/^#{2,6} /.test(line) ? line.slice(1) : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 1.5 s, 9 s, 21 s, 150 s, 10 min, 6 h: seconds (tenths below 10) up to whole minutes, then whole units. */
function duration(ms: number): string {
  if (ms < 10 * SECOND) return `${Number((ms / SECOND).toFixed(1))} s`;
  if (ms < 2 * MINUTE) return `${Math.round(ms / SECOND)} s`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${Math.round(ms / SECOND)} s`;
}

/** The poll at which a schedule first waits its cap, and how long after the first poll that comes. */
function capReached(poll: (typeof FOLLOW_KINDS)[number]['poll']): { polls: number; afterMs: number } {
  let afterMs = 0;
  for (let step = 1; step < 1_000; step += 1) {
    const delay = pollDelayMs(poll, step);
    if (delay >= poll.capMs) return { polls: step, afterMs };
    afterMs += delay;
  }
  return { polls: Number.NaN, afterMs };
}

/** How often each kind of followed work is read, as each kind declares it (src/follow/<kind>.ts). */
function pollSchedulesBlock(): string {
  const rows = FOLLOW_KINDS.map((kind) => {
    const poll = kind.poll;
    const configurable = 'configured' in kind && kind.configured !== undefined ? ' (configurable)' : '';
    const once = poll.factor === 1 && poll.firstDelayMs === poll.capMs;
    const reached = capReached(poll);
    const cap = once ? '—' : `${duration(poll.capMs)} (${reached.polls} polls, ${duration(reached.afterMs)})`;
    const late =
      poll.lateCapMs !== undefined && poll.lateAfterMs !== undefined
        ? `${duration(poll.lateCapMs)} after ${duration(poll.lateAfterMs)}`
        : '—';
    const cells = [
      `\`${kind.kind}\``,
      `${duration(poll.firstDelayMs)}${configurable}`,
      once ? '—' : `× ${poll.factor}`,
      cap,
      late,
      duration(poll.deadlineMs),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| Kind | First delay | Growth | Cap (reached after) | Late (straggler) cap | Deadline |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** How a folder is named on the page: `src/jobs/`, or `src/config.ts` for a file directly under src/. */
function shown(graph: ReturnType<typeof buildImportGraph>, folder: string): string {
  return graph.modules.includes(`src/${folder}.ts`) &&
    !graph.modules.some((m) => m.startsWith(`src/${folder}/`))
    ? `\`src/${folder}.ts\``
    : `\`src/${folder}/\``;
}

/** Each folder of src/, what it may import (scripts/layers.ts) and what it does import, read from the sources. */
function folderGraphBlock(): string {
  const graph = buildImportGraph(ROOT);
  const edges = folderEdges(graph);
  const list = (folders: Iterable<string> | undefined) => {
    const names = [...(folders ?? [])].sort();
    return names.length > 0 ? names.map((folder) => shown(graph, folder)).join(', ') : '—';
  };
  const folders = Object.keys(LAYERS).filter((folder) => edges.has(folder));
  const rows = folders.map(
    (folder) => `| ${shown(graph, folder)} | ${list(LAYERS[folder])} | ${list(edges.get(folder))} |`,
  );
  const tangles = cyclesOf(edges);
  const tangleLines =
    tangles.length === 0
      ? ['No two folders import each other, directly or through others.']
      : [
          'Folders that import each other, directly or through others:',
          '',
          ...tangles.map((g) => `- ${g.join(', ')}`),
        ];
  return [
    '| Folder, lowest first | May import | Imports now |',
    '|---|---|---|',
    ...rows,
    '',
    ...tangleLines,
  ].join('\n');
}

/** Every generated block by name: what the docs say between its markers. */
/** The kinds of alert: what each tells, how often its list is read, the token roles it needs (alerts.md). */
function alertKindsBlock(): string {
  const rows = ALERT_KINDS.map((kind) => {
    const info = alertKindOf(kind);
    const every = duration(DEFAULT_SCHEDULE.alerts.intervals[kind]);
    // Kinds any token that reads devices can scan say so, instead of listing six roles each.
    const roles = info.tokenRoles.includes('ROLE_READ_ONLY')
      ? 'any (read-only is enough)'
      : info.tokenRoles.map((role) => `\`${role}\``).join(', ');
    return `| \`${kind}\` | ${info.summary} | ${every} | ${roles} |`;
  });
  return [
    '| Kind | What the channel is told | Read every | Token roles (one of) |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export const GENERATED_BLOCKS: Readonly<Record<string, () => string>> = {
  commands: commandsBlock,
  governed: governedBlock,
  configuration: configurationBlock,
  'poll-schedules': pollSchedulesBlock,
  'folder-graph': folderGraphBlock,
  'alert-kinds': alertKindsBlock,
};

/** README.md and every Markdown file under docs/, relative to the root, '/'-separated, sorted. */
export function docFiles(root: string = ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs').sort()];
}

const OPENING = /^<!-- generated:([a-z][a-z0-9-]*) -->$/;

/** The text with every generated block rewritten, and the names of the blocks that changed. */
export function regenerate(
  text: string,
  file: string,
  blocks: Readonly<Record<string, () => string>> = GENERATED_BLOCKS,
): { text: string; names: string[]; stale: string[] } {
  const lines = text.split('\n');
  const out: string[] = [];
  const names: string[] = [];
  const stale: string[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    out.push(line);
    const name = OPENING.exec(line)?.[1];
    if (name === undefined) {
      if (line.startsWith('<!-- /generated:'))
        throw new DocsError(`${file}:${at + 1}: \`${line}\` closes a block that was never opened`);
      continue;
    }
    const render = blocks[name];
    if (!render)
      throw new DocsError(
        `${file}:${at + 1}: there is no generated block named \`${name}\` (known: ${Object.keys(blocks).join(', ')})`,
      );
    const closing = `<!-- /generated:${name} -->`;
    const end = lines.indexOf(closing, at + 1);
    if (end === -1) throw new DocsError(`${file}:${at + 1}: the block \`${name}\` has no \`${closing}\``);
    const current = lines.slice(at + 1, end).join('\n');
    const wanted = `\n${render().trim()}\n`;
    if (current !== wanted) stale.push(name);
    names.push(name);
    out.push(wanted, closing);
    at = end;
  }
  return { text: out.join('\n'), names, stale };
}

/** Rewrites every doc whose generated blocks are stale; returns what it changed, `file: block` each. */
export function writeDocs(root: string = ROOT): string[] {
  const changed: string[] = [];
  for (const file of docFiles(root)) {
    const path = join(root, file);
    const before = readFileSync(path, 'utf8');
    const { text, stale } = regenerate(before, file);
    if (stale.length === 0) continue;
    writeFileSync(path, text);
    changed.push(...stale.map((name) => `${file}: ${name}`));
  }
  return changed;
}

const invoked =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  try {
    const changed = writeDocs();
    process.stdout.write(
      changed.length === 0
        ? 'Every generated block of the docs is current.\n'
        : `Rewrote ${changed.length} generated block(s):\n${changed.map((line) => `  ${line}`).join('\n')}\n`,
    );
  } catch (error) {
    if (!(error instanceof DocsError)) throw error;
    process.stderr.write(`generate-docs: ${error.message}.\n`);
    process.exitCode = 2;
  }
}
