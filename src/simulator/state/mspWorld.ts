// What the MSP portal keeps beyond the tenants' own worlds: the Secure Client versions each managed
// tenant offers, cross-tenant compatibility calculations, and cross-tenant upgrade runs (each one a set
// of per-tenant runs that live in the tenants' own `upgradeRuns`). Held beside a SimState, not in it, so
// a reset (a new SimState) starts a new MSP world with it.
import type { CatalogueVersion, Platform, SimState, UpgradedDevice } from './model.js';

export type CompatibilityStatus = 'IN_PROGRESS' | 'DONE' | 'ERROR';

export interface CompatibilityRecord {
  uid: string;
  /** The portal that asked; nobody else can read the result. */
  portalUid: string;
  transactionUid: string;
  status: CompatibilityStatus;
  versions?: { version: string; platforms: Platform[] }[];
  errorMessage?: string;
}

export type MspRunStatus =
  | 'VALIDATING_INPUTS'
  | 'UPLOADING_IMAGES'
  | 'PERFORMING_UPGRADE'
  | 'DONE'
  | 'DONE_WITH_DEVICE_WARNINGS'
  | 'DONE_WITH_DEVICE_ERRORS'
  | 'ERROR';

/** One managed tenant's part of a cross-tenant run: its own run and transaction, once triggered. */
export interface MspTenantLeg {
  tenantUid: string;
  displayName: string;
  runUid?: string;
  transactionUid?: string;
  /** Why the leg was not triggered (validation failed). */
  errorMsg?: string;
}

export interface MspUpgradeRunRecord {
  uid: string;
  portalUid: string;
  name: string;
  version: string;
  username: string;
  transactionUid: string;
  submissionTime: number;
  lastUpdatedTime: number;
  /** Settled once every leg has ended (or validation failed); before that it is derived from the legs. */
  status: MspRunStatus;
  errorMsg?: string;
  legs: MspTenantLeg[];
  /** Device results when no leg ran (validation failed); otherwise the legs' runs hold them. */
  devices: UpgradedDevice[];
}

export interface MspWorld {
  /** Versions a managed tenant offers (absent: the whole catalogue). */
  offers: Map<string, CatalogueVersion[]>;
  compatibility: Map<string, CompatibilityRecord>;
  runs: Map<string, MspUpgradeRunRecord>;
}

const worlds = new WeakMap<SimState, MspWorld>();

export function mspWorld(state: SimState): MspWorld {
  let world = worlds.get(state);
  if (world === undefined) {
    world = { offers: new Map(), compatibility: new Map(), runs: new Map() };
    worlds.set(state, world);
  }
  return world;
}

/** The Secure Client versions (and platforms) a managed tenant offers. */
export function tenantOffer(state: SimState, tenantUid: string): CatalogueVersion[] {
  return mspWorld(state).offers.get(tenantUid) ?? state.catalogue;
}
