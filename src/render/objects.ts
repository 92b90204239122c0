// Views of the objects SCC keeps for a tenant's devices: the list with each object's content, and one object
// with its content, the devices it is on and where it is used (grouped by what uses it, each group counted;
// a rule named by its configuration line). Names and content come from SCC (and so from whoever wrote the
// configuration): they go through untrusted() or code(), never into fwbot's own markup as they are.
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type { ObjectResponse, ReferenceInfo, UnifiedObjectListView } from '../scc/generated/models.js';
import { code, counted, fieldBlocks, humanEnum, NONE, truncate, typeLabel } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

/** Usages listed per kind of user of an object. */
export const MAX_USAGES = 30;

/** An object's content in one line: its literal, its literals, the objects it holds. */
export function contentText(content: Record<string, unknown> | null | undefined): string {
  if (!content) return NONE;
  const parts: string[] = [];
  const one = (value: unknown): string | undefined => {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key of ['literal', 'value', 'url', 'port', 'protocol'])
        if (typeof record[key] === 'string' || typeof record[key] === 'number') return String(record[key]);
    }
    return undefined;
  };
  const literal = one(content);
  if (literal !== undefined) parts.push(literal);
  if (Array.isArray(content.literals))
    for (const item of content.literals) {
      const shown = one(item);
      if (shown !== undefined) parts.push(shown);
    }
  if (Array.isArray(content.referencedObjectUids) && content.referencedObjectUids.length > 0)
    parts.push(counted(content.referencedObjectUids.length, 'object'));
  return parts.length > 0 ? parts.join(', ') : NONE;
}

/** SCC's UI lists an object's flattened content (`elements`) where its answer has it; else its content. */
function listedContent(item: UnifiedObjectListView): string {
  const { elements } = item as { elements?: unknown };
  if (Array.isArray(elements) && elements.length > 0 && elements.every((e) => typeof e === 'string'))
    return elements.join(', ');
  return contentText(item.value?.defaultContent);
}

export function renderObjects(
  items: readonly UnifiedObjectListView[],
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  return listView(
    {
      title: 'Objects',
      page,
      query,
      columns: ['Name', 'Type', 'Content', 'Devices', 'Description', 'UUID'],
      rows: items.map((item) => [
        item.name,
        humanEnum(item.value?.objectType),
        listedContent(item),
        item.targetIds?.length ?? 0,
        item.description,
        item.uid,
      ]),
      widths: [40, undefined, 40, undefined, 40],
      numeric: [3],
      hint: '`/fw objects show <name>` shows one object and where it is used. A query with a colon searches `name` or `content` (Lucene).',
      empty: 'no objects.',
    },
    meta,
  );
}

/**
 * `NETWORK_GROUP` → `network groups`. The reference names object kinds only: a usage without one is told
 * by what it is (SCC names a rule by its configuration line).
 */
export function usageKind(usage: ReferenceInfo): string {
  if (usage.objectType) {
    const words = humanEnum(usage.objectType);
    return words.endsWith('s') ? words : `${words}s`;
  }
  const name = usage.name ?? '';
  if (/^access-list\s/i.test(name)) return 'access rules';
  if (/\bnat\s*\(/i.test(name)) return 'NAT rules';
  return 'other uses';
}

export function renderObject(object: ObjectResponse, usages: readonly ReferenceInfo[]): View {
  const name = object.name ?? object.uid ?? 'object';
  const blocks: ViewBlock[] = [{ kind: 'header', text: truncate(name, 150) }];
  const targets = (object.targets ?? []).map((target) =>
    target.displayName ? `${target.displayName} (${typeLabel(target.type)})` : (target.id ?? NONE),
  );
  blocks.push(
    ...fieldBlocks([
      ['Type', humanEnum(object.value?.objectType)],
      ['Description', object.description],
      ['Content', contentText(object.value?.defaultContent)],
      ['Overrides', object.value?.overrides?.length || undefined],
      ['Labels', object.labels],
      ['Read only', object.readOnly || undefined],
      ['UUID', object.uid],
    ]),
  );
  const elements = object.elements ?? [];
  if (elements.length > 0) blocks.push({ kind: 'code', text: elements.join('\n') });
  blocks.push({
    kind: 'text',
    text:
      targets.length > 0
        ? `*On ${counted(targets.length, 'device')}:* ${targets.map((target) => untrusted(target)).join(', ')}`
        : '*On no device.*',
  });
  blocks.push(...usageBlocks(usages));
  return {
    summary: `Object ${name}: used by ${counted(usages.length, 'rule, group or object', 'rules, groups or objects')}`,
    blocks,
    visibility: 'ephemeral',
  };
}

/** Where an object is used, grouped by what uses it, each group counted. */
function usageBlocks(usages: readonly ReferenceInfo[]): ViewBlock[] {
  if (usages.length === 0)
    return [{ kind: 'text', text: '*Used nowhere:* no rule, group or object references it.' }];
  const byKind = new Map<string, ReferenceInfo[]>();
  for (const usage of usages) {
    const kind = usageKind(usage);
    byKind.set(kind, [...(byKind.get(kind) ?? []), usage]);
  }
  const lines = [`*Used by ${counted(usages.length, 'item')}:*`];
  for (const [kind, items] of byKind) {
    const shown = items.slice(0, MAX_USAGES);
    const more = items.length > shown.length ? ` and ${items.length - shown.length} more` : '';
    if (kind.endsWith('rules')) {
      // A rule is named by its configuration line: one a line, as code.
      lines.push(`• ${kind} (${items.length}):`);
      for (const item of shown) lines.push(`    ◦ ${code(item.name ?? item.uid ?? NONE)}`);
      if (more) lines.push(`    ◦ …${more}`);
    } else {
      const names = shown.map((item) => untrusted(item.name ?? item.uid ?? NONE));
      lines.push(`• ${kind} (${items.length}): ${names.join(', ')}${more}`);
    }
  }
  return [{ kind: 'text', text: lines.join('\n') }];
}
