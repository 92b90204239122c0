// Changing an access list of the simulated ASA (a change made in SCC's UI and deployed at once): whether a
// line may go in (the ASA's own refusals: not an ACE or remark, an object it does not know, no source or
// destination), the policy lines with a line inserted before line N of its list (ASA semantics: remarks
// count; none appends) or removed, and the ASA command that makes each change. The admin routes
// (admin/policy.ts) apply them to the world. Pure functions over policy lines.
import { parseAce } from './asaAccessLists.js';
import { definitionsOf } from './asaObjects.js';
import type { AsaPolicy } from './asaPolicyModel.js';

export interface AccessListEdit {
  acl: string;
  /** ASA semantics: insert before the list's current line N (remarks count); absent: append. */
  line?: number | undefined;
  /** What follows `access-list NAME`: `extended permit …` or `remark …`. */
  rule: string;
}

/** Why a line cannot go into this policy (ASA-like refusals), or undefined when it can. */
export function accessListLineProblem(policy: AsaPolicy, rule: string): string | undefined {
  const t = rule.trim().split(/\s+/);
  if (t[0] === 'remark') return t.length > 1 ? undefined : 'a remark needs its text';
  if (t[0] !== 'extended') return 'the line must be `extended permit|deny …` or `remark …`';
  if (t[1] !== 'permit' && t[1] !== 'deny') return `"${t[1] ?? ''}" is not permit or deny`;
  const names = new Set([...policy.objects.map((o) => o.name), ...policy.objectGroups.map((g) => g.name)]);
  for (const [i, word] of t.entries()) {
    const previous = t[i - 1];
    if ((previous === 'object' || previous === 'object-group') && !names.has(word)) {
      return `specified object (${word}) does not exist`;
    }
  }
  const parsed = parseAce(definitionsOf(policy), `access-list X ${rule}`);
  if (parsed.source === undefined || parsed.destination === undefined) {
    return 'the line needs a source and a destination (any, host A, A MASK, object X, object-group X)';
  }
  return undefined;
}

/** The policy lines with `edit` applied, and the ASA command that makes the change. */
export function insertAccessListLine(
  lines: readonly string[],
  edit: AccessListEdit,
): { lines: string[]; command: string; text: string } {
  const text = `access-list ${edit.acl} ${edit.rule.trim().split(/\s+/).join(' ')}`;
  const out = [...lines];
  const positions = out.flatMap((l, i) => (l.startsWith(`access-list ${edit.acl} `) ? [i] : []));
  const before = edit.line === undefined ? undefined : positions[edit.line - 1];
  if (before !== undefined) out.splice(before, 0, text);
  else {
    const last = positions.at(-1);
    if (last !== undefined) out.splice(last + 1, 0, text);
    else out.push(text);
  }
  const command =
    edit.line === undefined
      ? text
      : `access-list ${edit.acl} line ${edit.line} ${text.slice(`access-list ${edit.acl} `.length)}`;
  return { lines: out, command, text };
}

/** The policy lines without line `line` of `acl`, and the ASA command that removes it. */
export function removeAccessListLine(
  lines: readonly string[],
  acl: string,
  line: number,
): { lines: string[]; command: string; text: string } | undefined {
  const positions = lines.flatMap((l, i) => (l.startsWith(`access-list ${acl} `) ? [i] : []));
  const at = positions[line - 1];
  if (at === undefined) return undefined;
  const text = lines[at] ?? '';
  return { lines: lines.filter((_, i) => i !== at), command: `no ${text}`, text };
}
