// The architecture page says what every folder of src/ owns: each one has an item of its own in the page's
// list (`- \`src/<folder>/\`: …`), written by hand, so a folder added or moved cannot go undocumented. The
// generated folder graph on the same page names them too, but says nothing of what they own, so it does
// not count.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readDoc } from './markdown.js';

const PAGE = 'docs/developing/architecture.md';

/** The page without its generated blocks. */
function handWritten(text: string): string {
  return text.replace(/<!-- generated:([a-z0-9-]+) -->[\s\S]*?<!-- \/generated:\1 -->/g, '');
}

describe(PAGE, () => {
  it('says what every folder of src/ owns, in an item of its own', () => {
    const items = handWritten(readDoc(PAGE))
      .split('\n')
      .filter((line) => line.startsWith('- '));
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    expect(folders.length).toBeGreaterThan(10);
    const unnamed = folders.filter((folder) => !items.some((item) => item.includes(`\`${folder}\``)));
    expect(unnamed, `folders of src/ with no item on ${PAGE}`).toEqual([]);
  });
});
