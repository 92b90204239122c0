// Configuration problems: the shape of one problem, the result of checking one value (and the string schema
// that applies such a check), the error that lists them all, and the wording helpers (suggestions for typos,
// quoting only what is safe to quote) shared by the env and file checks.
import { z } from 'zod';
import { scrubSecrets } from './secret.js';

/** One thing wrong with the configuration, said so a person can fix it without reading code. */
export interface ConfigIssue {
  /** The environment variable (SCC_REGION) or the profiles file's path. */
  readonly source: string;
  /** 1-based line in the profiles file, when the problem is in it. */
  readonly line?: number;
  /** Key path inside the profiles file, such as profiles.acme.region. */
  readonly key?: string;
  /** What is wrong, in plain words. Never quotes the offending value: it may be a secret. */
  readonly problem: string;
  /** A right value, written the way it is set: `SCC_REGION=eu` or `region: eu`. */
  readonly example?: string;
}

/** The result of checking one value: the parsed value, or what is wrong with it (without quoting it). */
export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: string };

export function accept<T>(value: T): Checked<T> {
  return { ok: true, value };
}

export function refuse<T>(problem: string): Checked<T> {
  return { ok: false, problem };
}

/** A string schema whose value is checked (and converted) by a Checked-returning function. */
export function checkedString<T>(check: (raw: string) => Checked<T>) {
  return z.string().transform((raw, ctx): T => {
    const result = check(raw);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  });
}

export function formatIssue(issue: ConfigIssue): string {
  const where = `${issue.source}${issue.line === undefined ? '' : `:${issue.line}`}`;
  const key = issue.key === undefined ? '' : ` ${issue.key}`;
  const example = issue.example === undefined ? '' : ` (example: ${issue.example})`;
  return `${where}${key}: ${issue.problem}${example}`;
}

/** Thrown by loadConfig with every problem found, so one restart is enough to see them all. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(
      `The configuration is not valid (${count}):\n${issues.map((i) => `  - ${formatIssue(i)}`).join('\n')}`,
    );
    this.issues = Object.freeze([...issues]);
  }
}

/** Rewrites every text field of the issues with the secrets removed (see scrubSecrets). */
export function scrubIssues(issues: readonly ConfigIssue[], secrets: readonly string[]): ConfigIssue[] {
  const scrub = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : scrubSecrets(text, secrets);
  return issues.map((issue) => {
    const scrubbed: ConfigIssue = {
      source: scrub(issue.source) ?? issue.source,
      problem: scrub(issue.problem) ?? issue.problem,
      ...(issue.line === undefined ? {} : { line: issue.line }),
      ...(issue.key === undefined ? {} : { key: scrub(issue.key) }),
      ...(issue.example === undefined ? {} : { example: scrub(issue.example) }),
    };
    return scrubbed;
  });
}

// Keys, profile names and ids are quoted back only when they look like a short identifier. A credential
// typed into the wrong place is long or full of punctuation, so it never matches.
const QUOTABLE = /^[A-Za-z_][A-Za-z0-9_-]{0,29}$/;

export function isQuotable(text: string): boolean {
  return QUOTABLE.test(text);
}

/** The closest candidate to a mistyped word, if one is close enough to be what was meant. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const lowered = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lowered, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  // One edit per three letters: catches typos and swapped letters, not unrelated words.
  const allowed = Math.max(1, Math.floor(best.candidate.length / 3));
  return best.distance <= allowed ? best.candidate : undefined;
}

/** Optimal string alignment distance: Levenshtein plus adjacent swaps (regoin → region is one edit). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return at(rows - 1, cols - 1);
}
