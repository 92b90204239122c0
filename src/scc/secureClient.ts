// VPN client (Cisco Secure Client) management: packages on appliances (ASA) and threat-defense devices (FTD),
// the versions compatible with a set of devices, upgrades and their runs.
import type { CallOptions, PageQuery, SccCaller, SearchQuery } from './call.js';
import type * as Input from './generated/inputs.js';
import type * as Model from './generated/models.js';

export interface SecureClientArea {
  asaPackages(
    deviceUid: string,
    query?: PageQuery,
    options?: CallOptions,
  ): Promise<Model.SecureClientPackagesPage>;
  asaPackage(
    deviceUid: string,
    packageUid: string,
    options?: CallOptions,
  ): Promise<Model.SecureClientPackageDto>;
  ftdPackages(
    deviceUid: string,
    query?: PageQuery,
    options?: CallOptions,
  ): Promise<Model.FtdSecureClientPackagesPage>;
  ftdPackage(
    deviceUid: string,
    packageUid: string,
    options?: CallOptions,
  ): Promise<Model.SecureClientPackageDto>;
  /**
   * Versions compatible with every one of 1–50 appliances. The vendor's Python SDK calls the argument
   * `device_uids`; on the wire it is the repeated `deviceUids` parameter.
   */
  asaCompatibleVersions(
    deviceUids: readonly string[],
    query?: PageQuery,
    options?: CallOptions,
  ): Promise<Model.SecureClientUpgradeVersionsPage>;
  /** As asaCompatibleVersions, for threat-defense devices. */
  ftdCompatibleVersions(
    deviceUids: readonly string[],
    query?: PageQuery,
    options?: CallOptions,
  ): Promise<Model.SecureClientUpgradeVersionsPage>;
  triggerAsaUpgrade(
    input: Input.TriggerSecureClientUpgradeInput,
    options?: CallOptions,
  ): Promise<Model.CdoTransaction>;
  triggerFtdUpgrade(
    input: Input.TriggerSecureClientUpgradeInput,
    options?: CallOptions,
  ): Promise<Model.CdoTransaction>;
  run(upgradeRunUid: string, options?: CallOptions): Promise<Model.SecureClientUpgradeRunDto>;
  runs(query?: SearchQuery, options?: CallOptions): Promise<Model.SecureClientUpgradeRunPage>;
  /** The distinct statuses, types and users of upgrade runs, for filters. */
  runAttributeValues(options?: CallOptions): Promise<Model.SecureClientUpgradeRunAttributeValues>;
}

export function createSecureClientArea({ call }: SccCaller): SecureClientArea {
  return {
    asaPackages: async (deviceUid, query = {}, options = {}) =>
      (await call('getAsaSecureClientPackages', { path: { deviceUid }, query, ...options })).data,
    asaPackage: async (deviceUid, packageUid, options = {}) =>
      (await call('getAsaSecureClientPackageByUid', { path: { deviceUid, packageUid }, ...options })).data,
    ftdPackages: async (deviceUid, query = {}, options = {}) =>
      (await call('getFtdSecureClientPackages', { path: { deviceUid }, query, ...options })).data,
    ftdPackage: async (deviceUid, packageUid, options = {}) =>
      (await call('getFtdSecureClientPackageByUid', { path: { deviceUid, packageUid }, ...options })).data,
    asaCompatibleVersions: async (deviceUids, query = {}, options = {}) =>
      (await call('getAsaCompatibleSecureClientVersions', { query: { ...query, deviceUids }, ...options }))
        .data,
    ftdCompatibleVersions: async (deviceUids, query = {}, options = {}) =>
      (await call('getFtdCompatibleSecureClientVersions', { query: { ...query, deviceUids }, ...options }))
        .data,
    triggerAsaUpgrade: async (input, options = {}) =>
      (await call('triggerSecureClientUpgrade', { body: input, ...options })).data,
    triggerFtdUpgrade: async (input, options = {}) =>
      (await call('triggerFtdSecureClientUpgrade', { body: input, ...options })).data,
    run: async (upgradeRunUid, options = {}) =>
      (await call('getSecureClientUpgradeRun', { path: { upgradeRunUid }, ...options })).data,
    runs: async (query = {}, options = {}) =>
      (await call('getSecureClientUpgradeRuns', { query, ...options })).data,
    runAttributeValues: async (options = {}) =>
      (await call('getSecureClientUpgradeRunsAttributeValues', { ...options })).data,
  };
}
