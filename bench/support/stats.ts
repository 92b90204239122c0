// Small statistics and table helpers shared by the benchmarks and drills: percentiles over measured
// samples, ratios that say "n/a" instead of dividing by nothing, and Markdown tables that read well in a
// terminal too (padded columns).

/** The p-th percentile (0–100) of samples, nearest-rank; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export function mean(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  return samples.reduce((sum, x) => sum + x, 0) / samples.length;
}

export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 || !Number.isFinite(denominator) ? Number.NaN : numerator / denominator;
}

/** A number for a table: fixed decimals, thousands separated, "n/a" for what could not be measured. */
export function num(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export const mib = (bytes: number): string => num(bytes / 1024 / 1024, 1);

export interface Table {
  title: string;
  /** What the table measured and how, printed under the title. */
  notes?: readonly string[];
  headers: readonly string[];
  rows: readonly (readonly string[])[];
}

/** A Markdown table with padded columns, so the same text prints in a terminal and renders on a forge. */
export function markdownTable(table: Table): string {
  const widths = table.headers.map((header, i) =>
    Math.max(header.length, ...table.rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  const parts = [`### ${table.title}`, ''];
  for (const note of table.notes ?? []) parts.push(note);
  if (table.notes?.length) parts.push('');
  parts.push(line(table.headers), rule, ...table.rows.map(line));
  return parts.join('\n');
}

/** mulberry32: a small seeded generator, so every run plans the same workload. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
