// The unified diff of two running configurations (`---`/`+++` headers, hunks with three lines of context),
// as fwbot posts after a deploy and `/fw config diff` shows, and as the simulator's change log carries it
// (src/simulator/state/unifiedDiff.ts): one diff for both, here in model/ where either may import it.
// fwbot keeps its own rather than the npm `diff` package: the job is small (whole lines, no patching), and
// a dependency would be one more thing to audit for a file that holds device configurations. Pure: no
// state, no clock.
//
// A deploy changes a few lines of a configuration of thousands, so the common head and tail are set aside
// first and the longest common subsequence is computed over what is left; when even that is too large for
// a quadratic table (two unrelated configurations), the middle is shown as removed, then added: still a
// correct diff, only not the shortest.

const CONTEXT = 3;
/** Cells of the LCS table at most (16 MB of Uint32): beyond it, the middle is replaced whole. */
const MAX_TABLE_CELLS = 4_000_000;

type Edit = { kind: ' ' | '-' | '+'; line: string };

function middleEdits(before: readonly string[], after: readonly string[]): Edit[] {
  const n = before.length;
  const m = after.length;
  if ((n + 1) * (m + 1) > MAX_TABLE_CELLS) {
    return [
      ...before.map((line): Edit => ({ kind: '-', line })),
      ...after.map((line): Edit => ({ kind: '+', line })),
    ];
  }
  // lcs[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = lcs[i] as Uint32Array; // i ≤ n: every row exists
    const below = lcs[i + 1] as Uint32Array; // i + 1 ≤ n
    for (let j = m - 1; j >= 0; j -= 1) {
      row[j] = before[i] === after[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push({ kind: ' ', line: before[i] ?? '' });
      i += 1;
      j += 1;
    } else if (i < n && (j === m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      // Removals before additions, as diff prints a replaced line.
      out.push({ kind: '-', line: before[i] ?? '' });
      i += 1;
    } else {
      out.push({ kind: '+', line: after[j] ?? '' });
      j += 1;
    }
  }
  return out;
}

function edits(before: readonly string[], after: readonly string[]): Edit[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail += 1;
  const same = (line: string): Edit => ({ kind: ' ', line });
  return [
    ...before.slice(0, head).map(same),
    ...middleEdits(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map(same),
  ];
}

const linesOf = (text: string): string[] => {
  const all = text.replace(/\r\n/g, '\n').split('\n');
  if (all.at(-1) === '') all.pop();
  return all;
};

/** How many lines a diff removes and adds. */
export interface DiffCounts {
  removed: number;
  added: number;
}

/**
 * The unified diff from `before` to `after`, labelled with the two names, and what it counts; undefined
 * when the two texts have the same lines.
 */
export function unifiedConfigDiff(
  before: string,
  after: string,
  labels: { before: string; after: string },
): { text: string; counts: DiffCounts } | undefined {
  const script = edits(linesOf(before), linesOf(after));
  const changed = script.flatMap((e, index) => (e.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return undefined;
  // Changes whose context windows touch make one hunk.
  const hunks: { from: number; to: number }[] = [];
  for (const index of changed) {
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(script.length, index + CONTEXT + 1);
    const last = hunks.at(-1);
    if (last !== undefined && from <= last.to) last.to = Math.max(last.to, to);
    else hunks.push({ from, to });
  }
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  let oldLine = 1;
  let newLine = 1;
  const starts = script.map((e) => {
    const at = { old: oldLine, new: newLine };
    if (e.kind !== '+') oldLine += 1;
    if (e.kind !== '-') newLine += 1;
    return at;
  });
  for (const hunk of hunks) {
    const body = script.slice(hunk.from, hunk.to);
    const oldCount = body.filter((e) => e.kind !== '+').length;
    const newCount = body.filter((e) => e.kind !== '-').length;
    const start = starts[hunk.from] ?? { old: 1, new: 1 };
    // diff's convention: an empty side starts at the line before it.
    const oldStart = oldCount === 0 ? start.old - 1 : start.old;
    const newStart = newCount === 0 ? start.new - 1 : start.new;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const e of body) out.push(`${e.kind}${e.line}`);
  }
  const counts = {
    removed: script.filter((e) => e.kind === '-').length,
    added: script.filter((e) => e.kind === '+').length,
  };
  return { text: `${out.join('\n')}\n`, counts };
}
