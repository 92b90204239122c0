// Views of SCC's lookups: the global search grouped by what was found, an ASA's access rules (with the
// shadowed and duplicate ones flagged, and the rule that causes each), one rule with its configuration
// line, the object list, and one object with where it is used. Every name, configuration line and remark
// comes from SCC (and so, in the end, from whoever wrote the configuration): it goes through untrusted(),
// code() or a code block, never into fwbot's own markup as it is.
import type { RenderMeta } from '../model/types.js';
import type { Button, View, ViewBlock } from '../model/view.js';
import type {
  AccessGroup,
  AccessRule,
  AccessRuleDetailsContent,
  AccessRuleIssue,
  CdFmcObject,
  Entity,
  GlobalSearchResult,
  ObjectResponse,
  ReferenceInfo,
  UnifiedObjectListView,
} from '../scc/generated/models.js';
import { code, counted, fieldBlocks, humanEnum, isLinkableUrl, NONE, show, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

/** Lines of an ASA's configuration shown per device found by a search; the rest are counted. */
export const MAX_MATCHING_LINES = 20;
/** Items listed per kind of search result; the rest are counted. */
export const MAX_SEARCH_ITEMS = 15;
/** Link buttons of cdFMC results (Slack takes 25 buttons per message, and a reader far fewer). */
const MAX_LINK_BUTTONS = 5;
/** Usages listed per kind of user of an object. */
export const MAX_USAGES = 30;

/** `ASA` as people write it; SCC's other types in words. */
function typeLabel(type: string | null | undefined): string {
  return type === 'ASA' ? 'ASA' : humanEnum(type);
}

// --- access groups --------------------------------------------------------------------------------------

/** An access group as its rules are labelled: the list's name and where it is applied. */
export interface AccessGroupLabel {
  uid: string;
  name: string;
  /** Its place in SCC's list of the device's groups: rules are ordered by it. */
  order: number;
  /** `in on outside`, `out on dmz`, `global`. */
  bindings: string[];
}

const DIRECTIONS: Readonly<Record<string, string>> = {
  INBOUND: 'in',
  IN: 'in',
  OUTBOUND: 'out',
  OUT: 'out',
};

/**
 * Where an access group is applied, from its `resources`: the reference says each is an interface and a
 * direction (`{interfaceName, direction}`, possibly one key per entry) or `{global: true}`, and leaves
 * the nesting open, so the keys are looked for in each entry and one level below it.
 */
export function accessGroupBindings(group: Pick<AccessGroup, 'resources'>): string[] {
  const entries = (group.resources ?? []).map((resource) => {
    const flat: Record<string, unknown> = { ...resource };
    for (const value of Object.values(resource))
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(flat, value);
    return flat;
  });
  const bindings: string[] = [];
  let pendingInterface: string | undefined;
  let pendingDirection: string | undefined;
  const flush = () => {
    if (pendingInterface !== undefined) bindings.push(`${pendingDirection ?? 'in'} on ${pendingInterface}`);
    pendingInterface = undefined;
    pendingDirection = undefined;
  };
  for (const entry of entries) {
    if (entry.global === true || entry.global === 'true') {
      flush();
      bindings.push('global');
      continue;
    }
    const name = typeof entry.interfaceName === 'string' ? entry.interfaceName : undefined;
    const direction =
      typeof entry.direction === 'string'
        ? (DIRECTIONS[entry.direction.toUpperCase()] ?? entry.direction.toLowerCase())
        : undefined;
    // One entry may hold both; the reference's example splits them over two entries.
    if (name !== undefined && pendingInterface !== undefined) flush();
    if (name !== undefined) pendingInterface = name;
    if (direction !== undefined) pendingDirection = direction;
    if (pendingInterface !== undefined && pendingDirection !== undefined) flush();
  }
  flush();
  return [...new Set(bindings)];
}

export function accessGroupLabel(group: AccessGroup, order: number): AccessGroupLabel {
  return { uid: group.uid, name: group.name, order, bindings: accessGroupBindings(group) };
}

/** `outside_access_in (in on outside)`, as untrusted text. */
function groupText(group: AccessGroupLabel | undefined): string {
  if (!group) return 'an access group SCC no longer has';
  const where = group.bindings.length > 0 ? group.bindings.join(', ') : 'not applied';
  return `${untrusted(group.name)} (${untrusted(where)})`;
}

// --- access rules ---------------------------------------------------------------------------------------

/** A remark line: SCC lists it among the rules, without an action. */
export function isRemark(rule: AccessRule): boolean {
  if (rule.ruleAction) return false;
  return (
    /remark/i.test(rule.ruleType ?? '') ||
    /^access-list\s+\S+\s+remark\b/i.test(rule.ruleConfigurationText ?? '')
  );
}

/** The remark's own text: SCC's `remark`, else what follows `remark` in the line. */
function remarkText(rule: AccessRule): string {
  if (rule.remark) return rule.remark;
  return /\bremark\s+(.*)$/i.exec(rule.ruleConfigurationText ?? '')?.[1] ?? '';
}

/** An operand as the rule names it: the object's name, else its elements, else `any`. */
function operand(content: AccessRuleDetailsContent | null | undefined, missing = 'any'): string {
  if (!content) return missing;
  if (content.name) return content.name;
  const elements = content.elements ?? [];
  return elements.length > 0 ? elements.join(', ') : missing;
}

/** Protocol and ports: `tcp https`, `WEB-PORTS`, `ip`. */
function service(rule: AccessRule): string {
  const parts: string[] = [];
  if (rule.protocol) parts.push(operand(rule.protocol));
  if (rule.sourcePort) parts.push(`from ${operand(rule.sourcePort)}`);
  if (rule.destinationPort) parts.push(operand(rule.destinationPort));
  return parts.length > 0 ? parts.join(' ') : 'ip';
}

const CAUSE_WORDS: Readonly<Record<string, string>> = {
  SHADOWED_BY_NETWORK_ADDRESS: 'its addresses cover this one’s',
  SHADOWED_BY_PORT: 'its protocol and ports cover this one’s',
  SHADOWED_BY_ICMP: 'its ICMP types cover this one’s',
  SHADOWED_BY_ACTION: 'it does the opposite',
  DUPLICATE_REMARK: 'the same remark',
  UNKNOWN: 'a reason SCC does not name',
};

/** The kinds of issue fwbot flags: shared access groups are not a fault of the rule. */
const FLAGGED = new Set(['SHADOWED', 'DUPLICATE']);

function flagged(rule: AccessRule): AccessRuleIssue[] {
  return (rule.issues ?? []).filter((issue) => FLAGGED.has(issue.issueType ?? ''));
}

/** `shadowed by #2`, `duplicate of #1`: the Issue cell. */
function issueCell(rule: AccessRule): string {
  return flagged(rule)
    .map((issue) => {
      const by = (issue.causes ?? []).map((cause) => `#${show(cause.causingRuleIdx)}`).join(', ');
      const what = issue.issueType === 'DUPLICATE' ? 'duplicate of' : 'shadowed by';
      return by ? `${what} ${by}` : humanEnum(issue.issueType);
    })
    .join('; ');
}

/** One sentence per cause of an issue: what the earlier rule is and why it hides this one. */
function issueSentences(issue: AccessRuleIssue): string[] {
  const causes = issue.causes ?? [];
  const kind = issue.issueType === 'DUPLICATE' ? 'Duplicate of' : 'Shadowed by';
  if (causes.length === 0) return [`${humanEnum(issue.issueType)} (SCC names no cause).`];
  return causes.map((cause) => {
    const why = (cause.causeTypes ?? []).map((type) => CAUSE_WORDS[type] ?? humanEnum(type));
    const rule = cause.causingRule ? ` ${code(cause.causingRule)}` : '';
    const reason =
      issue.issueType === 'DUPLICATE' ? 'it matches the same traffic with the same action' : why.join('; ');
    return `${kind} rule #${show(cause.causingRuleIdx)}${rule}${reason ? `: ${reason}` : ''}.`;
  });
}

/**
 * A rule's rows: the remarks written above it first (SCC gives them as the rule's `remark`, one per line;
 * a remark listed as a rule of its own is shown the same way), then the rule.
 */
function ruleRows(rule: AccessRule, groups: ReadonlyMap<string, AccessGroupLabel>): unknown[][] {
  const group = groups.get(rule.accessGroupUid)?.name ?? NONE;
  const line = rule.ruleConfigurationLineNumber;
  if (isRemark(rule)) return [[line, rule.index, group, 'remark', remarkText(rule), '', '', '', '']];
  const written = (rule.remark ?? '').split('\n').filter((remark) => remark.trim() !== '');
  // The remarks are the lines right above the rule, in its list and in the configuration (an ASA
  // prints an access list's lines together), so their numbers count back from the rule's.
  const back = (number: number | null | undefined, i: number) =>
    typeof number === 'number' && number - (written.length - i) > 0 ? number - (written.length - i) : '';
  const remarks = written.map((remark, i) => [
    back(line, i),
    back(rule.index, i),
    group,
    'remark',
    remark,
    '',
    '',
    '',
    '',
  ]);
  return [...remarks, ruleRow(rule, group)];
}

function ruleRow(rule: AccessRule, group: string): unknown[] {
  const line = rule.ruleConfigurationLineNumber;
  return [
    line,
    rule.index,
    group,
    humanEnum(rule.ruleAction),
    operand(rule.sourceNetwork),
    operand(rule.destinationNetwork),
    service(rule),
    rule.isActiveRule !== false,
    issueCell(rule),
  ];
}

export function renderRules(
  device: string,
  rules: readonly AccessRule[],
  groups: ReadonlyMap<string, AccessGroupLabel>,
  page: PageInfo,
  query: string | undefined,
  meta: RenderMeta,
): View {
  const after: ViewBlock[] = [];
  const shownGroups = [...new Set(rules.map((rule) => rule.accessGroupUid))]
    .map((uid) => groups.get(uid))
    .filter((group): group is AccessGroupLabel => group !== undefined);
  if (shownGroups.length > 0)
    after.push({
      kind: 'context',
      text: `Access groups: ${shownGroups.map((group) => groupText(group)).join(' · ')}`,
    });
  const withIssues = rules.filter((rule) => flagged(rule).length > 0);
  if (withIssues.length > 0)
    after.push({
      kind: 'text',
      text: [
        `*${counted(withIssues.length, 'rule')} on this page never decide${withIssues.length === 1 ? 's' : ''} anything:*`,
        ...withIssues.flatMap((rule) =>
          flagged(rule).flatMap((issue) =>
            issueSentences(issue).map(
              (sentence) =>
                `• Line ${show(rule.ruleConfigurationLineNumber)} (#${rule.index} of ${untrusted(groups.get(rule.accessGroupUid)?.name ?? 'its list')}): ${sentence}`,
            ),
          ),
        ),
      ].join('\n'),
    });
  return listView(
    {
      title: `Access rules of ${untrusted(device)}`,
      page,
      query,
      columns: ['Line', '#', 'Access list', 'Action', 'Source', 'Destination', 'Service', 'Active', 'Issue'],
      rows: rules.flatMap((rule) => ruleRows(rule, groups)),
      widths: [undefined, undefined, 30, undefined, 40, 40, 30, undefined, 40],
      numeric: [0, 1],
      hint: `Line is the rule’s line in the configuration; # its place in its access list. \`/fw rules show ${device} <line>\` shows one rule.`,
      empty: 'no access rules.',
      after,
    },
    meta,
  );
}

function operandField(
  label: string,
  content: AccessRuleDetailsContent | null | undefined,
): [string, unknown] {
  if (!content) return [label, undefined];
  const elements = content.elements ?? [];
  const named = content.name ?? NONE;
  const listed = elements.length > 0 && !(elements.length === 1 && elements[0] === content.name);
  return [label, listed ? `${named}: ${elements.join(', ')}` : named];
}

export function renderRule(device: string, rule: AccessRule, group: AccessGroupLabel | undefined): View {
  const remark = isRemark(rule);
  const title = `Line ${show(rule.ruleConfigurationLineNumber)} of ${device}`;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: truncate(title, 150) },
    { kind: 'code', text: rule.ruleConfigurationText ?? '(SCC sent no configuration line)' },
    { kind: 'text', text: `#${rule.index} of ${groupText(group)}` },
  ];
  const log = rule.logSettings
    ? [rule.logSettings.level, rule.logSettings.interval ? `every ${rule.logSettings.interval} s` : undefined]
        .filter(Boolean)
        .join(', ') || 'yes'
    : undefined;
  blocks.push(
    ...fieldBlocks([
      ['Action', remark ? 'remark' : humanEnum(rule.ruleAction)],
      ['Active', rule.isActiveRule !== false],
      // Several remark lines above one rule are one field, each line kept apart.
      ['Remark', remark ? remarkText(rule) : rule.remark?.split('\n').join(' · ')],
      operandField('Protocol', rule.protocol),
      operandField('Source', rule.sourceNetwork),
      operandField('Source ports', rule.sourcePort),
      operandField('Destination', rule.destinationNetwork),
      operandField('Destination ports', rule.destinationPort),
      operandField('Time range', rule.ruleTimeRange),
      ['Log', log],
      ['Configuration line', rule.ruleConfigurationLineNumber],
      ['Parsing error', rule.ruleParsingError],
      ['UUID', rule.uid],
    ]),
  );
  const issues = flagged(rule);
  const shared = (rule.issues ?? []).some((issue) => issue.issueType === 'SHARED');
  if (issues.length > 0)
    blocks.push({
      kind: 'text',
      text: ['*Issues*', ...issues.flatMap((issue) => issueSentences(issue).map((s) => `• ${s}`))].join('\n'),
    });
  else if (!remark)
    blocks.push({ kind: 'context', text: 'SCC finds this rule neither shadowed nor a duplicate.' });
  if (shared) blocks.push({ kind: 'context', text: 'Its access group is shared with other ASAs.' });
  return {
    summary: `${title}: ${rule.ruleConfigurationText ?? ''}`.trim(),
    blocks,
    visibility: 'ephemeral',
  };
}

// --- objects --------------------------------------------------------------------------------------------

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

// --- search ---------------------------------------------------------------------------------------------

function listed<T>(items: readonly T[], line: (item: T) => string): string[] {
  const shown = items.slice(0, MAX_SEARCH_ITEMS).map((item) => `• ${line(item)}`);
  if (items.length > shown.length) shown.push(`• … and ${items.length - shown.length} more`);
  return shown;
}

function entityLine(entity: Entity): string {
  const parts = [untrusted(entity.name ?? entity.uid ?? NONE)];
  if (entity.type) parts.push(typeLabel(entity.type));
  if (entity.address) parts.push(untrusted(entity.address));
  if (entity.uid) parts.push(code(entity.uid));
  return parts.join(' · ');
}

/** Object results are open records: their name, type and UUID where they have them. */
function objectLine(object: Record<string, unknown>): string {
  const text = (key: string) => (typeof object[key] === 'string' ? (object[key] as string) : undefined);
  const parts = [untrusted(text('name') ?? text('uid') ?? NONE)];
  const type = text('objectType') ?? text('type');
  if (type) parts.push(humanEnum(type));
  const uid = text('uid');
  if (uid) parts.push(code(uid));
  return parts.join(' · ');
}

function cdFmcLine(item: CdFmcObject): string {
  const parts = [untrusted(item.name ?? item.uid ?? NONE)];
  if (item.link && !isLinkableUrl(item.link)) parts.push('(its link is not https, so it is not offered)');
  return parts.join(' ');
}

export function renderSearch(result: GlobalSearchResult, text: string): View {
  const inventory = result.inventory ?? {};
  const devices = inventory.devices ?? [];
  const others = [...(inventory.managers ?? []), ...(inventory.services ?? [])];
  const objects = result.objects ?? [];
  const policies = result.policies ?? [];
  const cdFmc = result.cdFmcResult ?? {};
  const fmcGroups: [string, CdFmcObject[]][] = [
    ['cdFMC devices', cdFmc.devices ?? []],
    ['cdFMC objects', cdFmc.objects ?? []],
    ['cdFMC policies', cdFmc.policies ?? []],
  ];
  const counts: [string, number][] = [
    ['device', devices.length],
    ['manager or service', others.length],
    ['object', objects.length],
    ['policy', policies.length],
    ...fmcGroups.map(([label, items]): [string, number] => [
      label.replace(/s$/, '').replace('policie', 'policy'),
      items.length,
    ]),
  ];
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const plural = (one: string) =>
    one.endsWith('policy')
      ? one.replace(/policy$/, 'policies')
      : one === 'manager or service'
        ? 'managers or services'
        : `${one}s`;
  const found = counts
    .filter(([, count]) => count > 0)
    .map(([one, count]) => counted(count, one, plural(one)));
  const heading = `*Search for* ${code(text)}`;
  if (total === 0)
    return {
      summary: `Search for “${text}”: nothing found`,
      blocks: [{ kind: 'text', text: `${heading}: SCC found nothing: no device, object or policy matches.` }],
      visibility: 'ephemeral',
    };
  const blocks: ViewBlock[] = [{ kind: 'text', text: `${heading}: ${found.join(', ')}.` }];
  if (devices.length > 0) {
    blocks.push({
      kind: 'text',
      text: [`*Devices* (${devices.length})`, ...listed(devices, entityLine)].join('\n'),
    });
    for (const device of devices.slice(0, MAX_SEARCH_ITEMS)) {
      const lines = device.matchingConfigurations ?? [];
      if (lines.length === 0) continue;
      const shown = lines.slice(0, MAX_MATCHING_LINES);
      const more = lines.length > shown.length ? `\n… and ${lines.length - shown.length} more lines` : '';
      blocks.push({
        kind: 'context',
        text: `${counted(lines.length, 'line')} of ${untrusted(device.name ?? NONE)}’s configuration:`,
      });
      blocks.push({ kind: 'code', text: `${shown.join('\n')}${more}` });
    }
  }
  if (others.length > 0)
    blocks.push({
      kind: 'text',
      text: [`*Managers and services* (${others.length})`, ...listed(others, entityLine)].join('\n'),
    });
  if (objects.length > 0)
    blocks.push({
      kind: 'text',
      text: [`*Objects* (${objects.length})`, ...listed(objects, objectLine)].join('\n'),
    });
  if (policies.length > 0)
    blocks.push({
      kind: 'text',
      text: [
        `*Policies* (${policies.length})`,
        ...listed(policies, (policy) =>
          [untrusted(policy.name ?? policy.uid ?? NONE), ...(policy.uid ? [code(policy.uid)] : [])].join(
            ' · ',
          ),
        ),
      ].join('\n'),
    });
  const buttons: Button[] = [];
  for (const [label, items] of fmcGroups) {
    if (items.length === 0) continue;
    blocks.push({
      kind: 'text',
      text: [`*${label}* (${items.length})`, ...listed(items, cdFmcLine)].join('\n'),
    });
    for (const item of items)
      if (item.link && isLinkableUrl(item.link) && buttons.length < MAX_LINK_BUTTONS)
        buttons.push({ label: truncate(`Open ${item.name ?? 'in cdFMC'}`, 75), url: item.link });
  }
  if (objects.length > 0 || devices.length > 0)
    blocks.push({
      kind: 'context',
      text: '`/fw objects show <name>` shows where an object is used; `/fw rules <asa> <text>` the rules that name it.',
    });
  if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
  return { summary: `Search for “${text}”: ${found.join(', ')}`, blocks, visibility: 'ephemeral' };
}
