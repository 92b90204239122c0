// Reading the docs as GitHub shows them, for the docs' tests: the Markdown files (README.md and docs/),
// their headings' anchors by GitHub's slug rules, and their relative links. Code blocks and code spans
// are left out, as GitHub does not read links or headings in them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docFiles, ROOT } from '../../scripts/generate-docs.js';

export { docFiles, ROOT };

export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** The lines outside fenced code blocks, with their line numbers (1-based). */
export function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ line, number: index + 1 });
  });
  return lines;
}

/**
 * GitHub's anchor for a heading (github-slugger): the text as shown, lower-cased, without punctuation or
 * symbols (letters, digits, `-` and `_` stay), spaces as hyphens.
 */
export function slug(heading: string): string {
  const shown = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/[*]/g, '');
  return shown
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading's anchor in a document, the repeated ones numbered as GitHub numbers them (`-1`, `-2`). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images (`[text](target)`, the text may wrap), outside code, with the line they start on. */
export function links(text: string): Link[] {
  // Code blocks become empty lines, so line numbers still count from the top of the file.
  const prose = new Map(proseLines(text).map(({ line, number }) => [number, line]));
  const lineCount = text.split('\n').length;
  const joined = Array.from({ length: lineCount }, (_, index) =>
    (prose.get(index + 1) ?? '').replace(/`[^`]*`/g, ''),
  ).join('\n');
  const found: Link[] = [];
  for (const match of joined.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1];
    const line = joined.slice(0, match.index).split('\n').length;
    if (target !== undefined) found.push({ target, line });
  }
  return found;
}
