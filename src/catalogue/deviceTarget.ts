// A device of the inventory as (part of) the target of a governed or audited call: its UUID, name and
// kind, read again by UUID right before executing (one GET each).
import { z } from 'zod';
import type { TargetRead } from './operation.js';
import { DEVICE_KIND_NAMES, deviceKind, type ResolvedDevice, type SccReader } from './resolve.js';
import { isNotFound } from './sccErrors.js';

const KINDS = Object.keys(DEVICE_KIND_NAMES) as [
  keyof typeof DEVICE_KIND_NAMES,
  ...(keyof typeof DEVICE_KIND_NAMES)[],
];

export const DeviceFacts = z.object({ uid: z.string(), name: z.string(), kind: z.enum(KINDS) });
export type DeviceFacts = z.infer<typeof DeviceFacts>;

export function deviceFacts(device: Pick<ResolvedDevice, 'uid' | 'name' | 'kind'>): DeviceFacts {
  return { uid: device.uid, name: device.name, kind: device.kind };
}

/** The device read again by its UUID, or why it is gone. */
export async function rereadDevice(scc: SccReader, before: DeviceFacts): Promise<TargetRead<DeviceFacts>> {
  try {
    const { data } = await scc.call('getDevice', { path: { deviceUid: before.uid } });
    return { found: true, facts: { uid: before.uid, name: data.name, kind: deviceKind(data) } };
  } catch (error) {
    if (isNotFound(error))
      return { found: false, reason: `device ${before.name} is no longer in the inventory` };
    throw error;
  }
}

/** What changed about a device since it was read, one sentence each. */
export function compareDevices(before: DeviceFacts, after: DeviceFacts): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`device ${before.name} is now named ${after.name}`);
  if (before.kind !== after.kind)
    changes.push(
      `${after.name} is now ${DEVICE_KIND_NAMES[after.kind]}, not ${DEVICE_KIND_NAMES[before.kind]}`,
    );
  return changes;
}
