// bench/RESULTS.md holds two parts written by two commands: the benchmark tables (`npm run bench`, which
// rewrites the file) and, below a marker, the drill summary (`npm run drills`, which replaces only its
// own part). Each command keeps the other's part, so the file always holds the latest of both. A benchmark
// that runs for many minutes and is often run apart (`npm run bench -- --only access`, `--only upgrades`)
// writes a section of its own inside the benchmark part, between markers, keeping the rest; a complete run
// rewrites the benchmark part, sections included. The edits are pure functions of the file's text (tested);
// the writers apply them to the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_PATH = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
export const DRILLS_MARKER = '<!-- drills: written by `npm run drills` (bench/drills/run.ts) -->';

function current(): string {
  return existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '';
}

/** The file's text cut at the drills marker: the benchmark part and the drill part (with its marker). */
function cut(old: string): { bench: string; drills: string } {
  const at = old.indexOf(DRILLS_MARKER);
  return {
    bench: (at === -1 ? old : old.slice(0, at)).trimEnd(),
    drills: at === -1 ? '' : old.slice(at),
  };
}

/** The file with its benchmark part replaced, the drill part kept. */
export function withBenchPart(old: string, text: string): string {
  const { drills } = cut(old);
  return `${text.trimEnd()}\n${drills ? `\n${drills}` : ''}`;
}

/** The file with its drill part replaced, the benchmark part kept. */
export function withDrillsPart(old: string, text: string): string {
  const { bench } = cut(old);
  return `${bench ? `${bench}\n\n` : ''}${DRILLS_MARKER}\n\n${text.trimEnd()}\n`;
}

const sectionStart = (key: string) =>
  `<!-- bench section ${key}: written by \`npm run bench -- --only ${key}\` -->`;
const sectionEnd = (key: string) => `<!-- end of bench section ${key} -->`;

/**
 * The file with one benchmark's section replaced (or, the first time, added at the end of the benchmark
 * part), everything else kept.
 */
export function withBenchSection(old: string, key: string, text: string): string {
  const { bench: part, drills } = cut(old);
  const section = `${sectionStart(key)}\n\n${text.trimEnd()}\n\n${sectionEnd(key)}`;
  const from = part.indexOf(sectionStart(key));
  const to = part.indexOf(sectionEnd(key));
  const bench =
    from !== -1 && to > from
      ? `${part.slice(0, from)}${section}${part.slice(to + sectionEnd(key).length)}`
      : `${part ? `${part}\n\n` : ''}${section}`;
  return `${bench.trimEnd()}\n${drills ? `\n${drills}` : ''}`;
}

/** Writes the benchmark part, keeping the drill part the file already has. */
export function writeBenchPart(text: string): void {
  writeFileSync(RESULTS_PATH, withBenchPart(current(), text));
}

/** Writes the drill part, keeping the benchmark part the file already has. */
export function writeDrillsPart(text: string): void {
  writeFileSync(RESULTS_PATH, withDrillsPart(current(), text));
}

/** Writes one benchmark's section of the benchmark part, keeping everything else in the file. */
export function writeBenchSection(key: string, text: string): void {
  writeFileSync(RESULTS_PATH, withBenchSection(current(), key, text));
}
