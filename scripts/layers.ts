// How the folders of src/ layer: each folder lists the folders it may import, and the list is the rule.
// test/architecture/ fails on any import the list does not allow and on any cycle between folders;
// `npm run docs` writes the table into docs/developing/architecture.md. A new folder gets a line here
// (and one on the architecture page) before anything may import it. Allowing an import means placing the
// importer above the imported; a list that would let two folders reach each other is refused too.
import type { ImportGraph } from './importGraph.js';

/** What fwbot's domain stands on: the folders below the approvals, the jobs and the surfaces. */
const DOMAIN = [
  'model',
  'config',
  'redis',
  'access',
  'scc',
  'slackApi',
  'observability',
  'render',
  'follow',
  'alerts',
  'catalogue',
  'policy',
  'dispatch',
] as const;
const without = (folders: readonly string[], left: string) => folders.filter((folder) => folder !== left);
/** What the surfaces stand on: the domain, the approvals, the queues, the Home. */
const SERVICES = [...DOMAIN, 'approvals', 'jobs', 'home'];

/** Folder → the folders its files may import, lowest layers first. A file directly under src/ is its own. */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  /** Shared vocabulary: views, actors, roles, arguments, errors, marks, JSON. Imports nothing. */
  model: [],
  /** The SCC API client and its generated schemas. */
  scc: ['model'],
  /** The environment and the profiles file, read and checked once. */
  config: ['model', 'scc'],
  /** Connections to Redis, one deployment's topology, first-sight marks. */
  redis: ['model', 'config'],
  /** The one Slack Web API module: its clients and calls. */
  slackApi: ['model'],
  /** Logs, metrics, readiness, shutdown, process faults. */
  observability: ['model', 'config', 'redis', 'scc', 'slackApi'],
  /** Pure renderers: view models to Block Kit or text. */
  render: ['model', 'config', 'scc'],
  /** Kinds of work followed after SCC answers 202. */
  follow: ['model', 'scc', 'render'],
  /** What fwbot tells without being asked: alert kinds, subscriptions, events and incidents, as data. */
  alerts: ['model', 'scc', 'render', 'follow'],
  /** Access requests' own parts: the risk policy applied, the records of the rules fwbot created. */
  access: ['model', 'config', 'redis'],
  /** Every operation, declared once. */
  catalogue: ['model', 'config', 'scc', 'render', 'follow', 'alerts', 'access'],
  /** Who holds which role where. */
  policy: ['model', 'config', 'slackApi'],
  /** The one place where an operation's declaration is applied, and its ports. */
  dispatch: without(without(DOMAIN, 'dispatch'), 'slackApi'),
  /** Four eyes: requests, decisions, exactly-once execution, the audit trail (no Slack: a notifier port). */
  approvals: without(DOMAIN, 'slackApi'),
  /** The queues: followed work, notifications, watches, paced calls, queued commands. */
  jobs: without(DOMAIN, 'policy'),
  /** The App Home. */
  home: [...DOMAIN, 'approvals', 'jobs'],
  /** Bolt: the Slack surface's listeners, one per kind of Slack request. */
  slack: SERVICES,
  /** The terminal surface. */
  console: SERVICES,
  /** The SCC look-alike (tests, benchmarks, the demo). */
  simulator: ['model', 'scc', 'observability'],
  /** Assembling a running fwbot from its configuration: the one assembly every process shares. */
  app: [...SERVICES, 'slack', 'console'],
  /** `fwbot <command>`: the command line against one SCC profile. */
  cli: [...without(without(DOMAIN, 'redis'), 'slackApi'), 'console', 'app', 'jobs'],
  /** `npm run demo`'s parts: its Redis, its runtime beside the console's chat, its defaults. */
  demo: [...SERVICES, 'slack', 'console', 'app', 'simulator'],
  /** The processes' entry points (bot, worker, demo, CLI): one composition root each, at the top. */
  entry: [...SERVICES, 'slack', 'console', 'simulator', 'app', 'cli', 'demo'],
};

/** `src/jobs/core.ts` → `jobs`; a file directly under src/ is a folder of its own (`src/config.ts` → `config`). */
export function folderOf(module: string): string {
  const [, folder] = module.split('/');
  return (folder ?? module).replace(/\.ts$/, '');
}

/** Folder → the folders its files import (itself left out). */
export function folderEdges(graph: ImportGraph): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const module of graph.modules) edges.set(folderOf(module), edges.get(folderOf(module)) ?? new Set());
  for (const [module, targets] of graph.edges) {
    const from = folderOf(module);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) edges.get(from)?.add(to);
    }
  }
  return edges;
}

/** Imports no line of LAYERS allows, as `src/a/x.ts → src/b/y.ts`, and folders LAYERS does not list. */
export function layeringBreaches(graph: ImportGraph): { imports: string[]; unlisted: string[] } {
  const imports: string[] = [];
  const unlisted = new Set<string>();
  for (const [module, targets] of graph.edges) {
    const from = folderOf(module);
    const allowed = LAYERS[from];
    if (!allowed) unlisted.add(from);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && !allowed?.includes(to)) imports.push(`${module} → ${target}`);
    }
  }
  return { imports, unlisted: [...unlisted].sort() };
}

/** Groups of nodes that reach each other (Tarjan's strongly connected components of more than one node). */
export function cyclesOf(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
