// The shape of src/ as ../shared/design/ARCHITECTURE.md draws it, checked on the import graph: no import
// cycles, and no area reaching up into the areas built on it (scc/ knows nothing of the catalogue, jobs/
// nothing of the Slack surface, …). A failure names the imports to remove, as chains of files.
import { describe, expect, it } from 'vitest';
import { areaOf, buildImportGraph, crossings, importCycles } from './importGraph.js';

const graph = buildImportGraph(process.cwd());

interface Layering {
  area: string;
  mayNotImport: readonly string[];
  why: string;
  /** Not enforced yet: the refactor that makes it true is in progress (see the rule's comment). */
  pending?: true;
}

const SURFACES = ['slack', 'console', 'cli', 'app'] as const;

const LAYERING: readonly Layering[] = [
  {
    area: 'scc',
    mayNotImport: ['catalogue', 'jobs', 'approvals', ...SURFACES],
    why: 'the SCC API client knows nothing of what fwbot does with it',
  },
  {
    area: 'render',
    mayNotImport: ['jobs', 'approvals', ...SURFACES],
    why: 'renderers are pure functions of view models',
  },
  {
    area: 'catalogue',
    mayNotImport: ['jobs', 'approvals', ...SURFACES],
    why: 'operations are declared once, for every surface',
  },
  {
    area: 'slackApi',
    mayNotImport: ['catalogue', 'jobs', 'approvals', 'dispatch', ...SURFACES],
    why: 'the one Slack Web API module is a leaf that the surface, the workers and the approvals share',
  },
  {
    area: 'jobs',
    mayNotImport: ['slack'],
    why: 'workers call Slack through src/slackApi/, never through the Bolt surface',
  },
  {
    area: 'console',
    mayNotImport: ['slack'],
    why: 'the console delivers what the dispatcher decides, without Slack internals',
  },
  {
    area: 'dispatch',
    mayNotImport: ['slack', 'console', 'cli', 'app', 'approvals', 'jobs'],
    why: 'the dispatcher is platform-neutral: the surfaces and the services behind its ports depend on it',
  },
];

describe('the import graph of src/', () => {
  it('is read from the sources: every relative import names a file', () => {
    expect(graph.modules.length).toBeGreaterThan(100);
    expect(graph.modules.every((module) => module.startsWith('src/'))).toBe(true);
    expect(graph.unresolved).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  for (const rule of LAYERING) {
    const title = `src/${rule.area}/ imports nothing from ${rule.mayNotImport.map((a) => `${a}/`).join(', ')}: ${rule.why}`;
    if (rule.pending) {
      it.todo(title);
      continue;
    }
    it(title, () => {
      expect(graph.modules.some((module) => areaOf(module) === rule.area)).toBe(true);
      expect(crossings(graph, rule.area, rule.mayNotImport)).toEqual([]);
    });
  }
});

describe('the catalogue from outside', () => {
  // What src/catalogue/index.ts says code outside the catalogue may import: the registry, and the shapes
  // and helpers that operations share. The areas' files, the grammar and help are reached through it.
  const PUBLIC = new Set(
    ['index', 'operation', 'forms', 'types', 'errors', 'sccErrors', 'usage', 'args', 'query', 'resolve'].map(
      (name) => `src/catalogue/${name}.ts`,
    ),
  );

  it('reaches operations through the registry, never through an area’s file', () => {
    const deeper: string[] = [];
    for (const [module, targets] of graph.edges) {
      if (areaOf(module) === 'catalogue') continue;
      for (const target of targets)
        if (areaOf(target) === 'catalogue' && !PUBLIC.has(target)) deeper.push(`${module} → ${target}`);
    }
    expect(deeper).toEqual([]);
  });
});

describe('the graph reader', () => {
  const tiny = {
    modules: ['src/a/x.ts', 'src/b/y.ts', 'src/b/z.ts', 'src/c/w.ts'],
    edges: new Map<string, ReadonlySet<string>>([
      ['src/a/x.ts', new Set(['src/b/y.ts'])],
      ['src/b/y.ts', new Set(['src/b/z.ts'])],
      ['src/b/z.ts', new Set(['src/a/x.ts', 'src/c/w.ts'])],
      ['src/c/w.ts', new Set(['src/c/w.ts'])],
    ]),
    unresolved: [],
  };

  it('reports each cycle as a chain of files, once', () => {
    expect(importCycles(tiny)).toEqual([
      'src/a/x.ts → src/b/y.ts → src/b/z.ts → src/a/x.ts',
      'src/c/w.ts → src/c/w.ts',
    ]);
  });

  it('reports imports across areas as file → file', () => {
    expect(crossings(tiny, 'b', ['a', 'c'])).toEqual(['src/b/z.ts → src/a/x.ts', 'src/b/z.ts → src/c/w.ts']);
    expect(crossings(tiny, 'a', ['c'])).toEqual([]);
  });
});
