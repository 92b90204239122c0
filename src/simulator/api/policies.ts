// ASA access rules and access groups (scc-openapi-lookups.yaml: listAccessRules, fetchAccessRule,
// listAccessGroups, fetchAccessGroup), derived from each ASA's parsed policy (state/asaPolicy.ts), so they
// agree with its running configuration. One access group per access list that an `access-group` line
// applies (its interfaces and directions as `resources`); one access rule per ACE of such a list, in list
// order. `index` is the ASA's own line number within the list (remarks count, as `access-list X line N`
// does); a remark is not a rule of its own but the `remark` of the rule after it. Only the caller's
// tenant's ASAs are seen. They answer SCC's copy of the policy (cloudPolicyOf): a change staged through the
// API (api/accessRules.ts) shows here at once, and on the device once deployed.
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { stableUid } from '../random.js';
import { cidrText } from '../state/asaAddresses.js';
import { cloudPolicyOf } from '../state/asaPolicy.js';
import type {
  AccessGroupBinding,
  AccessListEntry,
  AddressOperand,
  AsaPolicy,
  PortOperand,
  PortRange,
} from '../state/asaPolicyModel.js';
import { analyseAccessList, type RuleIssue } from '../state/asaRuleIssues.js';
import type { DeviceRecord } from '../state/model.js';
import { tenantDevices } from './devices.js';
import { objectUidOf } from './objects.js';

/** The reference's AccessRuleDetailsContent. */
export interface RuleContentDto {
  name: string;
  type?: string;
  elements: string[];
  uid?: string;
}

/** The reference's AccessRule, as the simulator answers it. */
export interface AccessRuleDto {
  uid: string;
  accessGroupUid: string;
  entityUid: string;
  index: number;
  ruleAction: 'PERMIT' | 'DENY';
  protocol: RuleContentDto;
  sourceNetwork: RuleContentDto;
  destinationNetwork: RuleContentDto;
  sourcePort?: RuleContentDto;
  destinationPort?: RuleContentDto;
  /** The time-range the rule names: its name and its `absolute` lines. */
  ruleTimeRange?: RuleContentDto;
  ruleConfigurationText: string;
  ruleConfigurationLineNumber: number;
  isActiveRule: boolean;
  issues: RuleIssue[];
  remark?: string;
  logSettings?: { level: string; interval: number };
  ruleType: 'L3';
}

/** The reference's AccessGroup. */
export interface AccessGroupDto {
  uid: string;
  name: string;
  entityUid: string;
  isShared: false;
  resources: Record<string, Record<string, unknown>>[];
}

const portText = (p: PortRange): string => (p.low === p.high ? String(p.low) : `${p.low}-${p.high}`);

/** The UID of an access list's access group on a device. */
export const accessGroupUid = (deviceUid: string, acl: string): string =>
  stableUid(deviceUid, 'access-group', acl);

function networkContent(
  device: DeviceRecord,
  policy: AsaPolicy,
  operand: AddressOperand | undefined,
): RuleContentDto {
  if (operand === undefined) return { name: 'any', elements: ['any'] };
  const elements = operand.written.startsWith('any') ? [operand.written] : operand.networks.map(cidrText);
  const name = operand.objectName ?? operand.written;
  const group = policy.objectGroups.find((g) => g.name === operand.objectName);
  const uid = operand.objectName === undefined ? undefined : objectUidOf(device, policy, operand.objectName);
  return {
    name,
    type: group !== undefined ? 'NETWORK_GROUP' : 'NETWORK_OBJECT',
    elements,
    ...(uid === undefined ? {} : { uid }),
  };
}

function portContent(
  device: DeviceRecord,
  policy: AsaPolicy,
  protocol: string,
  operand: PortOperand,
): RuleContentDto {
  const uid = operand.objectName === undefined ? undefined : objectUidOf(device, policy, operand.objectName);
  const isGroup = policy.objectGroups.some((g) => g.name === operand.objectName);
  const type = isGroup
    ? 'SERVICE_GROUP'
    : operand.objectName !== undefined
      ? 'SERVICE_OBJECT'
      : protocol === 'udp'
        ? 'SERVICE_UDP_OBJECT'
        : 'SERVICE_TCP_OBJECT';
  return {
    name: operand.objectName ?? operand.written,
    type,
    elements: operand.ports.map(portText),
    ...(uid === undefined ? {} : { uid }),
  };
}

/** The protocol operand: the literal protocol, or the service object / group the line names. */
function protocolContent(device: DeviceRecord, policy: AsaPolicy, entry: AccessListEntry): RuleContentDto {
  const protocol = entry.protocol ?? 'ip';
  const words = entry.text.split(/\s+/);
  const written = words[4];
  const named = written === 'object' || written === 'object-group' ? words[5] : undefined;
  if (named !== undefined) {
    const uid = objectUidOf(device, policy, named);
    return {
      name: named,
      type: written === 'object-group' ? 'SERVICE_GROUP' : 'SERVICE_OBJECT',
      elements: [protocol],
      ...(uid === undefined ? {} : { uid }),
    };
  }
  const type =
    protocol === 'icmp'
      ? 'SERVICE_ICMPV4_OBJECT'
      : protocol === 'icmp6'
        ? 'SERVICE_ICMPV6_OBJECT'
        : 'SERVICE_PROTOCOL_OBJECT';
  return { name: protocol, type, elements: [protocol] };
}

/** Every access rule of one ASA, in the order of its access groups, each list's rules in order. */
export function deviceAccessRules(device: DeviceRecord, policy: AsaPolicy): AccessRuleDto[] {
  const out: AccessRuleDto[] = [];
  for (const acl of appliedLists(policy)) {
    const entries = policy.accessLists.get(acl) ?? [];
    const issues = analyseAccessList(entries);
    let remarks: string[] = [];
    for (const entry of entries) {
      if (entry.kind === 'remark') {
        remarks.push(entry.remark ?? '');
        continue;
      }
      out.push(ruleDto(device, policy, entry, issues.get(entry.uid), remarks));
      remarks = [];
    }
  }
  return out;
}

function ruleDto(
  device: DeviceRecord,
  policy: AsaPolicy,
  entry: AccessListEntry,
  issue: RuleIssue | undefined,
  remarks: readonly string[],
): AccessRuleDto {
  const protocol = entry.protocol ?? 'ip';
  const dto: AccessRuleDto = {
    uid: entry.uid,
    accessGroupUid:
      policy.accessGroups.find((b) => b.acl === entry.acl)?.uid ??
      accessGroupUid(device.device.uid, entry.acl),
    entityUid: device.device.uid,
    index: entry.line,
    ruleAction: entry.action === 'deny' ? 'DENY' : 'PERMIT',
    protocol: protocolContent(device, policy, entry),
    sourceNetwork: networkContent(device, policy, entry.source),
    destinationNetwork: networkContent(device, policy, entry.destination),
    ruleConfigurationText: entry.text,
    ruleConfigurationLineNumber: entry.configLine,
    isActiveRule: !entry.inactive,
    issues: issue === undefined ? [] : [issue],
    ruleType: 'L3',
  };
  if (entry.sourcePorts !== undefined)
    dto.sourcePort = portContent(device, policy, protocol, entry.sourcePorts);
  // A service object in the protocol position carries the ports itself: they are shown there.
  if (
    entry.destinationPorts !== undefined &&
    dto.protocol.type !== 'SERVICE_OBJECT' &&
    dto.protocol.type !== 'SERVICE_GROUP'
  ) {
    dto.destinationPort = portContent(device, policy, protocol, entry.destinationPorts);
  }
  if (entry.icmpType !== undefined) {
    dto.destinationPort = {
      name: entry.icmpType,
      type: protocol === 'icmp6' ? 'SERVICE_ICMPV6_OBJECT' : 'SERVICE_ICMPV4_OBJECT',
      elements: [entry.icmpType],
    };
  }
  if (remarks.length > 0) dto.remark = remarks.join('\n');
  if (entry.timeRange !== undefined) {
    const range = policy.timeRanges?.find((r) => r.name === entry.timeRange);
    dto.ruleTimeRange = { name: entry.timeRange, type: 'TIME_RANGE', elements: range?.body ?? [] };
  }
  // An ASA logs at informational (6) every 300 s unless the line says otherwise.
  if (entry.log !== undefined) {
    dto.logSettings = { level: entry.log.level ?? 'informational', interval: entry.log.interval ?? 300 };
  }
  return dto;
}

/** The access lists an `access-group` line applies, in the order of their first binding. */
function appliedLists(policy: AsaPolicy): string[] {
  return [...new Set(policy.accessGroups.map((b) => b.acl))];
}

const DIRECTION: Record<AccessGroupBinding['direction'], string> = {
  in: 'INBOUND',
  out: 'OUTBOUND',
  global: 'GLOBAL',
};

/** One access group per applied list: where it is applied (interface and direction, or global). */
export function deviceAccessGroups(device: DeviceRecord, policy: AsaPolicy): AccessGroupDto[] {
  return appliedLists(policy).map((acl) => ({
    uid: policy.accessGroups.find((b) => b.acl === acl)?.uid ?? accessGroupUid(device.device.uid, acl),
    name: acl,
    entityUid: device.device.uid,
    isShared: false,
    // The reference wants every resource's values to be objects: each binding is one entry holding them.
    resources: policy.accessGroups
      .filter((b) => b.acl === acl)
      .map(
        (b): Record<string, Record<string, unknown>> =>
          b.direction === 'global'
            ? { global: { global: true } }
            : { interface: { interfaceName: b.interface ?? '', direction: DIRECTION[b.direction] } },
      ),
  }));
}

export function tenantAsas(ctx: RequestContext): DeviceRecord[] {
  return tenantDevices(ctx).filter((d) => d.kind === 'ASA');
}

function tenantRules(ctx: RequestContext): AccessRuleDto[] {
  return tenantAsas(ctx).flatMap((d) => deviceAccessRules(d, cloudPolicyOf(ctx.state, d.device.uid)));
}

function tenantGroups(ctx: RequestContext): AccessGroupDto[] {
  return tenantAsas(ctx).flatMap((d) => deviceAccessGroups(d, cloudPolicyOf(ctx.state, d.device.uid)));
}

const ruleFields: FieldTable<AccessRuleDto> = {
  uid: { kind: 'string', get: (r) => r.uid },
  entityUid: { kind: 'string', get: (r) => r.entityUid },
  accessGroupUid: { kind: 'string', get: (r) => r.accessGroupUid },
  index: { kind: 'number', get: (r) => r.index },
  ruleAction: { kind: 'string', get: (r) => r.ruleAction },
  isActiveRule: { kind: 'boolean', get: (r) => r.isActiveRule },
  ruleConfigurationText: { kind: 'string', get: (r) => r.ruleConfigurationText },
  ruleConfigurationLineNumber: { kind: 'number', get: (r) => r.ruleConfigurationLineNumber },
  remark: { kind: 'string', get: (r) => r.remark },
  ruleType: { kind: 'string', get: (r) => r.ruleType },
};

const groupFields: FieldTable<AccessGroupDto> = {
  uid: { kind: 'string', get: (g) => g.uid },
  name: { kind: 'string', get: (g) => g.name },
  entityUid: { kind: 'string', get: (g) => g.entityUid },
  isShared: { kind: 'boolean', get: (g) => g.isShared },
};

export const listAccessRules: Handler = (ctx) => ({
  status: 200,
  body: listPage(ctx.query, tenantRules(ctx), { fields: ruleFields, search: true, sort: true }),
});

export const fetchAccessRule: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'accessRuleUid');
  const rule = tenantRules(ctx).find((r) => r.uid === uid);
  if (rule === undefined) {
    throw notFound(`Access rule ${uid} not found`, { accessRuleUid: { value: uid } });
  }
  return { status: 200, body: rule };
};

export const listAccessGroups: Handler = (ctx) => ({
  status: 200,
  body: listPage(ctx.query, tenantGroups(ctx), { fields: groupFields, search: true, sort: true }),
});

export const fetchAccessGroup: Handler = (ctx) => {
  const uid = uuidParam(ctx, 'accessGroupUid');
  const group = tenantGroups(ctx).find((g) => g.uid === uid);
  if (group === undefined) {
    throw notFound(`Access group ${uid} not found`, { accessGroupUid: { value: uid } });
  }
  return { status: 200, body: group };
};

/** ASA access rules and access groups: this file's handlers, which the table (operations.ts) spreads. */
export const policyHandlers = {
  listAccessRules,
  fetchAccessRule,
  listAccessGroups,
  fetchAccessGroup,
} satisfies Partial<OperationHandlers>;
