// Views of an ASA's access rules as SCC lists them: the rules in order with the shadowed and duplicate ones
// flagged (and the rule that causes each, in sentences), one rule with its configuration line, and the access
// groups they belong to (the list's name and where it is applied). Every name, configuration line and remark
// comes from SCC (and so, in the end, from whoever wrote the configuration): it goes through untrusted(),
// code() or a code block, never into fwbot's own markup as it is.
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import type {
  AccessGroup,
  AccessRule,
  AccessRuleDetailsContent,
  AccessRuleIssue,
} from '../scc/generated/models.js';
import { code, counted, fieldBlocks, humanEnum, NONE, show, truncate } from './format.js';
import { listView } from './list.js';
import type { PageInfo } from './paging.js';
import { untrusted } from './untrusted.js';

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
