// Which devices of the MSP portal's managed tenants a cross-tenant command means: each word typed is a
// device's name or UUID or a Lucene query selecting ASAs, read across every tenant of the portal; the
// selection is checked against SCC's limits (each device once, at most 50, ASAs with remote-access VPN,
// online and synced, with a known version) before any call that changes or calculates anything, so a person
// reads why at once instead of after SCC's asynchronous validation. Also the facts of a selected device that
// an approval holds, and re-reading them before the approved run. Shared by the MSP reads (msp.ts) and
// the upgrade across tenants (mspUpgrade.ts).
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import type { MspDeviceFacts } from '../render/msp.js';
import type { MspManagedDevice } from '../scc/generated/models.js';
import { allOf, toLucene, typedLucene } from '../scc/lucene.js';
import { isUuid, list } from './args.js';
import type { TargetRead } from './operation.js';
import { boundedPaginate, type SccReader } from './resolve.js';
import { isNotFound } from './sccErrors.js';

/** SCC takes at most 50 devices per managed tenant; fwbot asks for at most 50 per request. */
export const MAX_MSP_DEVICES = 50;

/** The devices argument of the cross-tenant Secure Client commands. */
export const DEVICES = {
  name: 'device',
  kind: 'word' as const,
  variadic: true,
  description:
    'device names or UUIDs of managed tenants, or a Lucene query with field:value that selects ASAs ' +
    '(quote it when it has spaces); at most 50 devices',
};
/** Parses the devices argument: at least one, at most MAX_MSP_DEVICES words. */
export const devices = () => list({ min: 1, max: MAX_MSP_DEVICES, what: 'devices' });

/** What an approval holds of each selected device. */
export const MspDeviceFactsSchema = z.object({
  uid: z.string(),
  name: z.string(),
  tenantUid: z.string(),
  tenantName: z.string(),
});

export function factsOf(device: MspManagedDevice): MspDeviceFacts {
  return {
    uid: device.uid ?? '',
    name: device.name,
    tenantUid: device.managedTenantUid ?? '',
    tenantName: device.managedTenantName ?? device.managedTenantDisplayName ?? '?',
  };
}

/** `nw-asa-hq (northwind-us)`: a device as a refusal names it. */
const where = (device: MspManagedDevice) => `${device.name} (${device.managedTenantName ?? '?'})`;

/** Candidates whose name equals the typed text (ignoring case), else those whose name contains it. */
function byName(typed: string, items: readonly MspManagedDevice[]): MspManagedDevice[] {
  const wanted = typed.toLowerCase();
  const exact = items.filter((d) => d.name.toLowerCase() === wanted);
  return exact.length > 0 ? exact : items.filter((d) => d.name.toLowerCase().includes(wanted));
}

/** What one word of the selection picks: one device (a name or UUID) or every ASA a query matches. */
async function select(scc: SccReader, typed: string): Promise<{ typed: string; found: MspManagedDevice[] }> {
  const word = typed.trim();
  if (isUuid(word)) {
    try {
      const { data } = await scc.call('getMspManagedDevice', { path: { deviceUid: word } });
      return { typed: word, found: [data] };
    } catch (error) {
      if (isNotFound(error))
        throw new UserError(`No device of a tenant in the MSP portal has the UUID ${word}.`);
      throw error;
    }
  }
  if (word.includes(':')) {
    // A query selects the ASAs it matches: the cross-tenant Secure Client operations take ASAs only.
    const q = allOf(typedLucene(word).q, 'deviceType:ASA') ?? 'deviceType:ASA';
    const found = await boundedPaginate(
      scc,
      'getMspManagedDevices',
      { query: { q } },
      `ASAs matching “${word}”`,
    );
    if (found.length === 0)
      throw new UserError(`No ASA of a tenant in the MSP portal matches \`${word}\` (searched \`${q}\`).`);
    return { typed: word, found };
  }
  const listed = await boundedPaginate(
    scc,
    'getMspManagedDevices',
    { query: { q: toLucene(word) } },
    `devices matching “${word}”`,
  );
  const candidates = byName(word, listed);
  const [only] = candidates;
  if (candidates.length === 1 && only) return { typed: word, found: [only] };
  if (candidates.length > 1) {
    const shown = candidates.slice(0, 10).map(where);
    const more = candidates.length > shown.length ? ` and ${candidates.length - shown.length} more` : '';
    throw new UserError(
      `“${word}” matches ${candidates.length} devices of managed tenants: ${shown.join(', ')}${more}. Which one?`,
      candidates.slice(0, 10).map((d) => d.name),
    );
  }
  throw new UserError(
    `No device named “${word}” in the tenants of the MSP portal (searched device names containing it).`,
  );
}

/**
 * One device of a managed tenant, by name or UUID, as `select` finds it (a query selects many, so it is
 * refused here). Only ASAs and FTDs have Secure Client packages; SCC answers 405 for the others.
 */
export async function selectPackageHolder(scc: SccReader, typed: string): Promise<MspManagedDevice> {
  if (typed.includes(':'))
    throw new UserError(
      `\`msp vpn packages\` takes one device, by name or UUID, not a query (\`${typed}\`).`,
    );
  const { found } = await select(scc, typed);
  const [device] = found;
  if (!device) throw new Error(`no device was selected by “${typed}”`); // select() found one or threw
  const type = device.deviceType ?? '';
  if (type !== 'ASA' && !type.endsWith('FTD'))
    throw new UserError(
      `${where(device)} is ${type || 'of an unknown type'}: only ASAs and FTDs have Secure Client packages.`,
    );
  return device;
}

/** Why SCC would refuse a device in a cross-tenant Secure Client request (the reference's list). */
function ineligibility(device: MspManagedDevice): string | undefined {
  if (device.deviceType !== 'ASA') return `is ${device.deviceType ?? 'of an unknown type'}, not an ASA`;
  if (!(device.deviceRoles ?? []).includes('ASA_RA_VPN_HEADEND'))
    return 'lacks the ASA_RA_VPN_HEADEND role (no remote-access VPN)';
  if (device.connectivityState !== 'ONLINE') return `is ${device.connectivityState ?? 'UNKNOWN'}, not ONLINE`;
  if (device.configState !== 'SYNCED')
    return `is ${device.configState ?? 'UNKNOWN'}, not SYNCED (deploy or discard its staged changes first)`;
  if (!device.softwareVersion) return 'has no known software version';
  return undefined;
}

/**
 * The devices a selection picks across the portal's tenants, checked against SCC's limits before any
 * call that changes or calculates anything: each device once, at most 50, every one an eligible ASA.
 */
export async function selectMspDevices(
  scc: SccReader,
  typed: readonly string[],
): Promise<MspManagedDevice[]> {
  const picks = await Promise.all(typed.map((word) => select(scc, word)));
  const seen = new Map<string, string>();
  const chosen: MspManagedDevice[] = [];
  for (const { typed: word, found } of picks) {
    for (const device of found) {
      const uid = (device.uid ?? '').toLowerCase();
      const before = seen.get(uid);
      if (before !== undefined) {
        const how = before === word ? `by “${word}” twice` : `by “${before}” and by “${word}”`;
        throw new UserError(`${where(device)} is selected ${how}: SCC takes each device once.`);
      }
      seen.set(uid, word);
      chosen.push(device);
    }
  }
  if (chosen.length > MAX_MSP_DEVICES) {
    throw new UserError(
      `That selects ${chosen.length} devices; SCC takes at most ${MAX_MSP_DEVICES} devices per request (and per ` +
        'managed tenant). Narrow the selection, or split it into several requests.',
    );
  }
  const refused = chosen.flatMap((device) => {
    const why = ineligibility(device);
    return why ? [`${where(device)} ${why}`] : [];
  });
  if (refused.length > 0) {
    throw new UserError(
      `SCC would refuse ${refused.length === 1 ? 'this device' : 'these devices'}: ${refused.join('; ')}. ` +
        'Leave them out, or fix them first.',
    );
  }
  return chosen;
}

/** A device of the request as SCC has it now, or why it is gone (re-read before an approved run). */
export async function rereadMspDevice(
  scc: SccReader,
  before: MspDeviceFacts,
): Promise<TargetRead<MspDeviceFacts>> {
  try {
    const { data } = await scc.call('getMspManagedDevice', { path: { deviceUid: before.uid } });
    return { found: true, facts: factsOf(data) };
  } catch (error) {
    if (isNotFound(error))
      return {
        found: false,
        reason: `device ${before.name} (${before.tenantName}) is no longer in a tenant of the MSP portal`,
      };
    throw error;
  }
}
