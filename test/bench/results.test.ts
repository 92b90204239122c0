// bench/RESULTS.md is written by several commands: `npm run bench` (the benchmark part), `npm run drills`
// (the drill part), and the benchmarks run apart (`--only access`, `--only upgrades`: a section each in
// the benchmark part). Each replaces what it wrote and keeps the rest.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DRILLS_MARKER,
  RESULTS_PATH,
  withBenchPart,
  withBenchSection,
  withDrillsPart,
} from '../../bench/support/results.js';

const START = (key: string) => `<!-- bench section ${key}: written by \`npm run bench -- --only ${key}\` -->`;

describe('bench/RESULTS.md parts and sections', () => {
  it('adds a section at the end of the benchmark part, above the drills, and replaces it in place later', () => {
    const old = `# fwbot benchmark results\n\n| a |\n\n${DRILLS_MARKER}\n\n# drills\n- kill-worker\n`;
    const once = withBenchSection(old, 'upgrades', '## upgrades\n| u1 |');
    expect(once.indexOf('| a |')).toBeLessThan(once.indexOf(START('upgrades')));
    expect(once.indexOf(START('upgrades'))).toBeLessThan(once.indexOf(DRILLS_MARKER));
    expect(once.endsWith('# drills\n- kill-worker\n')).toBe(true);
    const withAccess = withBenchSection(once, 'access', '## access\n| x1 |');
    const twice = withBenchSection(withAccess, 'upgrades', '## upgrades\n| u2 |');
    expect(twice).not.toContain('| u1 |');
    expect(twice).toContain('| u2 |');
    // The upgrades section stays where it was, before the access section added after it.
    expect(twice.indexOf('| u2 |')).toBeLessThan(twice.indexOf('| x1 |'));
    expect(twice).toBe(withAccess.replace('| u1 |', '| u2 |'));
  });

  it('keeps the other part whichever part is written', () => {
    const file = withDrillsPart(withBenchPart('', '# B1'), '# D1');
    expect(file).toBe(`# B1\n\n${DRILLS_MARKER}\n\n# D1\n`);
    expect(withBenchPart(file, '# B2')).toBe(`# B2\n\n${DRILLS_MARKER}\n\n# D1\n`);
    expect(withDrillsPart(file, '# D2')).toBe(`# B1\n\n${DRILLS_MARKER}\n\n# D2\n`);
  });

  it('reads back the file as it is: writing a section with its own text changes nothing', () => {
    const text = readFileSync(RESULTS_PATH, 'utf8');
    for (const key of ['access', 'upgrades']) {
      const from = text.indexOf(START(key));
      const end = `<!-- end of bench section ${key} -->`;
      const to = text.indexOf(end);
      if (from === -1 || to === -1) continue;
      const body = text.slice(from + START(key).length, to).trim();
      expect(withBenchSection(text, key, body)).toBe(text);
    }
  });
});
