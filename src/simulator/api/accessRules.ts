// Changing ASA access rules and access groups (scc-openapi-access.yaml: createAccessRule, modifyAccessRule,
// deleteAccessRule, createAccessGroup, patchAccessGroup, deleteAccessGroup). Each change edits SCC's copy of
// the device's policy lines only (staged, state/asaConfig.ts stagePolicy): the reads (api/policies.ts)
// answer it at once, the device is NOT_SYNCED, command-line runs are refused, and the device's running
// configuration, so packet-tracer, changes only with a deploy, whose commands state/asaPolicyDiff.ts
// computes. `index` is the ASA's line number in the list (remarks count): a rule created at index N goes
// before the list's current line N, so the later lines shift; with a remark, the remark takes line N and
// the rule N+1. Operands name an object or group of the device (by `uid` or `name`), `any`, or an address
// (`elements[0]` or `name`: a host or a CIDR). A rule or group keeps its UID when it is changed
// (SimState.uidAliases). Refused with 400 as the ASA or SCC would: an unknown object, an index past the
// end, an interface the device does not name, a shared access group, a periodic time-range (not modelled).
// A rule's `ruleTimeRange` names an ASA time-range (`type` TIME_RANGE): with `elements`, its `absolute …`
// lines, which define (or redefine) `time-range NAME` in the device's policy; without, an existing one of
// the device. The rule gets `time-range NAME` and matches only while the range is active on the device's
// clock (state/asaTimeRanges.ts). `ruleTimeRange: { name: '' }` takes it off. A time-range no rule names
// any more after a change or delete of the rule that named it goes from SCC's copy with it.
import { z } from 'zod';
import { requireWrite } from '../auth.js';
import { invalidInput, notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { requireBody, uuidParam } from '../http/input.js';
import { accessListLineProblem, insertAccessListLine } from '../state/asaAccessListEdits.js';
import { maskToPrefix, parseIp } from '../state/asaAddresses.js';
import { cloudInterfaces, stagePolicy } from '../state/asaConfig.js';
import { cloudPolicyOf } from '../state/asaPolicy.js';
import { policyLinesOf } from '../state/asaPolicyLines.js';
import type { AccessListEntry, AsaPolicy } from '../state/asaPolicyModel.js';
import { asaPortWord } from '../state/asaPorts.js';
import { parseAbsolute, TIME_RANGE_NAME, timeRangesOf } from '../state/asaTimeRanges.js';
import type { DeviceRecord } from '../state/model.js';
import { objectUidOf } from './objects.js';
import { type AccessRuleDto, deviceAccessGroups, deviceAccessRules, tenantAsas } from './policies.js';

/** An operand of a rule as the reference's *Content schemas carry it (only what is read). */
const Content = z
  .object({
    name: z.string().max(200).optional(),
    uid: z.string().max(64).optional(),
    type: z.string().max(64).optional(),
    elements: z.array(z.string().max(200)).max(50).optional(),
  })
  .passthrough();
type Content = z.infer<typeof Content>;

const LogSettings = z
  .object({ level: z.string().max(20).optional(), interval: z.number().int().min(1).max(600).optional() })
  .passthrough();

const RuleFields = {
  ruleAction: z.enum(['PERMIT', 'DENY']).optional(),
  protocol: Content.optional(),
  sourceNetwork: Content.optional(),
  destinationNetwork: Content.optional(),
  sourcePort: Content.optional(),
  destinationPort: Content.optional(),
  sourceDynamicObject: Content.optional(),
  destinationDynamicObject: Content.optional(),
  ruleTimeRange: Content.optional(),
  remark: z.string().max(500).optional(),
  logSettings: LogSettings.optional(),
};

const CreateRule = z
  .object({
    accessGroupUid: z.string(),
    entityUid: z.string(),
    index: z.number().int(),
    activeRule: z.boolean().optional(),
    ...RuleFields,
  })
  .passthrough();

const ModifyRule = z
  .object({
    uid: z.string(),
    index: z.number().int().optional(),
    isActiveRule: z.boolean().optional(),
    ...RuleFields,
  })
  .passthrough();

const Resource = z.record(z.string(), z.unknown());
const CreateGroup = z
  .object({
    entityUid: z.string(),
    name: z.string().optional(),
    isShared: z.boolean().optional(),
    appliedTo: z.array(z.string()).optional(),
    resources: z.array(Resource).optional(),
  })
  .passthrough();
const PatchGroup = z
  .object({
    name: z.string().optional(),
    isShared: z.boolean().optional(),
    appliedTo: z.array(z.string()).optional(),
    resources: z.array(Resource).optional(),
  })
  .passthrough();

const ACL_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

// --- finding what a request names ---------------------------------------------------------------------

function tenantAsa(ctx: RequestContext, uid: string, field: string): DeviceRecord {
  const device = ctx.state.devices.get(uid.toLowerCase());
  if (device === undefined || device.tenantUid !== ctx.principal.tenant.uid || device.kind !== 'ASA') {
    throw invalidInput(`${field} ${uid} is not an ASA of this tenant`, { [field]: { value: uid } });
  }
  return device;
}

interface FoundGroup {
  device: DeviceRecord;
  policy: AsaPolicy;
  acl: string;
  uid: string;
}

function findGroup(ctx: RequestContext, uid: string): FoundGroup | undefined {
  for (const device of tenantAsas(ctx)) {
    const policy = cloudPolicyOf(ctx.state, device.device.uid);
    const binding = policy.accessGroups.find((b) => b.uid === uid);
    if (binding !== undefined) return { device, policy, acl: binding.acl, uid };
  }
  return undefined;
}

interface FoundRule {
  device: DeviceRecord;
  policy: AsaPolicy;
  entry: AccessListEntry;
  /** The remark lines that belong to it (right above it). */
  remarks: AccessListEntry[];
}

function findRule(ctx: RequestContext, uid: string): FoundRule {
  for (const device of tenantAsas(ctx)) {
    const policy = cloudPolicyOf(ctx.state, device.device.uid);
    if (!policy.accessGroups.length) continue;
    for (const entries of policy.accessLists.values()) {
      const at = entries.findIndex((e) => e.kind === 'rule' && e.uid === uid);
      const entry = entries[at];
      if (entry === undefined) continue;
      if (!policy.accessGroups.some((b) => b.acl === entry.acl)) continue;
      const remarks: AccessListEntry[] = [];
      for (let i = at - 1; i >= 0 && entries[i]?.kind === 'remark'; i -= 1)
        remarks.unshift(entries[i] as AccessListEntry);
      return { device, policy, entry, remarks };
    }
  }
  throw notFound(`Access rule ${uid} not found`, { accessRuleUid: { value: uid } });
}

// --- a rule as ASA words ------------------------------------------------------------------------------

/** What an ACE says, each part as the configuration writes it. */
interface AceParts {
  action: 'permit' | 'deny';
  protocol: string;
  source: string;
  sourcePort?: string | undefined;
  destination: string;
  destinationPort?: string | undefined;
  log?: string | undefined;
  timeRange?: string | undefined;
  inactive: boolean;
}

const aceText = (acl: string, p: AceParts): string =>
  [
    'access-list',
    acl,
    'extended',
    p.action,
    p.protocol,
    p.source,
    p.sourcePort,
    p.destination,
    p.destinationPort,
    p.log,
    p.timeRange,
    p.inactive ? 'inactive' : undefined,
  ]
    .filter((w): w is string => w !== undefined && w !== '')
    .join(' ');

/** The parts of an ACE of the configuration, as written. */
function partsOf(entry: AccessListEntry): AceParts {
  const t = entry.text.split(/\s+/);
  const named = t[4] === 'object' || t[4] === 'object-group';
  const protocol = named ? `${t[4]} ${t[5] ?? ''}` : (t[4] ?? 'ip');
  const logAt = t.indexOf('log');
  const rangeAt = t.indexOf('time-range');
  const logEnd = [rangeAt, t.indexOf('inactive'), t.length].filter((i) => i > logAt).sort((a, b) => a - b)[0];
  return {
    action: entry.action ?? 'permit',
    protocol,
    source: entry.source?.written ?? 'any',
    sourcePort: entry.sourcePorts?.written,
    destination: entry.destination?.written ?? 'any',
    destinationPort: named ? undefined : (entry.destinationPorts?.written ?? entry.icmpType),
    log: logAt === -1 ? undefined : t.slice(logAt, logEnd).join(' '),
    timeRange: rangeAt === -1 ? undefined : t.slice(rangeAt, rangeAt + 2).join(' '),
    inactive: entry.inactive,
  };
}

/** The object or group of the device an operand names by UID or name, as `object X` / `object-group X`. */
function namedObject(device: DeviceRecord, policy: AsaPolicy, content: Content, kind: 'network' | 'service') {
  const byName = (name: string) => {
    if (policy.objects.some((o) => o.name === name && o.type === kind)) return `object ${name}`;
    if (policy.objectGroups.some((g) => g.name === name && g.type === kind)) return `object-group ${name}`;
    return undefined;
  };
  if (content.uid !== undefined) {
    const names = [...policy.objects, ...policy.objectGroups].map((o) => o.name);
    const name = names.find((n) => objectUidOf(device, policy, n) === content.uid?.toLowerCase());
    const written = name === undefined ? undefined : byName(name);
    if (written === undefined) {
      throw invalidInput(`Object ${content.uid} is not a ${kind} object or group of ${device.device.name}`, {
        uid: { value: content.uid },
      });
    }
    return written;
  }
  return content.name === undefined ? undefined : byName(content.name);
}

/** A network operand: an object or group of the device, `any`, a host or a CIDR. */
function networkWords(
  device: DeviceRecord,
  policy: AsaPolicy,
  content: Content | undefined,
  field: string,
): string {
  if (content === undefined) return 'any';
  const object = namedObject(device, policy, content, 'network');
  if (object !== undefined) return object;
  const literal = (content.elements?.[0] ?? content.name ?? '').trim();
  if (literal === '' || literal === 'any' || literal === 'any4' || literal === 'any6')
    return literal || 'any';
  const [address = '', prefixText] = literal.split('/');
  const ip = parseIp(address);
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  if (ip !== undefined && ip.family === 4 && (prefix === undefined || prefix === 32))
    return `host ${address}`;
  if (
    ip !== undefined &&
    ip.family === 4 &&
    prefix !== undefined &&
    Number.isInteger(prefix) &&
    prefix >= 0 &&
    prefix < 32
  ) {
    const mask = [0, 1, 2, 3]
      .map((i) => (((0xffffffff << (32 - prefix)) >>> 0) >>> (24 - i * 8)) & 0xff)
      .join('.');
    if (maskToPrefix(mask) === prefix) return `${address} ${mask}`;
  }
  throw invalidInput(
    `${field} "${literal}" is neither an object of ${device.device.name}, any, a host nor a CIDR`,
    {
      [field]: { value: literal },
    },
  );
}

const PROTOCOLS = new Set(['ip', 'tcp', 'udp', 'icmp', 'icmp6']);

function protocolWords(device: DeviceRecord, policy: AsaPolicy, content: Content | undefined): string {
  if (content === undefined) return 'ip';
  const literal = (content.name ?? content.elements?.[0] ?? 'ip').toLowerCase();
  if (content.uid === undefined && PROTOCOLS.has(literal)) return literal;
  const object = namedObject(device, policy, content, 'service');
  if (object !== undefined) return object;
  throw invalidInput(
    `protocol "${content.name ?? ''}" is not ip, tcp, udp, icmp, icmp6 or a service object of ${device.device.name}`,
    {
      protocol: { value: content.name ?? '' },
    },
  );
}

/** A port operand for tcp/udp (`eq 443`, `range 8000 8080`, a service group), or an ICMP type. */
function portWords(
  device: DeviceRecord,
  policy: AsaPolicy,
  protocol: string,
  content: Content | undefined,
  field: string,
): string | undefined {
  if (content === undefined) return undefined;
  const literal = (content.elements?.[0] ?? content.name ?? '').trim();
  if (literal === '' || literal === 'any') return undefined;
  if (protocol === 'icmp' || protocol === 'icmp6') {
    if (/^[a-z][a-z-]*$|^\d{1,3}$/.test(literal)) return literal;
  } else if (protocol === 'tcp' || protocol === 'udp') {
    const object = namedObject(device, policy, content, 'service');
    if (object?.startsWith('object-group ')) return object;
    const range = /^(\d{1,5})-(\d{1,5})$/.exec(literal);
    if (range !== null) return `range ${asaPortWord(range[1] ?? '')} ${asaPortWord(range[2] ?? '')}`;
    if (/^\d{1,5}$|^[a-z][a-z0-9-]*$/.test(literal)) return `eq ${asaPortWord(literal)}`;
  }
  throw invalidInput(`${field} "${literal}" does not fit protocol ${protocol}`, {
    [field]: { value: literal },
  });
}

function logWords(log: z.infer<typeof LogSettings> | undefined): string | undefined {
  if (log === undefined) return undefined;
  return ['log', log.level, log.interval === undefined ? undefined : `interval ${log.interval}`]
    .filter((w) => w !== undefined)
    .join(' ');
}

/** The parts a body sets, over `base` (a new rule's defaults, or the rule as it is). */
function partsFrom(
  device: DeviceRecord,
  policy: AsaPolicy,
  body: z.infer<typeof ModifyRule> | z.infer<typeof CreateRule>,
  base: AceParts,
): AceParts {
  if (body.sourceDynamicObject !== undefined || body.destinationDynamicObject !== undefined) {
    throw invalidInput('dynamic objects are not modelled by the simulator', {});
  }
  const protocol = body.protocol === undefined ? base.protocol : protocolWords(device, policy, body.protocol);
  const literal = protocol.startsWith('object') ? '' : protocol;
  const protocolChanged = protocol !== base.protocol;
  return {
    action: body.ruleAction === undefined ? base.action : body.ruleAction === 'DENY' ? 'deny' : 'permit',
    protocol,
    source:
      body.sourceNetwork === undefined
        ? base.source
        : networkWords(device, policy, body.sourceNetwork, 'sourceNetwork'),
    sourcePort:
      body.sourcePort !== undefined
        ? portWords(device, policy, literal, body.sourcePort, 'sourcePort')
        : protocolChanged
          ? undefined
          : base.sourcePort,
    destination:
      body.destinationNetwork === undefined
        ? base.destination
        : networkWords(device, policy, body.destinationNetwork, 'destinationNetwork'),
    destinationPort:
      body.destinationPort !== undefined
        ? portWords(device, policy, literal, body.destinationPort, 'destinationPort')
        : protocolChanged
          ? undefined
          : base.destinationPort,
    log: body.logSettings === undefined ? base.log : logWords(body.logSettings),
    timeRange:
      body.ruleTimeRange === undefined
        ? base.timeRange
        : body.ruleTimeRange.name === undefined || body.ruleTimeRange.name === ''
          ? undefined
          : `time-range ${body.ruleTimeRange.name}`,
    inactive: base.inactive,
  };
}

/**
 * The policy lines with the time-range a body names defined (its `absolute` lines), checked as the ASA
 * checks them; unchanged when the body names none or an existing one without lines.
 */
function withTimeRange(
  lines: readonly string[],
  device: DeviceRecord,
  content: Content | undefined,
): string[] {
  if (content === undefined || content.name === undefined || content.name === '') return [...lines];
  const name = content.name;
  if (content.type !== undefined && content.type !== 'TIME_RANGE')
    throw invalidInput(`ruleTimeRange: type must be TIME_RANGE, not ${content.type}`, {
      ruleTimeRange: { value: content.type },
    });
  if (!TIME_RANGE_NAME.test(name))
    throw invalidInput('ruleTimeRange: a time-range name (letters, digits, _ . -)', {
      ruleTimeRange: { value: name },
    });
  const elements = content.elements ?? [];
  if (elements.length === 0) {
    if (timeRangesOf(lines).some((r) => r.name === name)) return [...lines];
    throw invalidInput(`ruleTimeRange: ${device.device.name} has no time-range ${name}`, {
      ruleTimeRange: { value: name },
    });
  }
  for (const element of elements)
    if (parseAbsolute(element) === undefined)
      throw invalidInput(
        `ruleTimeRange: "${element}" is not an absolute line (absolute [start HH:MM DD Month YYYY] [end HH:MM DD Month YYYY]); periodic ranges are not modelled`,
        { ruleTimeRange: { value: element } },
      );
  const block = [`time-range ${name}`, ...elements.map((e) => ` ${e.trim().split(/\s+/).join(' ')}`)];
  const out = withoutTimeRange(lines, name);
  // Before the first access list, so the rules that name it come after it, as on an ASA.
  const at = out.findIndex((l) => l.startsWith('access-list '));
  out.splice(at === -1 ? out.length : at, 0, ...block);
  return out;
}

/** The lines without the `time-range NAME` block. */
function withoutTimeRange(lines: readonly string[], name: string): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (line === `time-range ${name}`) skipping = true;
    else if (!line.startsWith(' ')) skipping = false;
    if (!skipping) out.push(line);
  }
  return out;
}

/** The lines without the time-range `name` when no access-list line names it any more. */
function pruneTimeRange(lines: readonly string[], name: string | undefined): string[] {
  if (name === undefined) return [...lines];
  const named = lines.some(
    (l) =>
      l.startsWith('access-list ') &&
      l.split(/\s+/).some((word, i, words) => word === 'time-range' && words[i + 1] === name),
  );
  return named ? [...lines] : withoutTimeRange(lines, name);
}

const rangeName = (parts: AceParts) => parts.timeRange?.split(' ')[1];

// --- staging ------------------------------------------------------------------------------------------

/** The lines of `acl` in the policy, with their positions among all lines. */
const aclPositions = (lines: readonly string[], acl: string) =>
  lines.flatMap((l, i) => (l.startsWith(`access-list ${acl} `) ? [i] : []));

/** `lines` with `block` inserted before line `index` of `acl` (past the end: appended). */
function insertBlock(
  lines: readonly string[],
  acl: string,
  index: number,
  block: readonly string[],
): string[] {
  let out = [...lines];
  for (const [i, text] of block.entries()) {
    out = insertAccessListLine(out, {
      acl,
      line: index + i,
      rule: text.slice(`access-list ${acl} `.length),
    }).lines;
  }
  return out;
}

function checkIndex(policy: AsaPolicy, acl: string, index: number, field = 'index'): void {
  const count = policy.accessLists.get(acl)?.length ?? 0;
  if (index < 1 || index > count + 1) {
    throw invalidInput(`${field} ${index} is outside access list ${acl} (lines 1 to ${count + 1})`, {
      [field]: { value: index },
    });
  }
}

function checkLine(policy: AsaPolicy, acl: string, text: string): void {
  const problem = accessListLineProblem(policy, text.slice(`access-list ${acl} `.length));
  if (problem !== undefined)
    throw invalidInput(`The device would refuse the rule: ${problem}`, { rule: { value: text } });
}

/** The rule at line `line` of `acl` in SCC's copy, as the reads answer it. */
function ruleAt(ctx: RequestContext, device: DeviceRecord, acl: string, line: number): AccessRuleDto {
  const policy = cloudPolicyOf(ctx.state, device.device.uid);
  const entry = policy.accessLists.get(acl)?.[line - 1];
  const rule = deviceAccessRules(device, policy).find((r) => r.uid === entry?.uid);
  if (rule === undefined) throw new Error(`no rule at line ${line} of ${acl} after the change`);
  return rule;
}

/** Stages lines in SCC's copy of the device's policy as the caller's change (shared with objectChanges.ts). */
export const stage = (
  ctx: RequestContext,
  device: DeviceRecord,
  lines: string[],
  action: 'CREATE' | 'UPDATE' | 'DELETE',
  description: string,
) =>
  stagePolicy(ctx.state, device, lines, {
    action,
    username: ctx.principal.username,
    at: ctx.now,
    description,
  });

// --- rules --------------------------------------------------------------------------------------------

const createAccessRule: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const body = requireBody(ctx, CreateRule);
  const device = tenantAsa(ctx, body.entityUid, 'entityUid');
  const policy = cloudPolicyOf(ctx.state, device.device.uid);
  const group = policy.accessGroups.find((b) => b.uid === body.accessGroupUid.toLowerCase());
  if (group === undefined) {
    throw invalidInput(`Access group ${body.accessGroupUid} is not on ${device.device.name}`, {
      accessGroupUid: { value: body.accessGroupUid },
    });
  }
  checkIndex(policy, group.acl, body.index);
  const parts = partsFrom(device, policy, body, {
    action: 'permit',
    protocol: 'ip',
    source: 'any',
    destination: 'any',
    inactive: body.activeRule === false,
  });
  const text = aceText(group.acl, parts);
  checkLine(policy, group.acl, text);
  const remarks =
    body.remark === undefined || body.remark.trim() === ''
      ? []
      : [`access-list ${group.acl} remark ${body.remark.trim()}`];
  const lines = insertBlock(
    withTimeRange(policyLinesOf(ctx.state, device.device.uid), device, body.ruleTimeRange),
    group.acl,
    body.index,
    [...remarks, text],
  );
  stage(
    ctx,
    device,
    lines,
    'CREATE',
    `Created an access rule in ${group.acl} at line ${body.index} on ${device.device.name}: ${text}`,
  );
  return { status: 201, body: ruleAt(ctx, device, group.acl, body.index + remarks.length) };
};

const modifyAccessRule: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const uid = uuidParam(ctx, 'accessRuleUid');
  const body = requireBody(ctx, ModifyRule);
  const { device, policy, entry, remarks } = findRule(ctx, uid);
  const was = partsOf(entry);
  const parts = partsFrom(device, policy, body, was);
  if (body.isActiveRule !== undefined) parts.inactive = !body.isActiveRule;
  const text = aceText(entry.acl, parts);
  checkLine(policy, entry.acl, text);
  const remarkLines =
    body.remark === undefined
      ? remarks.map((r) => r.text)
      : body.remark.trim() === ''
        ? []
        : [`access-list ${entry.acl} remark ${body.remark.trim()}`];
  // Out with the rule and its remarks, then in again at its place or the index asked for.
  const first = remarks[0]?.line ?? entry.line;
  const without = withTimeRange(
    policyLinesOf(ctx.state, device.device.uid),
    device,
    body.ruleTimeRange,
  ).filter((line, i, all) => {
    const positions = aclPositions(all, entry.acl);
    const at = positions.indexOf(i) + 1;
    return !(at >= first && at <= entry.line && line.startsWith(`access-list ${entry.acl} `));
  });
  const count = aclPositions(without, entry.acl).length;
  const index = body.index ?? first;
  if (index < 1 || index > count + 1) {
    throw invalidInput(`index ${index} is outside access list ${entry.acl} (lines 1 to ${count + 1})`, {
      index: { value: index },
    });
  }
  const inserted = insertBlock(without, entry.acl, index, [...remarkLines, text]);
  const lines = rangeName(was) === rangeName(parts) ? inserted : pruneTimeRange(inserted, rangeName(was));
  stage(
    ctx,
    device,
    lines,
    'UPDATE',
    `Modified access rule ${entry.line} of ${entry.acl} on ${device.device.name}: ${text}`,
  );
  const line = index + remarkLines.length;
  // SCC keeps the rule's UID: the one its new line derives is mapped to it.
  const derived = cloudPolicyOf(ctx.state, device.device.uid).accessLists.get(entry.acl)?.[line - 1]?.uid;
  if (derived !== undefined && derived !== entry.uid) ctx.state.uidAliases.set(derived, entry.uid);
  return { status: 200, body: ruleAt(ctx, device, entry.acl, line) };
};

const deleteAccessRule: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const uid = uuidParam(ctx, 'accessRuleUid');
  const { device, entry, remarks } = findRule(ctx, uid);
  const first = remarks[0]?.line ?? entry.line;
  const lines = policyLinesOf(ctx.state, device.device.uid);
  const positions = aclPositions(lines, entry.acl);
  const gone = new Set(positions.filter((_, i) => i + 1 >= first && i + 1 <= entry.line));
  stage(
    ctx,
    device,
    pruneTimeRange(
      lines.filter((_, i) => !gone.has(i)),
      rangeName(partsOf(entry)),
    ),
    'DELETE',
    `Deleted access rule ${entry.line} of ${entry.acl} on ${device.device.name}: ${entry.text}`,
  );
  return { status: 204 };
};

// --- access groups ------------------------------------------------------------------------------------

/** `access-group` lines for the resources of a request, checked against the device's named interfaces. */
function bindingLines(
  ctx: RequestContext,
  device: DeviceRecord,
  acl: string,
  resources: readonly Record<string, unknown>[],
): string[] {
  if (resources.length === 0) {
    throw invalidInput('resources: an access group needs an interface and direction, or global', {
      resources: { value: [] },
    });
  }
  const names = new Set(
    cloudInterfaces(ctx.state, device.device.uid).flatMap((i) =>
      typeof i.name === 'string' && i.name !== '' ? [i.name] : [],
    ),
  );
  return resources.map((resource) => {
    const inner = (
      typeof resource.interface === 'object' && resource.interface !== null ? resource.interface : resource
    ) as Record<string, unknown>;
    const global =
      resource.global === true ||
      (typeof resource.global === 'object' &&
        (resource.global as Record<string, unknown> | null)?.global === true);
    if (global) return `access-group ${acl} global`;
    const name = inner.interfaceName;
    const direction = inner.direction;
    if (typeof name !== 'string' || !names.has(name)) {
      throw invalidInput(`resources: ${device.device.name} has no interface named "${String(name)}"`, {
        resources: { value: String(name) },
      });
    }
    if (direction !== 'INBOUND' && direction !== 'OUTBOUND') {
      throw invalidInput('resources: direction must be INBOUND or OUTBOUND', {
        resources: { value: String(direction) },
      });
    }
    return `access-group ${acl} ${direction === 'INBOUND' ? 'in' : 'out'} interface ${name}`;
  });
}

/** A binding of another list on the same interface and direction (or a second global one). */
function takenBy(lines: readonly string[], acl: string, binding: string): string | undefined {
  const place = binding.split(/\s+/).slice(2).join(' ');
  return lines.find(
    (l) =>
      l.startsWith('access-group ') &&
      l.split(/\s+/)[1] !== acl &&
      l.split(/\s+/).slice(2).join(' ') === place,
  );
}

function checkFree(lines: readonly string[], acl: string, bindings: readonly string[]): void {
  for (const binding of bindings) {
    const other = takenBy(lines, acl, binding);
    if (other !== undefined)
      throw invalidInput(`resources: already bound by "${other}"`, { resources: { value: binding } });
  }
}

function groupDto(ctx: RequestContext, device: DeviceRecord, acl: string) {
  const group = deviceAccessGroups(device, cloudPolicyOf(ctx.state, device.device.uid)).find(
    (g) => g.name === acl,
  );
  if (group === undefined) throw new Error(`no access group ${acl} after the change`);
  return group;
}

function refuseShared(body: { isShared?: boolean | undefined; appliedTo?: string[] | undefined }): void {
  if (body.isShared === true || (body.appliedTo?.length ?? 0) > 0) {
    throw invalidInput('isShared: shared access groups are not modelled by the simulator', {
      isShared: { value: true },
    });
  }
}

const createAccessGroup: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const body = requireBody(ctx, CreateGroup);
  refuseShared(body);
  const device = tenantAsa(ctx, body.entityUid, 'entityUid');
  const name = body.name ?? '';
  if (!ACL_NAME.test(name))
    throw invalidInput('name: an access list name (letters, digits, _ . -)', { name: { value: name } });
  const lines = policyLinesOf(ctx.state, device.device.uid);
  if (lines.some((l) => l.startsWith(`access-list ${name} `) || l.startsWith(`access-group ${name} `))) {
    throw invalidInput(`name: ${device.device.name} already has an access list ${name}`, {
      name: { value: name },
    });
  }
  const bindings = bindingLines(ctx, device, name, body.resources ?? []);
  checkFree(lines, name, bindings);
  stage(
    ctx,
    device,
    [...lines, ...bindings],
    'CREATE',
    `Created access group ${name} on ${device.device.name}`,
  );
  return { status: 200, body: groupDto(ctx, device, name) };
};

function groupOf(ctx: RequestContext): FoundGroup {
  const uid = uuidParam(ctx, 'accessGroupUid');
  const found = findGroup(ctx, uid);
  if (found === undefined)
    throw notFound(`Access group ${uid} not found`, { accessGroupUid: { value: uid } });
  return found;
}

const patchAccessGroup: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const found = groupOf(ctx);
  const body = requireBody(ctx, PatchGroup);
  refuseShared(body);
  const { device, acl } = found;
  const name = body.name ?? acl;
  if (!ACL_NAME.test(name))
    throw invalidInput('name: an access list name (letters, digits, _ . -)', { name: { value: name } });
  let lines = policyLinesOf(ctx.state, device.device.uid);
  if (
    name !== acl &&
    lines.some((l) => l.startsWith(`access-list ${name} `) || l.startsWith(`access-group ${name} `))
  ) {
    throw invalidInput(`name: ${device.device.name} already has an access list ${name}`, {
      name: { value: name },
    });
  }
  const current = lines
    .filter((l) => l.startsWith(`access-group ${acl} `))
    .map((l) => l.replace(`access-group ${acl} `, `access-group ${name} `));
  const bindings = body.resources === undefined ? current : bindingLines(ctx, device, name, body.resources);
  checkFree(lines, acl, bindings);
  lines = lines
    .filter((l) => !l.startsWith(`access-group ${acl} `))
    .map((l) =>
      l.startsWith(`access-list ${acl} `)
        ? `access-list ${name} ${l.slice(`access-list ${acl} `.length)}`
        : l,
    );
  stage(
    ctx,
    device,
    [...lines, ...bindings],
    'UPDATE',
    `Modified access group ${acl} on ${device.device.name}`,
  );
  const derived = cloudPolicyOf(ctx.state, device.device.uid).accessGroups.find((b) => b.acl === name)?.uid;
  if (derived !== undefined && derived !== found.uid) ctx.state.uidAliases.set(derived, found.uid);
  return { status: 200, body: groupDto(ctx, device, name) };
};

const deleteAccessGroup: Handler = (ctx) => {
  requireWrite(ctx.principal);
  const { device, acl } = groupOf(ctx);
  const lines = policyLinesOf(ctx.state, device.device.uid).filter(
    (l) => !l.startsWith(`access-group ${acl} `) && !l.startsWith(`access-list ${acl} `),
  );
  stage(ctx, device, lines, 'DELETE', `Deleted access group ${acl} and its rules on ${device.device.name}`);
  return { status: 204 };
};

/** Changing rules and access groups: this file's handlers, which the table (operations.ts) spreads. */
export const accessRuleHandlers = {
  createAccessRule,
  modifyAccessRule,
  deleteAccessRule,
  createAccessGroup,
  patchAccessGroup,
  deleteAccessGroup,
} satisfies Partial<OperationHandlers>;
