// Names → SCC objects. People type `asa-hq-01`, `contoso` or `inside`; SCC wants UUIDs. A UUID is looked
// up directly; a name is matched exactly (case-insensitive), else as part of a name when that part picks
// out exactly one. Several candidates answer with the choices; none says what was searched. Nothing is
// cached across requests: the inventory changes under us, and any bot process may serve the next click.

import { UserError } from '../model/errors.js';
import { type PagedOperationId, type PageItem, PagingBudgetExceeded, type SccCaller } from '../scc/call.js';
import type { AsaInterface, Device, MspManagedTenantDto, User } from '../scc/generated/models.js';
import {
  DEVICE_KIND_NAMES,
  type DeviceKind,
  deviceKind,
  INTERFACE_KINDS,
  INTERFACE_LISTS,
  INTERFACE_TYPES,
  type InterfaceKind,
  interfaceLabel,
  type ResolvedDevice,
  type ResolvedInterface,
} from '../scc/kinds.js';
import { containing } from '../scc/lucene.js';
import type { CallParams } from '../scc/operationTypes.js';
import { isUuid } from './args.js';
import { isNotFound } from './sccErrors.js';

/** What the resolvers need from the SCC client. */
export type SccReader = Pick<SccCaller, 'call' | 'paginate'>;

/**
 * The most candidates a lookup reads, and the most pages it asks for: a name that matches more is too
 * broad to choose from, and a huge (or hostile) SCC cannot make one command page without end or hold
 * hundreds of megabytes. 1,000 items are five pages at SCC's 200 per page.
 */
export const LOOKUP_BUDGET = { items: 1_000, pages: 20 } as const;

/** Every item of a paged list within LOOKUP_BUDGET; past it, a UserError asks to narrow `what`. */
export async function boundedPaginate<Id extends PagedOperationId>(
  scc: SccReader,
  operationId: Id,
  params: CallParams<Id>,
  what: string,
): Promise<PageItem<Id>[]> {
  const items: PageItem<Id>[] = [];
  try {
    for await (const item of scc.paginate(operationId, params, { budget: LOOKUP_BUDGET })) items.push(item);
  } catch (error) {
    if (!(error instanceof PagingBudgetExceeded)) throw error;
    throw new UserError(
      `There are more than ${LOOKUP_BUDGET.items.toLocaleString('en-US')} ${what} to look through (or SCC sent them ` +
        `in more than ${LOOKUP_BUDGET.pages} pages), so fwbot stopped looking. Narrow it down: a longer name, or a UUID.`,
    );
  }
  return items;
}

export interface DeviceRequirement {
  kinds: readonly DeviceKind[];
  /** Completes "ftd-edge-01 is a threat-defense device (FTD); …", e.g. "interfaces are ASA-only". */
  why: string;
}

/** Candidates whose `keys` equal the typed text, else those containing it. */
function match<T>(typed: string, items: readonly T[], keys: (item: T) => (string | null | undefined)[]): T[] {
  const wanted = typed.toLowerCase();
  const values = (item: T) => keys(item).flatMap((key) => (key ? [key.toLowerCase()] : []));
  const exact = items.filter((item) => values(item).includes(wanted));
  return exact.length > 0 ? exact : items.filter((item) => values(item).some((v) => v.includes(wanted)));
}

function ambiguous(typed: string, what: string, choices: string[]): UserError {
  const shown = choices.slice(0, 10);
  const more = choices.length > shown.length ? ` and ${choices.length - shown.length} more` : '';
  return new UserError(
    `“${typed}” matches ${choices.length} ${what}: ${shown.join(', ')}${more}. Which one?`,
    shown,
  );
}

function checkKind(found: ResolvedDevice, need: DeviceRequirement | undefined): ResolvedDevice {
  if (!need || need.kinds.includes(found.kind)) return found;
  throw new UserError(`${found.name} is ${DEVICE_KIND_NAMES[found.kind]}; ${need.why}.`);
}

function resolved(device: Device): ResolvedDevice {
  return { uid: device.uid ?? '', name: device.name, kind: deviceKind(device), device };
}

export async function resolveDevice(
  scc: SccReader,
  typed: string,
  need?: DeviceRequirement,
): Promise<ResolvedDevice> {
  const text = typed.trim();
  if (isUuid(text)) {
    try {
      const { data } = await scc.call('getDevice', { path: { deviceUid: text } });
      return checkKind(resolved(data), need);
    } catch (error) {
      if (isNotFound(error)) throw new UserError(`No device in the inventory has the UUID ${text}.`);
      throw error;
    }
  }
  const found: Device[] = await boundedPaginate(
    scc,
    'getDevices',
    // A name, never a query: `name:x) OR (…` is looked for as a name.
    { query: { q: containing(text) } },
    `devices matching “${text}”`,
  );
  const candidates = match(text, found, (device) => [device.name]).map(resolved);
  const fitting = need ? candidates.filter((c) => need.kinds.includes(c.kind)) : candidates;
  const [only] = fitting;
  if (fitting.length === 1 && only) return only;
  if (fitting.length > 1)
    return Promise.reject(
      ambiguous(
        text,
        'devices',
        fitting.map((c) => c.name),
      ),
    );
  const [wrong] = candidates;
  if (wrong) return checkKind(wrong, need);
  throw new UserError(`No device named “${text}” in the inventory (searched device names containing it).`);
}

/** Several devices at once (e.g. `vpn versions a b c`); each name must pick out one device. */
export async function resolveDevices(
  scc: SccReader,
  typed: readonly string[],
  need?: DeviceRequirement,
): Promise<ResolvedDevice[]> {
  const devices = await Promise.all(typed.map((text) => resolveDevice(scc, text, need)));
  const seen = new Set<string>();
  for (const device of devices) {
    if (seen.has(device.uid)) throw new UserError(`${device.name} is named twice.`);
    seen.add(device.uid);
  }
  return devices;
}

export async function resolveTenant(scc: SccReader, typed: string): Promise<MspManagedTenantDto> {
  const text = typed.trim();
  if (isUuid(text)) {
    try {
      const { data } = await scc.call('getMspManagedTenant', { path: { managedTenantUid: text } });
      return data;
    } catch (error) {
      if (isNotFound(error)) throw new UserError(`No tenant of the MSP portal has the UUID ${text}.`);
      throw error;
    }
  }
  return pickTenant(text, await portalTenants(scc));
}

/** Every tenant of the MSP portal, within the lookup budget. */
export function portalTenants(scc: SccReader): Promise<MspManagedTenantDto[]> {
  // Display names are not searchable with a single `q`, and a portal holds at most a few hundred tenants.
  return boundedPaginate(scc, 'getMspManagedTenants', { query: {} }, 'tenants in the MSP portal');
}

/**
 * The tenant people typed among the portal's: by UUID, by name or display name (case aside), else by the
 * part of one that picks out exactly one. Several or none: a UserError that says so.
 */
export function pickTenant(typed: string, tenants: readonly MspManagedTenantDto[]): MspManagedTenantDto {
  const text = typed.trim();
  if (isUuid(text)) {
    const found = tenants.find((tenant) => tenant.uid.toLowerCase() === text.toLowerCase());
    if (found) return found;
    throw new UserError(`No tenant of the MSP portal has the UUID ${text}.`);
  }
  const candidates = match(text, tenants, (tenant) => [tenant.name, tenant.displayName]);
  const [only] = candidates;
  if (candidates.length === 1 && only) return only;
  if (candidates.length > 1)
    throw ambiguous(
      text,
      'tenants',
      candidates.map((t) => t.name),
    );
  throw new UserError(
    `No tenant named “${text}” in the MSP portal (searched ${tenants.length} tenants by name and display name).`,
  );
}

/** An API-only user of a tenant: the UUID a token is generated for, and the name people know it by. */
export interface ResolvedApiUser {
  uid: string;
  name: string;
  user: User;
}

/** Every API-only user of a tenant (SCC's user list leaves them out; they have their own list). */
export async function listApiOnlyUsers(scc: SccReader, tenantUid: string): Promise<ResolvedApiUser[]> {
  const users: User[] = await boundedPaginate(
    scc,
    'getApiOnlyUsersInMspManagedTenant',
    { path: { tenantUid } },
    'API-only users in the tenant',
  );
  return users.flatMap((user) => (user.uid ? [{ uid: user.uid, name: user.name ?? user.uid, user }] : []));
}

/**
 * An API-only user of `tenant` by name or UUID. SCC reads API-only users only as a list (no read by
 * UUID), so a UUID is looked up in that list too: the answer always carries the user's name.
 */
export async function resolveApiUser(
  scc: SccReader,
  tenant: { uid: string; name: string },
  typed: string,
): Promise<ResolvedApiUser> {
  const text = typed.trim();
  const all = await listApiOnlyUsers(scc, tenant.uid);
  if (isUuid(text)) {
    const found = all.find((u) => u.uid.toLowerCase() === text.toLowerCase());
    if (found) return found;
    throw new UserError(`Tenant ${tenant.name} has no API-only user with the UUID ${text}.`);
  }
  const candidates = match(text, all, (u) => [u.user.name]);
  const [only] = candidates;
  if (candidates.length === 1 && only) return only;
  if (candidates.length > 1)
    throw ambiguous(
      text,
      `API-only users of ${tenant.name}`,
      candidates.map((u) => u.name),
    );
  throw new UserError(
    `Tenant ${tenant.name} has no API-only user named “${text}” (searched ${all.length} API-only users by name; ` +
      `\`/fw tenants users ${tenant.name} --api-only\` lists them).`,
  );
}

export {
  DEVICE_KIND_NAMES,
  type DeviceKind,
  deviceKind,
  INTERFACE_GET,
  INTERFACE_KIND_NAMES,
  INTERFACE_KINDS,
  INTERFACE_LISTS,
  type InterfaceKind,
  interfaceLabel,
  type ResolvedDevice,
  type ResolvedInterface,
} from '../scc/kinds.js';

/** An interface as a list answered it; its own `interfaceType` wins over the list it came from. */
export function toResolved(iface: AsaInterface, listedAs: InterfaceKind): ResolvedInterface {
  const kind = INTERFACE_TYPES[iface.interfaceType ?? ''] ?? listedAs;
  return { uid: iface.uid ?? '', kind, label: interfaceLabel(iface), iface };
}

/** Every interface of an ASA, all five kinds. */
export async function listDeviceInterfaces(scc: SccReader, deviceUid: string): Promise<ResolvedInterface[]> {
  const lists = await Promise.all(
    INTERFACE_KINDS.map(async (kind) => {
      const path = { deviceUid };
      const found = await boundedPaginate(scc, INTERFACE_LISTS[kind], { path }, `${kind} interfaces`);
      return found.map((iface) => toResolved(iface, kind));
    }),
  );
  return lists.flat();
}

/** An interface of `device` by name, hardware name or UUID; `known` saves listing them again. */
export async function resolveInterface(
  scc: SccReader,
  device: ResolvedDevice,
  typed: string,
  known?: readonly ResolvedInterface[],
): Promise<ResolvedInterface> {
  const text = typed.trim();
  const all = known ?? (await listDeviceInterfaces(scc, device.uid));
  if (isUuid(text)) {
    const found = all.find((i) => i.uid.toLowerCase() === text.toLowerCase());
    if (found) return found;
    throw new UserError(`${device.name} has no interface with the UUID ${text}.`);
  }
  const candidates = match(text, all, (i) => [i.iface.name, i.iface.hardwareName]);
  const [only] = candidates;
  if (candidates.length === 1 && only) return only;
  if (candidates.length > 1)
    throw ambiguous(
      text,
      `interfaces of ${device.name}`,
      candidates.map((i) => i.label),
    );
  throw new UserError(
    `${device.name} has no interface named “${text}” (searched ${all.length} interfaces by name and hardware name).`,
  );
}
