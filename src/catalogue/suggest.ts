// "Did you mean": edit distance between what was typed and the words, choices or names that exist.
// Transpositions count as one edit, because "lsit" and "shwo" are the typos thumbs make.

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = [];
  for (let i = 0; i <= s.length; i += 1) {
    const row: number[] = [];
    for (let j = 0; j <= t.length; j += 1) {
      if (i === 0 || j === 0) {
        row.push(i + j);
        continue;
      }
      const cost = s.charAt(i - 1) === t.charAt(j - 1) ? 0 : 1;
      const prev = rows[i - 1] ?? [];
      let best = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s.charAt(i - 1) === t.charAt(j - 2) && s.charAt(i - 2) === t.charAt(j - 1)) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[s.length]?.[t.length] ?? Math.max(s.length, t.length);
}

/** How many edits still count as a typo of `word`: one for short words, two for longer ones. */
export function typoBudget(word: string): number {
  return word.length <= 4 ? 1 : 2;
}

/**
 * True when `typed` is close enough to `word` to be a typo of it. The word itself is not a typo, nor is
 * the word with something appended ("vlan10" is a name, not a misspelt "vlan").
 */
export function isNearMiss(typed: string, word: string): boolean {
  const lower = typed.toLowerCase();
  if (lower.length < 3 || lower.startsWith(word.toLowerCase())) return false;
  return editDistance(typed, word) <= typoBudget(word);
}

/**
 * The candidates worth offering for `typed`: within the typo budget, or starting with it (so "int"
 * suggests "interfaces"), nearest first, then alphabetically.
 */
export function suggest(typed: string, candidates: readonly string[], max = 3): string[] {
  const lower = typed.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(typed, candidate) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= typoBudget(candidate) || (lower.length >= 2 && candidate.toLowerCase().startsWith(lower)),
    )
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}
