// Secure Client packages and versions: packages installed on ASAs and configured on FTDs' RA VPN
// policies (version, OS and architecture parsed from the filename, omitted when it does not follow the
// naming pattern), and the catalogue versions compatible with every device of a set.

import type * as Model from '../../scc/generated/models.js';
import { type ErrorDetails, invalidInput, notFound } from '../errors.js';
import type { Handler, RequestContext } from '../http/context.js';
import { isUuid, uuidParam } from '../http/input.js';
import { listPage } from '../lists/listEngine.js';
import type {
  CatalogueVersion,
  ClientArch,
  ClientOs,
  DeviceKind,
  DeviceRecord,
  PackageRecord,
  SimState,
} from '../state/model.js';
import { deviceOfKind } from './devices.js';

const FILE_PATTERN =
  /^(?:cisco-secure-client|anyconnect)-(win-arm64|win|macos|linux64|linux-arm64)-(\d+\.\d+(?:\.\d+){1,2})-webdeploy-k9\.pkg$/;

const OS_TOKENS: Record<string, { os: ClientOs; cpuArchitecture: ClientArch }> = {
  win: { os: 'WINDOWS', cpuArchitecture: 'X86_64' },
  'win-arm64': { os: 'WINDOWS', cpuArchitecture: 'ARM64' },
  macos: { os: 'MACOS', cpuArchitecture: 'UNIVERSAL' },
  linux64: { os: 'LINUX', cpuArchitecture: 'X86_64' },
  'linux-arm64': { os: 'LINUX', cpuArchitecture: 'ARM64' },
};

export function parsePackageFileName(
  fileName: string,
): { version: string; os: ClientOs; cpuArchitecture: ClientArch } | undefined {
  const match = FILE_PATTERN.exec(fileName);
  const platform = OS_TOKENS[match?.[1] ?? ''];
  const version = match?.[2];
  return platform === undefined || version === undefined ? undefined : { version, ...platform };
}

export function packageDto(record: PackageRecord): Model.SecureClientPackageDto {
  // Unparseable filenames omit version/os/cpuArchitecture: the schema does not allow null there.
  return {
    uid: record.uid,
    deviceUid: record.deviceUid,
    fileName: record.fileName,
    ...(parsePackageFileName(record.fileName) ?? {}),
  };
}

/** Packages of a device; an FTD without an RA VPN policy has none. */
export function packagesOf(state: SimState, device: DeviceRecord): PackageRecord[] {
  if (device.kind === 'FTD' && device.raVpnPolicyUid === undefined) return [];
  return [...state.packages.values()].filter((p) => p.deviceUid === device.device.uid);
}

export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Why a device cannot take a Secure Client version (undefined: it can). */
export function incompatibility(device: DeviceRecord, version: CatalogueVersion): string | undefined {
  const software = device.device.softwareVersion ?? '0';
  if (device.kind === 'FTD' && device.raVpnPolicyUid === undefined) return 'has no remote-access VPN policy';
  const min = device.kind === 'ASA' ? version.minAsa : version.minFtd;
  if (compareVersions(software, min) < 0) {
    return `runs ${device.kind} software ${software}; Secure Client ${version.version} needs ${min} or later`;
  }
  return undefined;
}

/** Parses repeated (or comma-separated) `deviceUids`: 1–50 unique UUIDs. */
export function deviceUidsParam(query: URLSearchParams): string[] {
  const uids = query
    .getAll('deviceUids')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const fail = (message: string, extra: Record<string, unknown> = {}) =>
    invalidInput(`deviceUids ${message}`, { deviceUids: { message, ...extra } });
  if (uids.length === 0) throw fail('is required (1 to 50 device UUIDs)');
  if (uids.length > 50) throw fail('must have at most 50 items', { count: uids.length });
  const malformed = uids.filter((u) => !isUuid(u));
  if (malformed.length > 0) throw fail('must be UUIDs', { invalid: malformed });
  const lower = uids.map((u) => u.toLowerCase());
  if (new Set(lower).size !== lower.length) throw fail('must be unique');
  return lower;
}

/** The devices of a set, all of `kind` and in the caller's tenant; 400 names the ones that are not. */
export function devicesForSet(
  ctx: RequestContext,
  uids: readonly string[],
  kind: DeviceKind,
): DeviceRecord[] {
  const details: ErrorDetails = {};
  const found: DeviceRecord[] = [];
  for (const uid of uids) {
    const record = ctx.state.devices.get(uid);
    if (record === undefined || record.tenantUid !== ctx.principal.tenant.uid)
      details[uid] = { reason: 'device not found' };
    else if (record.kind !== kind)
      details[uid] = {
        name: record.device.name,
        reason: `not ${kind === 'ASA' ? 'an ASA' : 'a cdFMC-managed FTD'}`,
      };
    else found.push(record);
  }
  if (Object.keys(details).length > 0) {
    throw invalidInput(
      `${Object.keys(details).length === 1 ? '1 device' : `${Object.keys(details).length} devices`} cannot be used here: ${Object.keys(details).join(', ')}`,
      details,
    );
  }
  return found;
}

function compatibleVersions(kind: DeviceKind): Handler {
  return (ctx) => {
    const devices = devicesForSet(ctx, deviceUidsParam(ctx.query), kind);
    const versions = ctx.state.catalogue
      .filter((v) => devices.every((d) => incompatibility(d, v) === undefined))
      .sort((a, b) => compareVersions(b.version, a.version))
      .map(
        (v): Model.CompatibleSecureClientVersionDto => ({
          version: v.version,
          platforms: v.platforms.map((p) => ({ ...p })),
        }),
      );
    return { status: 200, body: listPage(ctx.query, versions) };
  };
}

function packageList(kind: 'ASA' | 'FTD'): Handler {
  return (ctx) => {
    const device = deviceOfKind(ctx, kind);
    return { status: 200, body: listPage(ctx.query, packagesOf(ctx.state, device).map(packageDto)) };
  };
}

function packageByUid(kind: 'ASA' | 'FTD'): Handler {
  return (ctx) => {
    // Both identifiers are checked before anything is looked up: a malformed one is a 400.
    uuidParam(ctx, 'deviceUid');
    const packageUid = uuidParam(ctx, 'packageUid');
    const device = deviceOfKind(ctx, kind);
    const record = packagesOf(ctx.state, device).find((p) => p.uid === packageUid);
    if (record === undefined) {
      const where =
        kind === 'FTD' ? "configured on the device's Remote Access VPN policy" : 'installed on the device';
      throw notFound(`Secure Client package ${packageUid} is not ${where}`, {
        packageUid: { value: packageUid },
      });
    }
    return { status: 200, body: packageDto(record) };
  };
}

export const secureClientHandlers = {
  getAsaSecureClientPackages: packageList('ASA'),
  getAsaSecureClientPackageByUid: packageByUid('ASA'),
  getFtdSecureClientPackages: packageList('FTD'),
  getFtdSecureClientPackageByUid: packageByUid('FTD'),
  getAsaCompatibleSecureClientVersions: compatibleVersions('ASA'),
  getFtdCompatibleSecureClientVersions: compatibleVersions('FTD'),
};
