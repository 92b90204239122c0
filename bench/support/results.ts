// bench/RESULTS.md holds two parts written by two commands: the benchmark tables (`npm run bench`, which
// rewrites the file) and, below a marker, the drill summary (`npm run drills`, which replaces only its
// own part). Each command keeps the other's part, so the file always holds the latest of both.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_PATH = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const DRILLS_MARKER = '<!-- drills: written by `npm run drills` (bench/drills/run.ts) -->';

function current(): string {
  return existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '';
}

/** Writes the benchmark part, keeping the drill part the file already has. */
export function writeBenchPart(text: string): void {
  const old = current();
  const at = old.indexOf(DRILLS_MARKER);
  const drills = at === -1 ? '' : `\n${old.slice(at)}`;
  writeFileSync(RESULTS_PATH, `${text.trimEnd()}\n${drills}`);
}

/** Writes the drill part, keeping the benchmark part the file already has. */
export function writeDrillsPart(text: string): void {
  const old = current();
  const at = old.indexOf(DRILLS_MARKER);
  const bench = (at === -1 ? old : old.slice(0, at)).trimEnd();
  writeFileSync(RESULTS_PATH, `${bench ? `${bench}\n\n` : ''}${DRILLS_MARKER}\n\n${text.trimEnd()}\n`);
}
