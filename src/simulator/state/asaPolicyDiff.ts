// The ASA commands that turn the device's policy lines into SCC's copy: what a deploy runs (and the
// calculation shows) after a rule, access group or object change staged through the API. In an order the
// ASA accepts: objects and object-groups defined (or changed) before the rules that name them, bindings
// removed before their lists, rules removed then inserted at their line (`access-list X line N …`, so a
// rule lands where SCC's copy has it and the later lines shift), new bindings, then the groups and objects
// nothing names any more. Pure functions over policy lines.
import { blocks } from './asaPolicyLines.js';

const isDefinition = (head: string) =>
  head.startsWith('object ') || head.startsWith('object-group ') || head.startsWith('time-range ');
const aclName = (line: string) => line.split(/\s+/)[1] ?? '';

/** The head → body of every definition block, in order. */
function definitions(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [head = '', ...body] of blocks(lines)) {
    if (!isDefinition(head)) continue;
    out.set(head, [...(out.get(head) ?? []), ...body]);
  }
  return out;
}

/** The lines of each access list, in order, by name. */
function accessLists(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    if (!line.startsWith('access-list ')) continue;
    const name = aclName(line);
    out.set(name, [...(out.get(name) ?? []), line]);
  }
  return out;
}

/** The other top-level lines (bindings, routes), each once. */
const topLevel = (lines: readonly string[], prefix: string) =>
  lines.filter((l) => l.startsWith(prefix) && !l.startsWith(' '));

/** Which of `from`'s and `to`'s lines are kept (a longest common subsequence), as index sets. */
function kept(from: readonly string[], to: readonly string[]): { from: Set<number>; to: Set<number> } {
  const n = from.length;
  const m = to.length;
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      (table[i] as number[])[j] =
        from[i] === to[j]
          ? ((table[i + 1] as number[])[j + 1] ?? 0) + 1
          : Math.max((table[i + 1] as number[])[j] ?? 0, (table[i] as number[])[j + 1] ?? 0);
  const out = { from: new Set<number>(), to: new Set<number>() };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (from[i] === to[j]) {
      out.from.add(i);
      out.to.add(j);
      i += 1;
      j += 1;
    } else if (((table[i + 1] as number[])[j] ?? 0) >= ((table[i] as number[])[j + 1] ?? 0)) i += 1;
    else j += 1;
  }
  return out;
}

/** The commands that make one access list `before` into `after` (both its lines, in order). */
function accessListCommands(name: string, before: readonly string[], after: readonly string[]): string[] {
  if (after.length === 0) return before.length === 0 ? [] : [`clear configure access-list ${name}`];
  const same = kept(before, after);
  const removed = before.filter((_, i) => !same.from.has(i)).map((line) => `no ${line}`);
  const prefix = `access-list ${name} `;
  const added = after.flatMap((line, i) => {
    if (same.to.has(i)) return [];
    // A list the device does not have yet is written line after line; else each line goes where SCC has it.
    return before.length === 0 ? [line] : [`${prefix}line ${i + 1} ${line.slice(prefix.length)}`];
  });
  return [...removed, ...added];
}

/** The commands a deploy runs to make the device's policy lines (`onDevice`) into SCC's (`onCloud`). */
export function policyCommands(onDevice: readonly string[], onCloud: readonly string[]): string[] {
  const defsBefore = definitions(onDevice);
  const defsAfter = definitions(onCloud);
  const defined: string[] = [];
  for (const kind of ['time-range ', 'object ', 'object-group ']) {
    for (const [head, body] of defsAfter) {
      if (!head.startsWith(kind)) continue;
      const was = defsBefore.get(head);
      if (was === undefined) defined.push(head, ...body);
      else {
        const gone = was.filter((l) => !body.includes(l)).map((l) => ` no ${l.trim()}`);
        const come = body.filter((l) => !was.includes(l));
        if (gone.length + come.length > 0) defined.push(head, ...gone, ...come);
      }
    }
  }
  const undefine: string[] = [];
  for (const kind of ['object-group ', 'object ', 'time-range ']) {
    for (const head of defsBefore.keys())
      if (head.startsWith(kind) && !defsAfter.has(head)) undefine.push(`no ${head}`);
  }

  const listsBefore = accessLists(onDevice);
  const listsAfter = accessLists(onCloud);
  const lists = [...new Set([...listsAfter.keys(), ...listsBefore.keys()])].flatMap((name) =>
    accessListCommands(name, listsBefore.get(name) ?? [], listsAfter.get(name) ?? []),
  );

  const diff = (prefix: string) => {
    const before = topLevel(onDevice, prefix);
    const after = topLevel(onCloud, prefix);
    return {
      removed: before.filter((l) => !after.includes(l)).map((l) => `no ${l}`),
      added: after.filter((l) => !before.includes(l)),
    };
  };
  const bindings = diff('access-group ');
  const routes = diff('route ');
  return [
    ...defined,
    ...bindings.removed,
    ...lists,
    ...bindings.added,
    ...undefine,
    ...routes.removed,
    ...routes.added,
  ];
}
