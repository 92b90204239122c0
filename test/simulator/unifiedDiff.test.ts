// The change log's textual diff: unified format, three lines of context, nearby changes in one hunk, far
// apart ones in two, line numbers of both texts, and nothing when the lines are the same.
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/simulator/state/unifiedDiff.js';

const text = (n: number, change: Record<number, string | null> = {}) =>
  `${Array.from({ length: n }, (_, i) => i + 1)
    .flatMap((line) => {
      const replaced = change[line];
      return replaced === null ? [] : [replaced ?? `line ${line}`];
    })
    .join('\n')}\n`;

describe('unifiedDiff', () => {
  it('is undefined for the same lines', () => {
    expect(unifiedDiff(text(5), text(5))).toBeUndefined();
  });

  it('shows a change with three lines of context and both line numbers', () => {
    expect(unifiedDiff(text(10), text(10, { 5: 'five' }), { before: 'old', after: 'new' })).toBe(
      [
        '--- old',
        '+++ new',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+five',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('joins nearby changes into one hunk and keeps distant ones apart', () => {
    const near = unifiedDiff(text(20), text(20, { 3: null, 6: 'six' })) ?? '';
    expect(near.match(/^@@/gm)).toHaveLength(1);
    const far = unifiedDiff(text(30), text(30, { 2: 'two', 25: null })) ?? '';
    expect(far.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -22,7 +22,6 @@']);
  });

  it('shows lines added at the end and a text that was empty', () => {
    expect(unifiedDiff('', 'a\nb\n')).toBe('--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });
});
