// The long-running processes' logger (`npm start`, `npm run worker`) keeps its lines in order up to the
// exit: a shutdown logs its steps and exits at once, and the last lines are the ones an operator reads.
// pino's default asynchronous stdout did not (the write in flight at `process.exit` landed after the
// flushed buffer); this drives the same pattern, many lines across event-loop turns then an immediate exit,
// in real child processes.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../src/app/logger.ts', import.meta.url));
const LINES = 3_000;

// Ten lines per event-loop turn, so writes are in flight when the process exits, as in a shutdown.
const SCRIPT = `
const { processLogger } = await import(${JSON.stringify(LOGGER)});
const log = processLogger('info').child({ component: 'worker' });
let i = 0;
const turn = () => {
  for (let k = 0; k < 10 && i < ${LINES}; k++) log.info({ i: i++ }, 'line');
  if (i < ${LINES}) setImmediate(turn);
  else {
    log.info({ code: 0 }, 'stopped');
    process.exit(0);
  }
};
turn();
`;

async function runOnce(): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = await once(child, 'close');
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code: code as number | null, lines };
}

describe('processLogger', () => {
  it('writes every line, in order, up to an immediate process.exit', async () => {
    // Three processes: the asynchronous default reordered the tail in 5 of 8 runs.
    const runs = await Promise.all([runOnce(), runOnce(), runOnce()]);
    for (const { code, lines } of runs) {
      expect(code).toBe(0);
      expect(lines).toHaveLength(LINES + 1);
      expect(lines.slice(0, LINES).map((line) => line.i)).toEqual(Array.from({ length: LINES }, (_, i) => i));
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped', component: 'worker', service: 'fwbot' });
    }
  }, 30_000);
});
