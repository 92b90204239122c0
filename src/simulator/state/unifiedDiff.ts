// A textual unified diff of two configurations, as SCC's change log shows one: `---`/`+++` headers, then
// hunks of changed lines with three lines of context. Line-based longest common subsequence: ASA
// configurations are a few hundred lines, so the quadratic table stays small. Pure: no state, no clock.

const CONTEXT = 3;

type Edit = { kind: ' ' | '-' | '+'; line: string };

function edits(before: readonly string[], after: readonly string[]): Edit[] {
  const n = before.length;
  const m = after.length;
  // lcs[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = lcs[i] as Uint32Array; // i ≤ n: every row exists
    const below = lcs[i + 1] as Uint32Array;
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

const lines = (text: string): string[] => {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  return all;
};

/**
 * The unified diff from `before` to `after` (labelled with the two names), or undefined when the texts
 * have the same lines.
 */
export function unifiedDiff(
  before: string,
  after: string,
  labels = { before: 'a', after: 'b' },
): string | undefined {
  const script = edits(lines(before), lines(after));
  const changed = script.flatMap((e, index) => (e.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return undefined;
  // Group changes whose context windows touch into one hunk.
  const hunks: { from: number; to: number }[] = [];
  for (const index of changed) {
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(script.length, index + CONTEXT + 1);
    const last = hunks.at(-1);
    if (last !== undefined && from <= last.to) last.to = Math.max(last.to, to);
    else hunks.push({ from, to });
  }
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  // Line numbers at the start of each script position, in the old and the new text.
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
    const oldStart = oldCount === 0 ? start.old - 1 : start.old;
    const newStart = newCount === 0 ? start.new - 1 : start.new;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const e of body) out.push(`${e.kind}${e.line}`);
  }
  return `${out.join('\n')}\n`;
}
