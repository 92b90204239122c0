// bench/RESULTS.md is written in parts by three commands; each replaces its own part and keeps the others.
import { describe, expect, it } from 'vitest';
import { joined, parts } from '../../bench/support/results.js';

const UPGRADES = '<!-- upgrades: written by `npm run bench -- --only upgrades` (bench/upgrades.ts) -->';
const DRILLS = '<!-- drills: written by `npm run drills` (bench/drills/run.ts) -->';

describe('bench/RESULTS.md parts', () => {
  it('reads a file written before the upgrades part existed, and adds that part between the others', () => {
    const old = `# fwbot benchmark results\n\n| a |\n\n${DRILLS}\n\n# drills\n- kill-worker\n`;
    const p = parts(old);
    expect(p).toEqual({
      bench: '# fwbot benchmark results\n\n| a |',
      upgrades: '',
      drills: '# drills\n- kill-worker',
    });
    expect(joined(p)).toBe(old);
    const withUpgrades = joined({ ...p, upgrades: '## upgrades\n| b |' });
    expect(withUpgrades).toBe(
      `# fwbot benchmark results\n\n| a |\n\n${UPGRADES}\n\n## upgrades\n| b |\n\n${DRILLS}\n\n# drills\n- kill-worker\n`,
    );
    expect(parts(withUpgrades)).toEqual({ ...p, upgrades: '## upgrades\n| b |' });
  });

  it('replacing one part keeps the other two as they were', () => {
    const file = joined({ bench: 'B1', upgrades: 'U1', drills: 'D1' });
    expect(parts(joined({ ...parts(file), bench: 'B2' }))).toEqual({
      bench: 'B2',
      upgrades: 'U1',
      drills: 'D1',
    });
    expect(parts(joined({ ...parts(file), drills: 'D2' }))).toEqual({
      bench: 'B1',
      upgrades: 'U1',
      drills: 'D2',
    });
  });
});
