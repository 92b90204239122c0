// The unified diff fwbot posts after a deploy and `/fw config diff` shows (src/model/unifiedDiff.ts).
import { describe, expect, it } from 'vitest';
import { unifiedConfigDiff } from '../../src/model/unifiedDiff.js';

const labels = { before: 'a', after: 'b' };
const config = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('unified configuration diff', () => {
  it('is undefined when the lines are the same (line endings aside)', () => {
    expect(unifiedConfigDiff('x\ny\n', 'x\r\ny\r\n', labels)).toBeUndefined();
  });

  it('shows a removal with three lines of context and the hunk header diff would print', () => {
    const before = config(20);
    const after = before.filter((line) => line !== 'line 10');
    expect(unifiedConfigDiff(before.join('\n'), after.join('\n'), labels)).toEqual({
      text: '--- a\n+++ b\n@@ -7,7 +7,6 @@\n line 7\n line 8\n line 9\n-line 10\n line 11\n line 12\n line 13\n',
      counts: { removed: 1, added: 0 },
    });
  });

  it('makes separate hunks of changes far apart, and one hunk of changes whose context touches', () => {
    const before = config(40);
    const after = [...before];
    after[2] = 'changed 3';
    after[5] = 'changed 6';
    after[30] = 'changed 31';
    const diff = unifiedConfigDiff(before.join('\n'), after.join('\n'), labels);
    expect(diff?.text.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,9 +1,9 @@', '@@ -28,7 +28,7 @@']);
    expect(diff?.counts).toEqual({ removed: 3, added: 3 });
  });

  it('compares configurations of thousands of lines changed in a few places', () => {
    const before = config(20_000);
    const after = [
      ...before.slice(0, 10_000),
      'access-list new extended permit ip any any',
      ...before.slice(10_000),
    ];
    const diff = unifiedConfigDiff(before.join('\n'), after.join('\n'), labels);
    expect(diff?.counts).toEqual({ removed: 0, added: 1 });
    expect(diff?.text).toContain('@@ -9998,6 +9998,7 @@');
  });

  it('replaces the whole middle when two configurations share too little for the table', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a ${i}`);
    const after = Array.from({ length: 3000 }, (_, i) => `b ${i}`);
    const diff = unifiedConfigDiff(before.join('\n'), after.join('\n'), labels);
    expect(diff?.counts).toEqual({ removed: 3000, added: 3000 });
    expect(diff?.text.startsWith('--- a\n+++ b\n@@ -1,3000 +1,3000 @@\n-a 0\n')).toBe(true);
  });
});
