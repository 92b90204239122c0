// The firewall software SCC can upgrade devices to, as the simulator's world knows it: ASA releases (with
// their ASDM and image files) and FTD upgrade packages, each for the hardware models that run it. What a
// device can move to depends on its model and its current version: a newer release its model runs. UIDs
// of FTD packages are name-based (stableUid), so they are the same in every world and draw nothing from
// the world's PRNG.
import { stableUid } from '../random.js';
import type { DeviceRecord } from './model.js';

export interface AsaRelease {
  softwareVersion: string;
  asdmVersion: string;
  /** Hardware models (`hardwareModel` of the device) that run it. */
  models: readonly string[];
}

export interface FtdRelease {
  softwareVersion: string;
  build: string;
  upgradeType: 'UPGRADE' | 'PATCH' | 'HOTFIX';
  releaseDate: string;
  suggested: boolean;
  models: readonly string[];
}

const ASA_5516 = 'Cisco ASA5516-X';
const ASAV = 'Cisco ASAv';
const FP_2110 = 'Cisco Firepower 2110 Threat Defense';
const FP_1120 = 'Cisco Firepower 1120 Threat Defense';
const FTDV = 'Cisco Secure Firewall Threat Defense Virtual';

/** Newest last. The ASA 5516-X stops at the 9.20 train; ASAv goes on to 9.22. */
export const ASA_RELEASES: readonly AsaRelease[] = [
  { softwareVersion: '9.16.4', asdmVersion: '7.16(1)', models: [ASA_5516, ASAV] },
  { softwareVersion: '9.18.4', asdmVersion: '7.18(2)', models: [ASA_5516, ASAV] },
  { softwareVersion: '9.19.1', asdmVersion: '7.19(1)', models: [ASA_5516, ASAV] },
  { softwareVersion: '9.20.2', asdmVersion: '7.20(2)', models: [ASA_5516, ASAV] },
  { softwareVersion: '9.20.3', asdmVersion: '7.20(4)', models: [ASA_5516, ASAV] },
  { softwareVersion: '9.22.1', asdmVersion: '7.22(1)', models: [ASAV] },
];

/** Newest last. The Firepower 1120 stops at 7.4; the 2110 and the virtual FTD take 7.6. */
export const FTD_RELEASES: readonly FtdRelease[] = [
  {
    softwareVersion: '7.2.8',
    build: '25',
    upgradeType: 'UPGRADE',
    releaseDate: '2024-06-20T00:00:00Z',
    suggested: false,
    models: [FP_2110, FP_1120, FTDV],
  },
  {
    softwareVersion: '7.4.1',
    build: '172',
    upgradeType: 'UPGRADE',
    releaseDate: '2024-02-12T00:00:00Z',
    suggested: false,
    models: [FP_2110, FP_1120, FTDV],
  },
  {
    softwareVersion: '7.4.2',
    build: '172',
    upgradeType: 'UPGRADE',
    releaseDate: '2024-09-05T00:00:00Z',
    suggested: true,
    models: [FP_2110, FP_1120, FTDV],
  },
  {
    softwareVersion: '7.4.2.1',
    build: '30',
    upgradeType: 'PATCH',
    releaseDate: '2024-12-10T00:00:00Z',
    suggested: false,
    models: [FP_2110, FP_1120, FTDV],
  },
  {
    softwareVersion: '7.6.0',
    build: '113',
    upgradeType: 'UPGRADE',
    releaseDate: '2024-10-01T00:00:00Z',
    suggested: false,
    models: [FP_2110, FTDV],
  },
];

/** Dotted versions compared number by number (9.20.3 > 9.20.2 > 9.18.4). */
export function compareSoftware(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * An ASA version as a caller may write it: `9.20.3` or the ASA's own `9.20(3)`; the simulator's devices
 * report the dotted form, so that is what it is compared in. Undefined when it is neither.
 */
export function dottedAsaVersion(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^\d+\.\d+(\.\d+){0,2}$/.test(trimmed)) return trimmed;
  const asa = /^(\d+)\.(\d+)\((\d+(?:\.\d+)?)\)$/.exec(trimmed);
  return asa === null ? undefined : `${asa[1]}.${asa[2]}.${asa[3]}`;
}

const modelOf = (device: DeviceRecord): string => device.device.hardwareModel ?? '';

/** The ASA releases newer than the device's version that its model runs, oldest first. */
export function asaReleasesFor(device: DeviceRecord): AsaRelease[] {
  const current = device.device.softwareVersion ?? '0';
  return ASA_RELEASES.filter(
    (r) => r.models.includes(modelOf(device)) && compareSoftware(r.softwareVersion, current) > 0,
  );
}

/** The FTD packages newer than the device's version that its model runs, oldest first. */
export function ftdReleasesFor(device: DeviceRecord): FtdRelease[] {
  const current = device.device.softwareVersion ?? '0';
  return FTD_RELEASES.filter(
    (r) => r.models.includes(modelOf(device)) && compareSoftware(r.softwareVersion, current) > 0,
  );
}

/** The model family in a package's file name, as Cisco names them (FP1K, FP2K, the virtual FTD). */
function packageFamily(model: string): string {
  if (model.includes('1120')) return 'FTD_SSP_FP1K';
  if (model.includes('2110')) return 'FTD_SSP_FP2K';
  return 'FTD';
}

/** One package per release and model family: its UID and file name. */
export function ftdPackage(release: FtdRelease, model: string): { uid: string; filename: string } {
  const family = packageFamily(model);
  return {
    uid: stableUid('ftd-upgrade-package', family, release.softwareVersion),
    filename: `Cisco_${family}_${release.upgradeType === 'PATCH' ? 'Patch' : 'Upgrade'}-${release.softwareVersion}-${release.build}.sh.REL.tar`,
  };
}

/** The release and model family a package UID names, if any. */
export function findFtdPackage(uid: string): { release: FtdRelease; model: string } | undefined {
  for (const release of FTD_RELEASES)
    for (const model of release.models) if (ftdPackage(release, model).uid === uid) return { release, model };
  return undefined;
}

/** The software image file names an ASA upgrade uploads (what the run's messages name). */
export function asaImageFiles(release: AsaRelease): { software: string; asdm: string } {
  const compact = release.softwareVersion.split('.').join('-');
  const asdm = release.asdmVersion.replace(/[().]/g, '');
  return { software: `asa${compact}-lfbff-k8.SPA`, asdm: `asdm-${asdm}.bin` };
}
