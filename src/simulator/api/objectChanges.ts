// Changing the tenant's shared objects (scc-openapi-access.yaml: createObject, modifyObject, deleteObject,
// getDuplicateObjects, getTargets, createTargets, getIssuesCount). As the reference says, these cover
// network objects and groups only, and answer only while the tenant has object sharing on
// (getTenantSettings `objectSharingEnabled`; else 403 FORBIDDEN). An object with targets lives in those
// ASAs' policy lines: creating, changing or removing it there is staged like a rule change (SCC's copy only,
// NOT_SYNCED until a deploy: state/asaConfig.ts stagePolicy). One without targets is the tenant's alone
// (SimState.unassociatedObjects). An object still in use (a group holds it, a rule or NAT names it) is not
// deleted unless `forcedDelete`, which takes it out of the groups holding it; a rule or NAT that names it
// still stops the delete, as the ASA refuses to remove an object in use. A changed object keeps its UID.

import { z } from 'zod';
import { requireWrite } from '../auth.js';
import { type ErrorDetails, forbidden, invalidInput } from '../errors.js';
import type { Handler, OperationHandlers, RequestContext } from '../http/context.js';
import { describe, requireBody } from '../http/input.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { parseIp } from '../state/asaAddresses.js';
import { cloudPolicyOf } from '../state/asaPolicy.js';
import { blocks, policyLinesOf } from '../state/asaPolicyLines.js';
import { governanceOf } from '../state/governance.js';
import type { DeviceRecord, UnassociatedObjectRecord } from '../state/model.js';
import { stage } from './accessRules.js';
import {
  derivedObjectUid,
  type Found,
  findObject,
  type ObjectDto,
  objectUidOf,
  tenantObjects,
  usagesOn,
} from './objects.js';

const NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

const Content = z
  .object({
    literal: z.string().max(200).optional(),
    referencedObjectUids: z.array(z.string()).max(200).optional(),
    literals: z
      .array(z.object({ literal: z.string().max(200).optional() }).passthrough())
      .max(200)
      .optional(),
  })
  .passthrough();
const Value = z
  .object({ objectType: z.string(), defaultContent: Content, overrides: z.array(z.unknown()).optional() })
  .passthrough();
const CreateRequest = z
  .object({
    name: z.string(),
    value: Value,
    description: z.string().max(200).optional(),
    targetIds: z.array(z.string()).max(50).optional(),
  })
  .passthrough();
const UpdateRequest = z
  .object({
    name: z.string().optional(),
    value: Value.optional(),
    description: z.string().max(200).optional(),
  })
  .passthrough();
const TargetsRequest = z.object({ targetsUuids: z.array(z.string()).max(50).optional() }).passthrough();

/** The object APIs answer only while the caller's tenant has object sharing on. */
function requireSharing(ctx: RequestContext): void {
  if (!governanceOf(ctx.state, ctx.principal.tenant.uid).objectSharing) {
    throw forbidden(
      'Object sharing is not enabled for this tenant: the object APIs answer only while it is on (getTenantSettings objectSharingEnabled)',
    );
  }
}

type NetworkType = 'NETWORK_OBJECT' | 'NETWORK_GROUP';

function networkType(objectType: string): NetworkType {
  if (objectType === 'NETWORK_OBJECT' || objectType === 'NETWORK_GROUP') return objectType;
  throw invalidInput(
    `value.objectType ${objectType}: the object APIs support network objects and groups only`,
    {
      'value.objectType': { value: objectType },
    },
  );
}

/** `10.1.1.5` → `host …`, `10.1.0.0/16` → `subnet … MASK`, `a-b` → `range a b`, a name → `fqdn`. */
function literalWords(literal: string, member: boolean): string {
  const text = literal.trim();
  const range = /^([\d.]+)-([\d.]+)$/.exec(text);
  if (
    range !== null &&
    !member &&
    parseIp(range[1] ?? '')?.family === 4 &&
    parseIp(range[2] ?? '')?.family === 4
  ) {
    return `range ${range[1]} ${range[2]}`;
  }
  const [address = '', prefixText] = text.split('/');
  const ip = parseIp(address);
  if (ip?.family === 4) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    if (Number.isInteger(prefix) && prefix >= 0 && prefix <= 32) {
      if (prefix === 32) return `host ${address}`;
      const mask = [0, 1, 2, 3]
        .map((i) => (((0xffffffff << (32 - prefix)) >>> 0) >>> (24 - i * 8)) & 0xff)
        .join('.');
      return member ? `${address} ${mask}` : `subnet ${address} ${mask}`;
    }
  }
  if (!member && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(text))
    return `fqdn v4 ${text}`;
  throw invalidInput(`"${literal}" is not a host, a CIDR, a range or a domain name`, {
    literal: { value: literal },
  });
}

/** The name of the tenant object `uid` on one device (`object X` or `group-object X` for a member). */
function memberLine(device: DeviceRecord, uid: string, ctx: RequestContext): string {
  const policy = cloudPolicyOf(ctx.state, device.device.uid);
  const object = policy.objects.find(
    (o) => o.type === 'network' && objectUidOf(device, policy, o.name) === uid,
  );
  if (object !== undefined) return ` network-object object ${object.name}`;
  const group = policy.objectGroups.find(
    (g) => g.type === 'network' && objectUidOf(device, policy, g.name) === uid,
  );
  if (group !== undefined) return ` group-object ${group.name}`;
  throw invalidInput(
    `Object ${uid} is not on ${device.device.name}: a group's members must be on each of its targets`,
    {
      referencedObjectUids: { value: uid },
    },
  );
}

/** The configuration block of a network object or group on one device. */
function blockFor(
  ctx: RequestContext,
  device: DeviceRecord,
  spec: {
    name: string;
    type: NetworkType;
    content: z.infer<typeof Content>;
    description?: string | undefined;
  },
): string[] {
  const description =
    spec.description === undefined || spec.description === '' ? [] : [` description ${spec.description}`];
  if (spec.type === 'NETWORK_OBJECT') {
    if (spec.content.literal === undefined) {
      throw invalidInput('value.defaultContent.literal: a network object needs its content', {});
    }
    return [`object network ${spec.name}`, ` ${literalWords(spec.content.literal, false)}`, ...description];
  }
  const members = [
    ...(spec.content.referencedObjectUids ?? []).map((uid) => memberLine(device, uid.toLowerCase(), ctx)),
    ...(spec.content.literals ?? []).map((l) => ` network-object ${literalWords(l.literal ?? '', true)}`),
  ];
  if (members.length === 0) throw invalidInput('value.defaultContent: a network group needs members', {});
  return [`object-group network ${spec.name}`, ...description, ...members];
}

/** The lines with `block` defined before the first access list (where `show running-config` has objects). */
function withDefinition(lines: readonly string[], block: readonly string[]): string[] {
  const at = lines.findIndex((l) => l.startsWith('access-list '));
  const out = [...lines];
  out.splice(at === -1 ? out.length : at, 0, ...block);
  return out;
}

/** The lines without the definition block whose head is `head`. */
function withoutDefinition(lines: readonly string[], head: string): string[] {
  return blocks(lines)
    .filter(([first]) => first !== head)
    .flat();
}

function targetAsas(ctx: RequestContext, uids: readonly string[], field: string): DeviceRecord[] {
  const details: ErrorDetails = {};
  const out: DeviceRecord[] = [];
  for (const uid of uids) {
    const device = ctx.state.devices.get(uid.toLowerCase());
    if (device === undefined || device.tenantUid !== ctx.principal.tenant.uid || device.kind !== 'ASA') {
      details[uid] = { message: 'not an ASA of this tenant' };
    } else if (!out.includes(device)) out.push(device);
  }
  if (Object.keys(details).length > 0) throw invalidInput(`${field}: ${describe(details)}`, details);
  return out;
}

function answer(ctx: RequestContext, uid: string): ObjectDto {
  const found = tenantObjects(ctx).find((f) => f.object.uid === uid);
  if (found === undefined) throw new Error(`object ${uid} is gone after the change`);
  return found.object;
}

/** After a change: the UID the object's content derives now is mapped to the one it had. */
function keepUid(ctx: RequestContext, device: DeviceRecord | undefined, name: string, uid: string): void {
  if (device === undefined) return;
  const policy = cloudPolicyOf(ctx.state, device.device.uid);
  const now = objectUidOf(device, policy, name);
  if (now !== undefined && now !== uid) ctx.state.uidAliases.set(now, uid);
}

const headOf = (found: Found): string =>
  `${found.object.value.objectType === 'NETWORK_GROUP' ? 'object-group' : 'object'} network ${found.object.name}`;

function networkObject(ctx: RequestContext): Found {
  const found = findObject(ctx);
  networkType(found.object.value.objectType);
  return found;
}

// --- handlers ----------------------------------------------------------------------------------------

const createObject: Handler = (ctx) => {
  requireSharing(ctx);
  requireWrite(ctx.principal);
  const body = requireBody(ctx, CreateRequest);
  const type = networkType(body.value.objectType);
  if (!NAME.test(body.name))
    throw invalidInput('name: letters, digits, _ . - (at most 64)', { name: { value: body.name } });
  if (tenantObjects(ctx).some((f) => f.object.name.toLowerCase() === body.name.toLowerCase())) {
    throw invalidInput(`name: an object named ${body.name} already exists`, { name: { value: body.name } });
  }
  const targets = targetAsas(ctx, body.targetIds ?? [], 'targetIds');
  const spec = { name: body.name, type, content: body.value.defaultContent, description: body.description };
  if (targets.length === 0) {
    const literal = body.value.defaultContent.literal;
    if (type === 'NETWORK_OBJECT') literalWords(literal ?? '', false);
    const uids = (body.value.defaultContent.referencedObjectUids ?? []).map((u) => u.toLowerCase());
    const known = new Set(tenantObjects(ctx).map((f) => f.object.uid));
    const unknown = uids.filter((u) => !known.has(u));
    if (unknown.length > 0) throw invalidInput(`referencedObjectUids: no object ${unknown.join(', ')}`, {});
    const record: UnassociatedObjectRecord = {
      uid: derivedObjectUid(
        ctx.principal.tenant.uid,
        type,
        body.name,
        literal === undefined ? [] : [literal],
      ),
      tenantUid: ctx.principal.tenant.uid,
      name: body.name,
      objectType: type,
      ...(type === 'NETWORK_OBJECT' ? { literal: literal?.trim() ?? '' } : { referencedObjectUids: uids }),
      ...(body.description === undefined ? {} : { description: body.description }),
    };
    ctx.state.unassociatedObjects.set(record.uid, record);
    return { status: 201, body: answer(ctx, record.uid) };
  }
  const staged = targets.map((device) => ({
    device,
    lines: withDefinition(policyLinesOf(ctx.state, device.device.uid), blockFor(ctx, device, spec)),
  }));
  for (const { device, lines } of staged) {
    stage(
      ctx,
      device,
      lines,
      'CREATE',
      `Created network ${type === 'NETWORK_GROUP' ? 'group' : 'object'} ${body.name} on ${device.device.name}`,
    );
  }
  const first = targets[0] as DeviceRecord;
  const uid = objectUidOf(first, cloudPolicyOf(ctx.state, first.device.uid), body.name) ?? '';
  return { status: 201, body: answer(ctx, uid) };
};

const modifyObject: Handler = (ctx) => {
  requireSharing(ctx);
  requireWrite(ctx.principal);
  const found = networkObject(ctx);
  const body = requireBody(ctx, UpdateRequest);
  const type = networkType(body.value?.objectType ?? found.object.value.objectType);
  if (type !== found.object.value.objectType) {
    throw invalidInput('value.objectType: an object keeps its type', { 'value.objectType': { value: type } });
  }
  const name = body.name ?? found.object.name;
  if (!NAME.test(name))
    throw invalidInput('name: letters, digits, _ . - (at most 64)', { name: { value: name } });
  if (name !== found.object.name) {
    if (tenantObjects(ctx).some((f) => f.object.name.toLowerCase() === name.toLowerCase())) {
      throw invalidInput(`name: an object named ${name} already exists`, { name: { value: name } });
    }
    const used = found.on.some(
      ({ device, policy }) => usagesOn(device, policy, found.object.name).length > 0,
    );
    if (used)
      throw invalidInput(`name: ${found.object.name} is in use and cannot be renamed`, {
        name: { value: name },
      });
  }
  const record = ctx.state.unassociatedObjects.get(found.object.uid);
  if (record !== undefined) {
    record.name = name;
    if (body.description !== undefined) record.description = body.description;
    if (body.value?.defaultContent.literal !== undefined) {
      literalWords(body.value.defaultContent.literal, false);
      record.literal = body.value.defaultContent.literal.trim();
    }
    if (body.value?.defaultContent.referencedObjectUids !== undefined) {
      record.referencedObjectUids = body.value.defaultContent.referencedObjectUids.map((u) =>
        u.toLowerCase(),
      );
    }
    return { status: 200, body: answer(ctx, record.uid) };
  }
  const head = headOf(found);
  for (const { device, definition } of found.on) {
    const lines = policyLinesOf(ctx.state, device.device.uid);
    const [old = []] = blocks(lines).filter(([first]) => first === head);
    const nat = old.filter((l) => l.trim().startsWith('nat '));
    const block =
      body.value === undefined
        ? [old[0] ?? head, ...old.slice(1).filter((l) => !l.trim().startsWith('description '))]
        : blockFor(ctx, device, {
            name,
            type,
            content: body.value.defaultContent,
            description: undefined,
          });
    const description = body.description ?? definition.description;
    const [first = head, ...rest] = block;
    const renamed = first.replace(/ network \S+$/, ` network ${name}`);
    const bodyLines = rest.filter(
      (l) => !l.trim().startsWith('nat ') && !l.trim().startsWith('description '),
    );
    const next = [
      renamed,
      ...(description === undefined || description === '' ? [] : [` description ${description}`]),
      ...bodyLines,
      ...nat,
    ];
    const at = lines.indexOf(head);
    const without = withoutDefinition(lines, head);
    without.splice(at === -1 ? without.length : at, 0, ...next);
    stage(
      ctx,
      device,
      without,
      'UPDATE',
      `Modified network ${type === 'NETWORK_GROUP' ? 'group' : 'object'} ${found.object.name} on ${device.device.name}`,
    );
  }
  keepUid(ctx, found.on[0]?.device, name, found.object.uid);
  return { status: 200, body: answer(ctx, found.object.uid) };
};

const deleteObject: Handler = (ctx) => {
  requireSharing(ctx);
  requireWrite(ctx.principal);
  const found = networkObject(ctx);
  const forced = ctx.query.get('forcedDelete') === 'true';
  const uid = found.object.uid;
  // Groups no device holds that name it (an unassociated group's members).
  const holders = [...ctx.state.unassociatedObjects.values()].filter(
    (r) => r.tenantUid === ctx.principal.tenant.uid && r.referencedObjectUids?.includes(uid),
  );
  const usages = found.on.flatMap(({ device, policy }) =>
    usagesOn(device, policy, found.object.name).map((u) => ({ device, usage: u })),
  );
  const inUse = usages.length > 0 || holders.length > 0;
  if (inUse && !forced) {
    const where = [
      ...usages.map((u) => `${u.usage.name} (${u.device.device.name})`),
      ...holders.map((h) => h.name),
    ];
    throw invalidInput(
      `${found.object.name} is in use: ${where.join('; ')}. Remove those uses first, or delete with forcedDelete`,
      {
        uid: { value: uid, usages: where },
      },
    );
  }
  const named = usages.filter((u) => u.usage.objectType === undefined);
  if (named.length > 0) {
    throw invalidInput(
      `${found.object.name} is named by ${named.map((u) => `${u.usage.name} (${u.device.device.name})`).join('; ')}: the device cannot remove an object a rule or NAT uses, even with forcedDelete`,
      { uid: { value: uid } },
    );
  }
  for (const holder of holders)
    holder.referencedObjectUids = (holder.referencedObjectUids ?? []).filter((u) => u !== uid);
  ctx.state.unassociatedObjects.delete(uid);
  const head = headOf(found);
  const member = new RegExp(
    `^ (network-object object|group-object) ${found.object.name.replace(/[.]/g, '\\.')}$`,
  );
  for (const { device } of found.on) {
    const lines = withoutDefinition(policyLinesOf(ctx.state, device.device.uid), head).filter(
      (l) => !member.test(l),
    );
    stage(
      ctx,
      device,
      lines,
      'DELETE',
      `Deleted network ${found.object.value.objectType === 'NETWORK_GROUP' ? 'group' : 'object'} ${found.object.name} on ${device.device.name}`,
    );
  }
  return { status: 204 };
};

const getDuplicateObjects: Handler = (ctx) => {
  requireSharing(ctx);
  const found = networkObject(ctx);
  const targetUid = ctx.query.get('targetUid') ?? '';
  const [target] = targetAsas(ctx, [targetUid], 'targetUid');
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && [...a].sort().every((e, i) => e === [...b].sort()[i]);
  const duplicates = tenantObjects(ctx).filter(
    (f) =>
      f.object.uid !== found.object.uid &&
      f.object.value.objectType === found.object.value.objectType &&
      f.object.targets.some((t) => t.id === target?.device.uid) &&
      same(f.object.elements, found.object.elements),
  );
  return {
    status: 200,
    body:
      duplicates.length === 0
        ? []
        : [{ targetUid: target?.device.uid, unifiedObjectUids: duplicates.map((f) => f.object.uid) }],
  };
};

interface TargetRow {
  uid: string;
  name: string;
  targetType: string;
}

const targetFields: FieldTable<TargetRow> = {
  targetType: { kind: 'string', get: (t) => t.targetType },
  uid: { kind: 'string', get: (t) => t.uid },
  name: { kind: 'string', get: (t) => t.name },
};

const getTargets: Handler = (ctx) => {
  requireSharing(ctx);
  const found = networkObject(ctx);
  const rows: TargetRow[] = found.object.targets.map((t) => ({
    uid: t.id,
    name: t.displayName,
    targetType: t.type,
  }));
  const page = listPage(ctx.query, rows, { fields: targetFields, search: true, sort: false });
  return { status: 200, body: { ...page, items: page.items.map((t) => ({ uid: t.uid, name: t.name })) } };
};

const createTargets: Handler = (ctx) => {
  requireSharing(ctx);
  requireWrite(ctx.principal);
  const found = networkObject(ctx);
  const body = requireBody(ctx, TargetsRequest);
  const targets = targetAsas(ctx, body.targetsUuids ?? [], 'targetsUuids').filter(
    (d) => !found.object.targets.some((t) => t.id === d.device.uid),
  );
  const source = found.on[0];
  const record = ctx.state.unassociatedObjects.get(found.object.uid);
  const type = networkType(found.object.value.objectType);
  const staged = targets.map((device) => {
    let block: string[];
    if (source !== undefined) {
      const [old = []] = blocks(policyLinesOf(ctx.state, source.device.device.uid)).filter(
        ([first]) => first === headOf(found),
      );
      // A group's members must be on the new target too; NAT stays with the device that has it.
      block = old.filter((l) => !l.trim().startsWith('nat '));
      if (type === 'NETWORK_GROUP') {
        const policy = cloudPolicyOf(ctx.state, device.device.uid);
        const names = new Set([...policy.objects, ...policy.objectGroups].map((o) => o.name));
        for (const line of block) {
          const m = /^ (?:network-object object|group-object) (\S+)$/.exec(line);
          if (m !== null && !names.has(m[1] ?? '')) {
            throw invalidInput(
              `${m[1]} is not on ${device.device.name}: a group's members must be on each of its targets`,
              {},
            );
          }
        }
      }
    } else {
      block = blockFor(ctx, device, {
        name: found.object.name,
        type,
        content:
          record?.literal !== undefined
            ? { literal: record.literal }
            : { referencedObjectUids: record?.referencedObjectUids ?? [] },
        description: record?.description,
      });
    }
    return { device, lines: withDefinition(policyLinesOf(ctx.state, device.device.uid), block) };
  });
  for (const { device, lines } of staged) {
    stage(
      ctx,
      device,
      lines,
      'CREATE',
      `Added network ${type === 'NETWORK_GROUP' ? 'group' : 'object'} ${found.object.name} to ${device.device.name}`,
    );
  }
  if (staged.length > 0) {
    ctx.state.unassociatedObjects.delete(found.object.uid);
    keepUid(ctx, staged[0]?.device, found.object.name, found.object.uid);
  }
  return { status: 200, body: {} };
};

const issueFields: FieldTable<Found> = {
  name: { kind: 'string', get: (f) => f.object.name },
  content: { kind: 'string', get: (f) => f.object.elements },
};

const getIssuesCount: Handler = (ctx) => {
  requireSharing(ctx);
  const all = tenantObjects(ctx);
  const query = new URLSearchParams({ limit: '200', offset: '0' });
  const q = ctx.query.get('q');
  if (q !== null) query.set('q', q);
  // Counted over every match, not one page: the list engine filters, the count is its `count`.
  const matching: Found[] = [];
  for (let offset = 0; ; offset += 200) {
    query.set('offset', String(offset));
    const page = listPage(query, all, { fields: issueFields, search: true, sort: false });
    matching.push(...page.items);
    if (page.items.length < 200) break;
  }
  const duplicates = matching.filter((f) =>
    all.some(
      (g) =>
        g.object.uid !== f.object.uid &&
        g.object.value.objectType === f.object.value.objectType &&
        g.object.elements.join(',') === f.object.elements.join(',') &&
        g.object.targets.some((t) => f.object.targets.some((u) => u.id === t.id)),
    ),
  );
  return {
    status: 200,
    body: {
      totalObjects: matching.length,
      duplicates: duplicates.length,
      unAssociated: matching.filter((f) => f.object.targets.length === 0).length,
      unUseds: matching.filter((f) => f.object.issues.unusedTargetIds.length > 0).length,
    },
  };
};

/** Changing shared objects: this file's handlers, which the table (operations.ts) spreads. */
export const objectChangeHandlers = {
  createObject,
  modifyObject,
  deleteObject,
  getDuplicateObjects,
  getTargets,
  createTargets,
  getIssuesCount,
} satisfies Partial<OperationHandlers>;
