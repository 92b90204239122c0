// What an admin route receives and how it reads its body: shared by the admin route files (routes.ts,
// devices.ts, sccUi.ts). Also who changes made through admin routes are recorded as by default.
import type { z } from 'zod';
import { invalidInput, notFound } from '../errors.js';
import type { SimResponse } from '../http/context.js';
import { issueDetails } from '../http/input.js';
import type { RequestTarget } from '../http/server.js';
import type { DeviceRecord, SimState, TenantRecord } from '../state/model.js';

export interface AdminRequest {
  url: RequestTarget;
  params: Record<string, string>;
  body: () => Promise<unknown>;
}

export type AdminHandler = (request: AdminRequest) => SimResponse | Promise<SimResponse>;

/** Adds a route to the admin router. */
export type AddRoute = (method: string, path: string, handler: AdminHandler) => void;

/** Who changes made through the admin routes ("in SCC's UI") are recorded as, unless a route is told. */
export const UI_USER = 'admin@customer.example';

export async function parse<S extends z.ZodType>(request: AdminRequest, schema: S): Promise<z.output<S>> {
  const raw = (await request.body()) ?? {};
  const result = schema.safeParse(raw);
  if (!result.success) throw invalidInput('Invalid admin request body', issueDetails(result.error.issues));
  return result.data;
}

/** Devices by UID and by name (lower case), for looking up many at once. */
export function deviceIndex(state: SimState): Map<string, DeviceRecord> {
  const index = new Map<string, DeviceRecord>();
  for (const d of state.devices.values()) {
    index.set(d.device.uid, d);
    index.set(d.device.name.toLowerCase(), d);
  }
  return index;
}

/** A device named by UID or name, else 404. */
export function findDevice(state: SimState, key: string): DeviceRecord {
  const wanted = key.toLowerCase();
  const byUid = state.devices.get(wanted);
  if (byUid !== undefined) return byUid;
  for (const d of state.devices.values()) if (d.device.name.toLowerCase() === wanted) return d;
  throw notFound(`No device ${key}`);
}

/** Every device a list of UIDs or names names, in order; 404 naming the ones that are not there. */
export function findDevices(state: SimState, keys: readonly string[]): DeviceRecord[] {
  const index = deviceIndex(state);
  const missing = keys.filter((k) => !index.has(k.toLowerCase()));
  if (missing.length > 0)
    throw notFound(`No device ${missing.slice(0, 10).join(', ')}`, { devices: { missing } });
  return keys.map((k) => index.get(k.toLowerCase()) as DeviceRecord); // every key was checked just above
}

/** A tenant named by UID or name, else 404. */
export function findTenant(state: SimState, key: string): TenantRecord {
  const wanted = key.toLowerCase();
  const byUid = state.tenants.get(wanted);
  if (byUid !== undefined) return byUid;
  for (const t of state.tenants.values()) if (t.name.toLowerCase() === wanted) return t;
  throw notFound(`No tenant ${key}`);
}
