// bench/RESULTS.md holds two parts written by two commands: the benchmark tables (`npm run bench`, which
// rewrites the file) and, below a marker, the drill summary (`npm run drills`, which replaces only its
// own part). Each command keeps the other's part, so the file always holds the latest of both. A benchmark
// run alone (`npm run bench -- --only access`) writes a section of its own inside the benchmark part,
// between markers, keeping the rest; a complete run rewrites the benchmark part, sections included.
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

const sectionStart = (key: string) =>
  `<!-- bench section ${key}: written by \`npm run bench -- --only ${key}\` -->`;
const sectionEnd = (key: string) => `<!-- end of bench section ${key} -->`;

/**
 * Writes one benchmark's section of the benchmark part (replacing the section it wrote before, else at
 * the end of the benchmark part), keeping everything else in the file.
 */
export function writeBenchSection(key: string, text: string): void {
  const old = current();
  const at = old.indexOf(DRILLS_MARKER);
  let bench = (at === -1 ? old : old.slice(0, at)).trimEnd();
  const drills = at === -1 ? '' : `\n${old.slice(at)}`;
  const section = `${sectionStart(key)}\n\n${text.trimEnd()}\n\n${sectionEnd(key)}`;
  const from = bench.indexOf(sectionStart(key));
  const to = bench.indexOf(sectionEnd(key));
  if (from !== -1 && to > from)
    bench = `${bench.slice(0, from)}${section}${bench.slice(to + sectionEnd(key).length)}`;
  else bench = `${bench ? `${bench}\n\n` : ''}${section}`;
  writeFileSync(RESULTS_PATH, `${bench.trimEnd()}\n${drills}`);
}
