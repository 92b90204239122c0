// The shape of src/, checked on its import graph (read from the sources) and stated as rules: the folders
// layer as the allow-list of scripts/layers.ts says (no import it does not allow, no folder that it does
// not list, no cycle between folders or files); Bolt lives in slack/ and the Slack Web API client in
// slackApi/; operations are declared only in catalogue/ and read the time only from their context; one
// function builds an operation's context; a /fw command's text is parsed where it enters, and the command
// queue carries what was read; every Redis key is named in src/redis/keys.ts and every Lua script is a file
// of src/redis/lua/ run by the one loader. A failure names what to move, as chains of files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildImportGraph, crossings, importCycles } from '../../scripts/importGraph.js';
import { cyclesOf, folderEdges, folderOf, LAYERS, layeringBreaches } from '../../scripts/layers.js';
import { QueuedCommand } from '../../src/jobs/payloads.js';

const root = process.cwd();
const graph = buildImportGraph(root);
const source = (module: string) => readFileSync(join(root, module), 'utf8');

/** The packages each module imports (bare specifiers), from its import and export lines. */
function packagesOf(module: string): string[] {
  return [...source(module).matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^.'"][^'"]*)['"]/gm)].map(
    (match) => match[1] ?? '',
  );
}

describe('the import graph of src/', () => {
  it('is read from the sources: every relative import names a file', () => {
    expect(graph.modules.length).toBeGreaterThan(100);
    expect(graph.modules.every((module) => module.startsWith('src/'))).toBe(true);
    expect(graph.unresolved).toEqual([]);
  });

  it('has no import cycles between files', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('the folders of src/ layer as scripts/layers.ts allows', () => {
  const edges = folderEdges(graph);

  it('lists every folder, and only folders that exist', () => {
    const breaches = layeringBreaches(graph);
    expect(breaches.unlisted, 'folders scripts/layers.ts does not list').toEqual([]);
    expect(Object.keys(LAYERS).filter((folder) => !edges.has(folder))).toEqual([]);
  });

  it('allows only what is below: the allow-list itself is a DAG of listed folders', () => {
    const named = Object.values(LAYERS)
      .flat()
      .filter((folder) => !(folder in LAYERS));
    expect(named).toEqual([]);
    const allowed = new Map(Object.entries(LAYERS).map(([folder, below]) => [folder, below]));
    expect(cyclesOf(allowed)).toEqual([]);
  });

  it('has no import the allow-list does not allow', () => {
    expect(layeringBreaches(graph).imports).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cyclesOf(edges)).toEqual([]);
  });
});

describe('what lives where', () => {
  it('keeps Bolt in slack/ and the Slack Web API client in slackApi/', () => {
    const outside = graph.modules.flatMap((module) => {
      const folder = folderOf(module);
      return packagesOf(module)
        .filter(
          (name) => name === '@slack/bolt' || name === '@slack/web-api' || name === '@slack/socket-mode',
        )
        .filter((name) => !(folder === 'slack' || (folder === 'slackApi' && name !== '@slack/socket-mode')))
        .map((name) => `${module} imports ${name}`);
    });
    expect(outside).toEqual([]);
  });

  it('declares operations only in catalogue/: the registry is the only list', () => {
    const declaring = graph.modules.filter(
      (module) => folderOf(module) !== 'catalogue' && /\bdefineOperation\s*\(/.test(source(module)),
    );
    expect(declaring).toEqual([]);
  });

  it('gives operations the time through their context only: catalogue/ never reads the machine’s clock', () => {
    // OperationContext.now is the one clock (the approvals' executor's): Date.now() or a bare new Date() in
    // an operation makes a driven test clock and a card disagree.
    const reading = graph.modules
      .filter((module) => folderOf(module) === 'catalogue')
      .flatMap((module) =>
        source(module)
          .split('\n')
          .flatMap((line, i) =>
            /\bDate\.now\s*\(|\bnew\s+Date\s*\(\s*\)/.test(line)
              ? [`${module}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(reading).toEqual([]);
  });

  it('builds an operation context in one place (src/dispatch/context.ts)', () => {
    const building = graph.modules.filter(
      (module) =>
        module !== 'src/dispatch/context.ts' &&
        /(:\s*OperationContext\s*=\s*\{|\)\s*:\s*OperationContext\s*=>\s*\(\{|as OperationContext\b|satisfies OperationContext\b)/.test(
          source(module),
        ),
    );
    expect(building).toEqual([]);
  });
});

describe('Block Kit lives at the Slack edge', () => {
  // The workers, the approvals, the Home and the console hand a View (src/model/view.ts), or a message that
  // carries one (src/model/message.ts), to a port; only the Slack side of that port makes Block Kit of it.
  // The edge is slack/ (Bolt, and what messages, cards and Homes become on Slack) and slackApi/ (the Web
  // API and its one exit, outgoing.ts); the renderer is the View → Block Kit module and its native table.
  const EDGE = new Set(['slack', 'slackApi']);
  const RENDERER = new Set(['src/render/blocks.ts', 'src/render/nativeTable.ts']);
  const allowed = (module: string) => EDGE.has(folderOf(module)) || RENDERER.has(module);

  it('imports Slack’s Block Kit types only at the edge and in the renderer', () => {
    const outside = graph.modules.flatMap((module) =>
      allowed(module)
        ? []
        : packagesOf(module)
            .filter((name) => name === '@slack/types' || name === '@slack/web-api' || name === '@slack/bolt')
            .map((name) => `${module} imports ${name}`),
    );
    expect(outside).toEqual([]);
  });

  it('renders Block Kit only at the edge: nothing else reaches the renderer', () => {
    const calling: string[] = [];
    for (const [module, targets] of graph.edges) {
      if (allowed(module)) continue;
      for (const target of targets) if (RENDERER.has(target)) calling.push(`${module} → ${target}`);
    }
    expect(calling).toEqual([]);
  });

  it('writes no Block Kit by hand, and reads none back, anywhere else', () => {
    // A Block Kit object names its type (a block, a text object, an element); some types are Block Kit's
    // alone (a View block is `kind: 'text'`, never `'section'` or `'mrkdwn'`).
    const BLOCK_KIT = [
      /\btype:\s*(z\.literal\(\s*)?'(section|actions|context|header|divider|mrkdwn|plain_text|button|rich_text|data_table|table|input|modal|home|static_select|external_select|image)'/,
      /'(section|mrkdwn|plain_text|data_table|rich_text|raw_text|raw_number)'/,
    ];
    const writing = graph.modules.flatMap((module) =>
      allowed(module)
        ? []
        : source(module)
            .split('\n')
            .flatMap((line, i) =>
              BLOCK_KIT.some((pattern) => pattern.test(line)) ? [`${module}:${i + 1}: ${line.trim()}`] : [],
            ),
    );
    expect(writing).toEqual([]);
  });
});

describe('a /fw command is read once, where it enters', () => {
  // Where typed command text meets the grammar (the catalogue's parse, `--profile`, the line reader): the
  // reader itself, the surfaces' intakes (the /fw listener; buttons that carry a command line, read for every
  // surface by src/dispatch/buttons.ts; the console; the CLI) and the catalogue's instrumenting decorator. Not the command queue's workers: they run what the
  // front read. legacyCommand.ts reads what an older fwbot queued as text, for one release.
  const READERS = new Set([
    'src/dispatch/commandLine.ts',
    'src/dispatch/profileFlag.ts',
    'src/slack/commands/fw.ts',
    'src/dispatch/buttons.ts',
    'src/slack/actions/share.ts',
    'src/console/runner.ts',
    'src/cli/cli.ts',
    'src/app/instrument.ts',
    'src/jobs/legacyCommand.ts',
  ]);

  it('parses command text only at the surfaces’ intakes, never in what runs a queued command', () => {
    const parsing = graph.modules.filter(
      (module) =>
        folderOf(module) !== 'catalogue' &&
        !READERS.has(module) &&
        /\bcatalogue\.parse\s*\(|\bextractProfileFlag\s*\(|\breadCommandLine\s*\(/i.test(source(module)),
    );
    expect(parsing).toEqual([]);
  });

  it('queues the call the front read: the command queue’s payload holds no text to parse', () => {
    const names = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) for (const item of node) walk(item);
      else if (node !== null && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (key === 'properties' && value !== null && typeof value === 'object')
            for (const name of Object.keys(value)) names.add(name);
          walk(value);
        }
    };
    walk(z.toJSONSchema(QueuedCommand));
    expect([...names].filter((name) => /^(text|command)$/i.test(name))).toEqual([]);
    expect([...names]).toEqual(expect.arrayContaining(['operationId', 'raw', 'requester', 'responseUrl']));
  });

  it('runs queued commands outside slack/: Slack gives the command workers its answers only', () => {
    const running = graph.modules.filter(
      (module) => folderOf(module) === 'slack' && /\bQueuedCommandHandler\b/.test(source(module)),
    );
    expect(running).toEqual([]);
  });
});

describe('one Redis key space, one home for Lua', () => {
  // Every key fwbot keeps in Redis is named by src/redis/keys.ts (RedisKeys, QUEUE), as BullMQ's QueueKeys
  // names a queue's: code asks it for a key and never spells one. Every Lua script is a file in
  // src/redis/lua/, run by name through the one loader, src/redis/scripts.ts; no TypeScript holds Lua.
  const KEYS_MODULE = 'src/redis/keys.ts';
  const LOADER = 'src/redis/scripts.ts';
  /** The TypeScript files that may hold `redis.call` (issue 35 allows at most 3): none does. */
  const MAY_HOLD_LUA = new Set<string>();
  const KEY_TEMPLATES = [
    // A template that puts the prefix before a ':' (`<prefix>:home:open`, `<prefix>approval:<id>`).
    /\$\{[^}]*prefix[^}]*\}[\w-]*:/i,
    // …or before the last word of a key (`<prefix>audit`, as the audit trail once named its stream).
    /\$\{[^}]*prefix[^}]*\}[a-z][\w-]*`/i,
    // The prefix joined with parts: [this.prefix, 'fw', ...parts].join(':')
    /\[\s*[\w.#]*prefix\b[^\]]*\]\.join\(/i,
    // The prefix added to a text: prefix + ':…'
    /\bprefix\s*\+\s*['"`]/i,
    // A key under the default prefix, spelled out: 'fwbot:slack:seen:'
    /['"`]fwbot:[\w{-]/,
  ];
  const LUA_IN_TYPESCRIPT = /\bredis\.call\s*\(|\bKEYS\[|\bARGV\[/;
  const EVAL = [/\.(eval|evalsha|evalRo|evalshaRo)\s*\(/, /\bdefineCommand\s*\(/];
  const code = (module: string) =>
    source(module)
      .split('\n')
      .map((line, i) => ({ line, where: `${module}:${i + 1}: ${line.trim()}` }))
      .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line));
  const findings = (modules: readonly string[], patterns: readonly RegExp[]) =>
    modules.flatMap((module) =>
      code(module)
        .filter(({ line }) => patterns.some((pattern) => pattern.test(line)))
        .map(({ where }) => where),
    );

  it('builds keys only in src/redis/keys.ts: no prefix template, prefix joined or added, or fwbot: key elsewhere', () => {
    const others = graph.modules.filter((module) => module !== KEYS_MODULE);
    expect(findings(others, KEY_TEMPLATES)).toEqual([]);
  });

  it('keeps Lua out of TypeScript: redis.call, KEYS[ and ARGV[ only in src/redis/lua/*.lua', () => {
    const holding = graph.modules.filter(
      (module) => !MAY_HOLD_LUA.has(module) && LUA_IN_TYPESCRIPT.test(source(module)),
    );
    expect(holding).toEqual([]);
    expect(MAY_HOLD_LUA.size).toBeLessThanOrEqual(3);
  });

  it('runs scripts only through the loader: no EVAL elsewhere, and no .lua file outside src/redis/lua/', () => {
    const others = graph.modules.filter((module) => module !== LOADER);
    expect(findings(others, EVAL)).toEqual([]);
    const stray = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.lua') && !file.startsWith(join('redis', 'lua')),
    );
    expect(stray).toEqual([]);
  });

  it('would see a key template, inline Lua or an EVAL if one came back', () => {
    const caught = (line: string, patterns: readonly RegExp[]) =>
      patterns.some((pattern) => pattern.test(line));
    // Written as the lines would read in src/ ('$' + '{' keeps these strings from being templates here).
    const template = (inside: string, after: string) => `\`$${'{'}${inside}}${after}\``;
    expect(caught(template('prefix', ':home:open'), KEY_TEMPLATES)).toBe(true);
    expect(caught(template('this.#prefix', 'approval:'), KEY_TEMPLATES)).toBe(true);
    expect(caught(template('options.prefix', ':slack:installation:removed'), KEY_TEMPLATES)).toBe(true);
    expect(caught(template('options.prefix', 'audit'), KEY_TEMPLATES)).toBe(true);
    expect(caught("[this.prefix, 'fw', ...parts].join(':')", KEY_TEMPLATES)).toBe(true);
    expect(caught("new RedisDeduper(redis, 'fwbot:slack:seen:')", KEY_TEMPLATES)).toBe(true);
    // A prefix that is not a key's (a serial number's, an indented line's) is left alone.
    expect(caught(template('prefix', `$${'{'}line}`), KEY_TEMPLATES)).toBe(false);
    expect(caught("text: 'fwbot: Security Cloud Control from chat'", KEY_TEMPLATES)).toBe(false);
    expect(LUA_IN_TYPESCRIPT.test("const LUA = `return redis.call('GET', KEYS[1])`;")).toBe(true);
    expect(caught('await this.redis.eval(SCRIPT, 1, key)', EVAL)).toBe(true);
  });
});

describe('the catalogue from outside', () => {
  // What src/catalogue/index.ts says code outside the catalogue may import: the registry, and the shapes
  // and helpers that operations share. The areas' files, the grammar and help are reached through it.
  const PUBLIC = new Set(
    [
      'index',
      'operation',
      'sccErrors',
      'usage',
      'args',
      'resolve',
      'forms',
      'tickets',
      'timed/index',
      'deviceHolds',
    ].map((name) => `src/catalogue/${name}.ts`),
  );

  it('reaches operations through the registry, never through an area’s file', () => {
    const deeper: string[] = [];
    for (const [module, targets] of graph.edges) {
      if (folderOf(module) === 'catalogue') continue;
      for (const target of targets)
        if (folderOf(target) === 'catalogue' && !PUBLIC.has(target)) deeper.push(`${module} → ${target}`);
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

  it('finds the folders that reach each other, and names each import no layer allows', () => {
    expect(cyclesOf(folderEdges(tiny))).toEqual([['a', 'b']]);
    expect(layeringBreaches(tiny).unlisted).toEqual(['a', 'b', 'c']);
  });
});
