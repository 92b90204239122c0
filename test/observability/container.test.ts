// hadolint is not packaged for Debian and there is no Docker engine here, so the container files are
// checked by reading them: a multi-stage build whose last stage holds production dependencies only, runs
// as a non-root user, and has a HEALTHCHECK that works in a slim image (it is run here against a real
// /healthz); compose runs Redis with append-only persistence on a named volume.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { createHttpSide } from '../../src/observability/httpSide.js';
import { createMetrics } from '../../src/observability/metrics.js';

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Dockerfile → stages of instructions (comments dropped, `\` continuations joined). */
function stagesOf(text: string): Stage[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('#'));
  const joined = lines.join('\n').replace(/\\\n\s*/g, ' ');
  const stages: Stage[] = [];
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1] ?? '';
    const args = (match[2] ?? '').trim();
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ from: from?.[1] ?? args, name: from?.[2], instructions: [] });
      continue;
    }
    stages.at(-1)?.instructions.push({ keyword, args });
  }
  return stages;
}

const root = new URL('../../', import.meta.url);
const dockerfile = stagesOf(readFileSync(new URL('Dockerfile', root), 'utf8'));
const final = dockerfile.at(-1);

function instructions(stage: Stage | undefined, keyword: string): string[] {
  return (stage?.instructions ?? []).filter((i) => i.keyword === keyword).map((i) => i.args);
}

describe('Dockerfile', () => {
  it('builds in stages from pinned images, with no ADD of remote files', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    for (const stage of dockerfile) {
      expect(stage.from).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(stage.from).not.toMatch(/:latest$/);
      expect(instructions(stage, 'ADD')).toEqual([]);
    }
  });

  it('ships production dependencies only: npm ci --omit=dev in the stage the runtime copies node_modules from', () => {
    const copies = instructions(final, 'COPY').filter((args) => /node_modules/.test(args));
    expect(copies).toHaveLength(1);
    const source = /--from=(\S+)/.exec(copies[0] ?? '')?.[1];
    const stage = dockerfile.find((s) => s.name === source);
    expect(instructions(stage, 'RUN').some((run) => /npm ci\b.*--omit=dev/.test(run))).toBe(true);
    expect(
      instructions(final, 'RUN').some((run) => /npm (ci|install)/.test(run) && !/--omit=dev/.test(run)),
    ).toBe(false);
    expect(instructions(final, 'COPY').some((args) => /\bsrc\b/.test(args))).toBe(false);
  });

  it('has in its build stage what npm run build runs: the sources and the copier of the Lua scripts', () => {
    const build = dockerfile.find((stage) =>
      instructions(stage, 'RUN').some((run) => /npm run build/.test(run)),
    );
    const script = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts.build as string;
    const copier = /node (scripts\/[\w.-]+\.mjs)/.exec(script)?.[1];
    expect(copier).toBe('scripts/copy-lua.mjs');
    const copied = instructions(build, 'COPY').join('\n');
    expect(copied).toMatch(/\bsrc\b/);
    expect(copied).toContain(copier);
    const ignored = readFileSync(new URL('.dockerignore', root), 'utf8').split('\n');
    expect(ignored).toContain(`!${copier}`);
    expect(ignored.indexOf(`!${copier}`)).toBeGreaterThan(ignored.indexOf('scripts'));
  });

  it('runs the built bot as a non-root user', () => {
    const users = instructions(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(JSON.parse(instructions(final, 'CMD').at(-1) ?? '[]')).toEqual(['node', 'dist/entry/bot.js']);
    expect(instructions(final, 'ENV').join(' ')).toMatch(/NODE_ENV=production/);
  });

  it('has a HEALTHCHECK that needs only node, and it passes against a real /healthz', async () => {
    const [healthcheck] = instructions(final, 'HEALTHCHECK');
    expect(healthcheck).toBeDefined();
    expect(healthcheck).not.toMatch(/curl|wget/);
    const command = z
      .array(z.string())
      .parse(JSON.parse(/CMD\s+(\[.*\])$/.exec(healthcheck ?? '')?.[1] ?? ''));
    expect(command[0]).toBe('node');

    const side = createHttpSide({
      port: 0,
      host: '127.0.0.1',
      metrics: createMetrics({ processMetrics: false }),
      log: pino({ level: 'silent' }),
    });
    const port = await side.listen();
    const run = (env: Record<string, string>) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, command.slice(1), { env, stdio: 'ignore' });
        child.on('exit', resolve);
      });
    expect(await run({ PORT: String(port) })).toBe(0);
    await side.close();
    expect(await run({ PORT: String(port) })).toBe(1);
  });
});

const Compose = z.object({
  services: z.record(
    z.string(),
    z.looseObject({
      command: z.union([z.string(), z.array(z.string())]).optional(),
      volumes: z.array(z.string()).optional(),
      environment: z.record(z.string(), z.string()).optional(),
      depends_on: z.unknown().optional(),
      healthcheck: z.unknown().optional(),
      build: z.unknown().optional(),
      env_file: z.unknown().optional(),
    }),
  ),
  volumes: z.record(z.string(), z.unknown().nullable()).optional(),
});

describe('docker-compose.yml', () => {
  const compose = Compose.parse(parse(readFileSync(new URL('docker-compose.yml', root), 'utf8')));
  const redis = compose.services.redis;
  const fwbot = compose.services.fwbot;

  it('runs Redis with append-only persistence on a named volume', () => {
    const command = Array.isArray(redis?.command) ? redis.command.join(' ') : (redis?.command ?? '');
    expect(command).toMatch(/--appendonly yes/);
    const dataVolume = (redis?.volumes ?? []).find((v) => v.endsWith(':/data'));
    expect(dataVolume).toBeDefined();
    const name = dataVolume?.split(':')[0] ?? '';
    expect(Object.keys(compose.volumes ?? {})).toContain(name);
    expect(redis?.healthcheck).toBeDefined();
  });

  it('points fwbot at that Redis, waits for it, and keeps secrets out of the file', () => {
    expect(fwbot?.build).toBeDefined();
    expect(fwbot?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(JSON.stringify(fwbot?.depends_on)).toMatch(/redis/);
    const inline = Object.keys(fwbot?.environment ?? {}).filter((key) => /TOKEN|SECRET|PASSWORD/.test(key));
    expect(inline).toEqual([]);
    expect(fwbot?.env_file).toBeDefined();
  });
});

describe('docker-compose.yml, front and workers apart', () => {
  const compose = Compose.parse(parse(readFileSync(new URL('docker-compose.yml', root), 'utf8')));
  const worker = compose.services.worker;
  const fwbot = compose.services.fwbot;

  it('runs npm run worker from the same image on the same Redis, only when asked for', () => {
    expect(worker?.command).toEqual(['node', 'dist/entry/worker.js']);
    expect(worker?.image).toBe(fwbot?.image);
    expect(worker?.environment?.REDIS_URL).toBe(fwbot?.environment?.REDIS_URL);
    expect(worker?.profiles).toEqual(['workers']);
    expect(worker?.env_file).toBeDefined();
    const inline = Object.keys(worker?.environment ?? {}).filter((key) => /TOKEN|SECRET|PASSWORD/.test(key));
    expect(inline).toEqual([]);
  });

  it('lets BOT_WORKERS turn the bot into a front, on by default', () => {
    // Compose's own interpolation syntax, spelled without a JS template placeholder.
    expect(fwbot?.environment?.BOT_WORKERS).toBe(['$', '{BOT_WORKERS:-on}'].join(''));
  });
});

describe('.dockerignore', () => {
  it('keeps local state, secrets and dependencies out of the build context', () => {
    const ignored = readFileSync(new URL('.dockerignore', root), 'utf8').split('\n');
    for (const entry of ['.env', '.fwbot', 'node_modules', '.git', 'dist']) expect(ignored).toContain(entry);
  });
});
