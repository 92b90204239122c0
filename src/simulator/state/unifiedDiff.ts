// A textual unified diff of two configurations, as SCC's change log shows one: `---`/`+++` headers, then
// hunks of changed lines with three lines of context. The same diff fwbot shows of a device's running
// configuration (src/model/unifiedDiff.ts), labelled `a`/`b` unless told otherwise.
import { unifiedConfigDiff } from '../../model/unifiedDiff.js';

/**
 * The unified diff from `before` to `after` (labelled with the two names), or undefined when the texts
 * have the same lines.
 */
export function unifiedDiff(
  before: string,
  after: string,
  labels = { before: 'a', after: 'b' },
): string | undefined {
  return unifiedConfigDiff(before, after, labels)?.text;
}
