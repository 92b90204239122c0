// Objects across the tenant's ASAs (scc-openapi-lookups.yaml: getObjects, getObject, getObjectUsages),
// derived from each ASA's parsed policy (state/asaPolicy.ts). SCC's objects are shared: the same name with
// the same content on several ASAs is one object whose `targets` are those devices; its UID is a hash of
// the tenant, type, name and content. `elements` is the flattened content (a host's address, a subnet as
// CIDR, a group's members expanded through nested groups, a service as `tcp/443`).
// Usages (ReferenceInfo): the object-groups that hold it, directly or through nested groups (objectType
// NETWORK_GROUP / SERVICE_GROUP, uid the group's object UID); the access rules that name it or such a
// group (no objectType: the reference's enum has none for a rule; uid the access rule's UID, name its
// configuration line); and its object NAT (no objectType; name the `nat` line with its object).
import { notFound } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { uuidParam } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { stableUid } from '../random.js';
import { cidrText } from '../state/asaAddresses.js';
import { cloudPolicyOf } from '../state/asaPolicy.js';
import type { AsaPolicy, PolicyObject, PolicyObjectGroup } from '../state/asaPolicyModel.js';
import type { DeviceRecord, UnassociatedObjectRecord } from '../state/model.js';
import { tenantDevices } from './devices.js';

export type ObjectType = 'NETWORK_OBJECT' | 'NETWORK_GROUP' | 'SERVICE_OBJECT' | 'SERVICE_GROUP';

export interface TargetDto {
  id: string;
  displayName: string;
  type: 'ASA';
}

export interface ReferenceInfoDto {
  uid: string;
  name: string;
  objectType?: ObjectType;
}

/** One shared object: what getObject answers, and (without elements and targets) what getObjects lists. */
export interface ObjectDto {
  uid: string;
  name: string;
  description?: string;
  elements: string[];
  value: { objectType: ObjectType; defaultContent: Record<string, unknown> };
  targets: TargetDto[];
  issues: { unusedTargetIds: string[] };
  readOnly: false;
}

export interface Found {
  object: ObjectDto;
  /** Where it is defined, with the definition on each device (none for an unassociated object). */
  on: { device: DeviceRecord; policy: AsaPolicy; definition: PolicyObject | PolicyObjectGroup }[];
}

const ports = (p: { low: number; high: number }) => (p.low === p.high ? `${p.low}` : `${p.low}-${p.high}`);

function typeOf(definition: PolicyObject | PolicyObjectGroup, isGroup: boolean): ObjectType {
  if (definition.type === 'network') return isGroup ? 'NETWORK_GROUP' : 'NETWORK_OBJECT';
  return isGroup ? 'SERVICE_GROUP' : 'SERVICE_OBJECT';
}

/** The flattened content of a definition. */
export function elementsOf(definition: PolicyObject | PolicyObjectGroup, isGroup: boolean): string[] {
  if (definition.type === 'service') {
    const protocol = definition.protocol ?? 'ip';
    const list = definition.ports ?? [];
    return list.length === 0 ? [protocol] : list.map((p) => `${protocol}/${ports(p)}`);
  }
  if (!isGroup) {
    // A network object's own words: a range stays a range, an FQDN its name.
    const out: string[] = [];
    for (const line of definition.body) {
      const t = line.split(/\s+/);
      if (t[0] === 'range' && t[1] !== undefined && t[2] !== undefined) out.push(`${t[1]}-${t[2]}`);
      else if (t[0] === 'fqdn') out.push(t.at(-1) ?? '');
    }
    if (out.length > 0) return out;
  }
  return [...new Set((definition.networks ?? []).map(cidrText))];
}

export function definitionOf(
  policy: AsaPolicy,
  name: string,
): { definition: PolicyObject | PolicyObjectGroup; isGroup: boolean } | undefined {
  const object = policy.objects.find((o) => o.name === name);
  if (object !== undefined) return { definition: object, isGroup: false };
  const group = policy.objectGroups.find((g) => g.name === name);
  return group === undefined ? undefined : { definition: group, isGroup: true };
}

/** The tenant-wide object UID of the object or group `name` as a device defines it (undefined: none). */
export function objectUidOf(device: DeviceRecord, policy: AsaPolicy, name: string): string | undefined {
  const found = definitionOf(policy, name);
  if (found === undefined) return undefined;
  const type = typeOf(found.definition, found.isGroup);
  const derived = derivedObjectUid(device.tenantUid, type, name, elementsOf(found.definition, found.isGroup));
  return policy.uidAliases?.get(derived) ?? derived;
}

/** The UID SCC's object of this tenant, type, name and content has (before a change kept an older one). */
export const derivedObjectUid = (
  tenantUid: string,
  type: ObjectType,
  name: string,
  elements: readonly string[],
) => stableUid(tenantUid, 'object', type, name, elements.join(','));

function contentOf(
  device: DeviceRecord,
  policy: AsaPolicy,
  definition: PolicyObject | PolicyObjectGroup,
  isGroup: boolean,
  elements: readonly string[],
): Record<string, unknown> {
  if (isGroup) {
    const refs = (definition as PolicyObjectGroup).references
      .map((name) => objectUidOf(device, policy, name))
      .filter((uid): uid is string => uid !== undefined);
    return { referencedObjectUids: [...new Set(refs)] };
  }
  if (definition.type === 'service')
    return {
      protocol:
        (definition.protocol ?? 'ip').toUpperCase() === 'IP'
          ? 'ALL'
          : (definition.protocol ?? '').toUpperCase(),
    };
  return { literal: elements.join(', ') };
}

/**
 * Every object of the tenant's ASAs, one per name and content, with the devices that define it, then the
 * tenant's objects that no device holds (created without targets: api/objectChanges.ts).
 */
export function tenantObjects(ctx: RequestContext): Found[] {
  const byUid = new Map<string, Found>();
  for (const device of tenantDevices(ctx)) {
    if (device.kind !== 'ASA') continue;
    const policy = cloudPolicyOf(ctx.state, device.device.uid);
    const definitions: [PolicyObject | PolicyObjectGroup, boolean][] = [
      ...policy.objects.map((o): [PolicyObject, boolean] => [o, false]),
      ...policy.objectGroups.map((g): [PolicyObjectGroup, boolean] => [g, true]),
    ];
    for (const [definition, isGroup] of definitions) {
      const uid = objectUidOf(device, policy, definition.name) ?? '';
      const elements = elementsOf(definition, isGroup);
      let found = byUid.get(uid);
      if (found === undefined) {
        found = {
          object: {
            uid,
            name: definition.name,
            ...(definition.description === undefined ? {} : { description: definition.description }),
            elements,
            value: {
              objectType: typeOf(definition, isGroup),
              defaultContent: contentOf(device, policy, definition, isGroup, elements),
            },
            targets: [],
            issues: { unusedTargetIds: [] },
            readOnly: false,
          },
          on: [],
        };
        byUid.set(uid, found);
      }
      found.object.targets.push({ id: device.device.uid, displayName: device.device.name, type: 'ASA' });
      found.on.push({ device, policy, definition });
      if (usagesOn(device, policy, definition.name).length === 0) {
        found.object.issues.unusedTargetIds.push(device.device.uid);
      }
    }
  }
  const unassociated = [...ctx.state.unassociatedObjects.values()].filter(
    (r) => r.tenantUid === ctx.principal.tenant.uid && !byUid.has(r.uid),
  );
  for (const record of unassociated) byUid.set(record.uid, { object: unassociatedDto(record), on: [] });
  // A group no device holds shows its members' content (one level: members are objects of the tenant).
  for (const record of unassociated) {
    const found = byUid.get(record.uid);
    if (found === undefined || record.referencedObjectUids === undefined) continue;
    const members = record.referencedObjectUids.flatMap((uid) => byUid.get(uid)?.object.elements ?? []);
    found.object.elements = [...new Set(members)];
  }
  return [...byUid.values()];
}

/** An object no device holds, as getObject answers it. */
function unassociatedDto(record: UnassociatedObjectRecord): ObjectDto {
  return {
    uid: record.uid,
    name: record.name,
    ...(record.description === undefined ? {} : { description: record.description }),
    elements: record.literal === undefined ? [] : [record.literal],
    value: {
      objectType: record.objectType,
      defaultContent:
        record.literal !== undefined
          ? { literal: record.literal }
          : { referencedObjectUids: [...(record.referencedObjectUids ?? [])] },
    },
    targets: [],
    issues: { unusedTargetIds: [] },
    readOnly: false,
  };
}

/** The groups holding `name`, directly or through nested groups. */
function groupsHolding(policy: AsaPolicy, name: string): PolicyObjectGroup[] {
  const out: PolicyObjectGroup[] = [];
  const queue = [name];
  while (queue.length > 0) {
    const current = queue.shift() ?? '';
    for (const group of policy.objectGroups) {
      if (group.references.includes(current) && !out.includes(group)) {
        out.push(group);
        queue.push(group.name);
      }
    }
  }
  return out;
}

/** Where `name` is used on one device: groups (nested included), access rules, its object NAT. */
export function usagesOn(device: DeviceRecord, policy: AsaPolicy, name: string): ReferenceInfoDto[] {
  const groups = groupsHolding(policy, name);
  const names = new Set([name, ...groups.map((g) => g.name)]);
  const out: ReferenceInfoDto[] = groups.map((g) => ({
    uid: objectUidOf(device, policy, g.name) ?? g.uid,
    name: g.name,
    objectType: g.type === 'network' ? 'NETWORK_GROUP' : 'SERVICE_GROUP',
  }));
  for (const entries of policy.accessLists.values()) {
    for (const entry of entries) {
      if (entry.kind !== 'rule') continue;
      const words = entry.text.split(/\s+/);
      const referenced = words.some(
        (w, i) => (words[i - 1] === 'object' || words[i - 1] === 'object-group') && names.has(w),
      );
      if (referenced) out.push({ uid: entry.uid, name: entry.text });
    }
  }
  for (const nat of policy.nats) {
    if (nat.objectName === name || nat.text.split(/\s+/).at(-1) === name) {
      out.push({
        uid: stableUid(device.device.uid, 'nat', nat.objectName),
        name: `object network ${nat.objectName} ${nat.text}`,
      });
    }
  }
  return out;
}

export function findObject(ctx: RequestContext): Found {
  const uid = uuidParam(ctx, 'uid');
  const found = tenantObjects(ctx).find((f) => f.object.uid === uid);
  if (found === undefined) throw notFound(`Object ${uid} not found`, { uid: { value: uid } });
  return found;
}

/** getObjects searches `name` and `content` only (any other field: 400, as SCC's lists answer). */
const objectFields: FieldTable<Found> = {
  name: { kind: 'string', get: (f) => f.object.name },
  content: { kind: 'string', get: (f) => f.object.elements },
};

export const getObjects: Handler = (ctx) => {
  const page = listPage(ctx.query, tenantObjects(ctx), { fields: objectFields, search: true, sort: true });
  return {
    status: 200,
    body: {
      ...page,
      items: page.items.map(({ object }) => ({
        uid: object.uid,
        name: object.name,
        ...(object.description === undefined ? {} : { description: object.description }),
        value: object.value,
        targetIds: object.targets.map((t) => t.id),
        issues: object.issues,
        readOnly: object.readOnly,
        // Not in the reference's list view, but what SCC's UI shows in the list: the flattened content.
        elements: object.elements,
      })),
    },
  };
};

export const getObject: Handler = (ctx) => ({ status: 200, body: findObject(ctx).object });

export const getObjectUsages: Handler = (ctx) => {
  const found = findObject(ctx);
  const seen = new Set<string>();
  const usages: ReferenceInfoDto[] = [];
  for (const { device, policy, definition } of found.on) {
    for (const usage of usagesOn(device, policy, definition.name)) {
      if (seen.has(usage.uid)) continue;
      seen.add(usage.uid);
      usages.push(usage);
    }
  }
  return { status: 200, body: usages };
};

/** The tenant's objects whose name or content holds `term` (for the global search). */
export function objectsMatching(ctx: RequestContext, term: string): ObjectDto[] {
  const needle = term.toLowerCase();
  return tenantObjects(ctx)
    .map((f) => f.object)
    .filter(
      (o) =>
        o.name.toLowerCase().includes(needle) || o.elements.some((e) => e.toLowerCase().includes(needle)),
    );
}

/** Objects and their usages: this file's handlers, which the table (operations.ts) spreads. */
export const objectHandlers = {
  getObjects,
  getObject,
  getObjectUsages,
} satisfies Partial<OperationHandlers>;
