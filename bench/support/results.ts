// bench/RESULTS.md holds three parts, in this order: the benchmark tables (`npm run bench`), below a marker
// the upgrades benchmark (`npm run bench -- --only upgrades`, or a full `npm run bench`, which replace only
// that part: it takes minutes of its own and is run apart), and below another the drill summary
// (`npm run drills`). Each command replaces its own part and keeps the others, so the file always holds the
// latest of each.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_PATH = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const UPGRADES_MARKER =
  '<!-- upgrades: written by `npm run bench -- --only upgrades` (bench/upgrades.ts) -->';
const DRILLS_MARKER = '<!-- drills: written by `npm run drills` (bench/drills/run.ts) -->';

type Part = 'bench' | 'upgrades' | 'drills';

/** The file cut into its parts (a part it lacks is empty). */
export function parts(text: string): Record<Part, string> {
  const cut = (from: string, marker: string): [string, string] => {
    const at = from.indexOf(marker);
    return at === -1 ? [from, ''] : [from.slice(0, at), from.slice(at + marker.length)];
  };
  const [beforeDrills, drills] = cut(text, DRILLS_MARKER);
  const [bench, upgrades] = cut(beforeDrills, UPGRADES_MARKER);
  return { bench: bench.trim(), upgrades: upgrades.trim(), drills: drills.trim() };
}

/** The file from its parts, each under its marker. */
export function joined(p: Record<Part, string>): string {
  const sections = [
    p.bench,
    p.upgrades ? `${UPGRADES_MARKER}\n\n${p.upgrades}` : '',
    p.drills ? `${DRILLS_MARKER}\n\n${p.drills}` : '',
  ].filter((s) => s !== '');
  return `${sections.join('\n\n')}\n`;
}

function replacePart(part: Part, text: string): void {
  const old = parts(existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '');
  writeFileSync(RESULTS_PATH, joined({ ...old, [part]: text.trim() }));
}

/** Writes the benchmark part, keeping the upgrades and drill parts the file already has. */
export function writeBenchPart(text: string): void {
  replacePart('bench', text);
}

/** Writes the upgrades benchmark's part, keeping the others. */
export function writeUpgradesPart(text: string): void {
  replacePart('upgrades', text);
}

/** Writes the drill part, keeping the others. */
export function writeDrillsPart(text: string): void {
  replacePart('drills', text);
}
