// The docs' generated blocks say what the code says today: each `<!-- generated:NAME -->` block of
// README.md and docs/ is exactly what `npm run docs` (scripts/generate-docs.ts) would write there, and
// every block the generator knows is shown somewhere.
import { describe, expect, it } from 'vitest';
import { DocsError, GENERATED_BLOCKS, regenerate } from '../../scripts/generate-docs.js';
import { docFiles, readDoc } from './markdown.js';

const files = docFiles();

describe('generated blocks of the docs', () => {
  it.each(files)('%s: every generated block is current', (file) => {
    const { stale } = regenerate(readDoc(file), file);
    expect(
      stale,
      `${file}: the generated block(s) ${stale.join(', ')} differ from the code; run \`npm run docs\` and commit the result`,
    ).toEqual([]);
  });

  it('shows every block the generator knows', () => {
    const shown = new Set(files.flatMap((file) => regenerate(readDoc(file), file).names));
    expect(Object.keys(GENERATED_BLOCKS).filter((name) => !shown.has(name))).toEqual([]);
  });

  it('finds a stale block, and rewrites it without touching the text around it', () => {
    const blocks = { answer: () => 'forty-two' };
    const text = 'before\n<!-- generated:answer -->\nold\n<!-- /generated:answer -->\nafter\n';
    const once = regenerate(text, 'x.md', blocks);
    expect(once.stale).toEqual(['answer']);
    expect(once.text).toBe(
      'before\n<!-- generated:answer -->\n\nforty-two\n\n<!-- /generated:answer -->\nafter\n',
    );
    expect(regenerate(once.text, 'x.md', blocks).stale).toEqual([]);
  });

  it('refuses a block it does not know, and one never closed, naming the file and line', () => {
    const blocks = { answer: () => 'forty-two' };
    expect(() => regenerate('<!-- generated:question -->\n', 'x.md', blocks)).toThrow(
      new DocsError('x.md:1: there is no generated block named `question` (known: answer)'),
    );
    expect(() => regenerate('text\n<!-- generated:answer -->\n', 'x.md', blocks)).toThrow(
      new DocsError('x.md:2: the block `answer` has no `<!-- /generated:answer -->`'),
    );
  });
});
