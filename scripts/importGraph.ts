// The import graph of src/, read with TypeScript's own pre-processor (`ts.preProcessFile`): the imports,
// re-exports and dynamic imports of each file, as written. Relative specifiers are resolved the way
// nodenext resolves them for our sources (`./x.js` is `./x.ts`); package imports are not edges. Type-only
// imports count: a cycle of types is still two modules that cannot be understood one without the other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Every module, as a path relative to the root (`src/jobs/core.ts`), sorted. */
  readonly modules: readonly string[];
  /** Module → the modules it imports. */
  readonly edges: ReadonlyMap<string, ReadonlySet<string>>;
  /** Relative imports that name no file: `src/a.ts → ./gone.js`. */
  readonly unresolved: readonly string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Paths in the graph use '/' whatever the platform, so rules and messages read the same everywhere. */
function posix(path: string): string {
  return path.split(sep).join('/');
}

export function buildImportGraph(root: string, dir = 'src'): ImportGraph {
  const files = sourceFiles(join(root, dir)).sort();
  const name = (path: string) => posix(relative(root, path));
  const edges = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  for (const file of files) {
    const targets = new Set<string>();
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target === undefined) unresolved.push(`${name(file)} → ${specifier}`);
      else targets.add(name(target));
    }
    edges.set(name(file), targets);
  }
  return { modules: files.map(name), edges, unresolved };
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function tangles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, counter);
    low.set(module, counter);
    counter += 1;
    stack.push(module);
    onStack.add(module);
    for (const next of graph.edges.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.edges.get(module)?.has(module)) found.push(component.sort());
  };
  for (const module of graph.modules) if (!index.has(module)) visit(module);
  return found;
}

/** The shortest way from `start` back to itself inside `within` (breadth first), as a closed chain. */
function shortestCycleThrough(graph: ImportGraph, start: string, within: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  let frontier = [start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const module of frontier) {
      for (const target of graph.edges.get(module) ?? []) {
        if (!within.has(target)) continue;
        if (target === start) {
          const path: string[] = [];
          for (let at: string | undefined = module; at !== undefined && at !== start; at = cameFrom.get(at))
            path.unshift(at);
          return [start, ...path, start];
        }
        if (cameFrom.has(target)) continue;
        cameFrom.set(target, module);
        next.push(target);
      }
    }
    frontier = next;
  }
  return [];
}

/**
 * Every import cycle as a readable chain (`a.ts → b.ts → a.ts`): for each tangle, the shortest cycle
 * through each of its modules, each cycle once (starting at its alphabetically first module).
 */
export function importCycles(graph: ImportGraph): string[] {
  const chains = new Set<string>();
  for (const component of tangles(graph)) {
    const within = new Set(component);
    for (const module of component) {
      const cycle = shortestCycleThrough(graph, module, within);
      if (cycle.length === 0) continue;
      const ring = cycle.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0] ?? module);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      chains.add([...rotated, rotated[0]].join(' → '));
    }
  }
  return [...chains].sort();
}

/** The area of a module: `src/jobs/core.ts` → `jobs`; a file directly under src/ → its own name. */
export function areaOf(module: string): string {
  const [, area] = module.split('/');
  return (area ?? module).replace(/\.ts$/, '');
}

/** Imports from modules of area `from` into any area of `forbidden`: `src/a/x.ts → src/b/y.ts`. */
export function crossings(graph: ImportGraph, from: string, forbidden: readonly string[]): string[] {
  const banned = new Set(forbidden);
  const found: string[] = [];
  for (const [module, targets] of graph.edges) {
    if (areaOf(module) !== from) continue;
    for (const target of targets) if (banned.has(areaOf(target))) found.push(`${module} → ${target}`);
  }
  return found.sort();
}
