// The MSP portal's reach (../shared/reference/scc-openapi-msp.yaml): devices and Secure Client across
// managed tenants, revoking a tenant, and the API-only users of a tenant.
import { getMspDeviceSecureClientPackages, getMspManagedDevice, getMspManagedDevices } from './mspDevices.js';
import {
  calculateMspCompatibleSecureClientVersions,
  getMspCompatibleSecureClientVersions,
} from './mspSecureClient.js';
import { revokeTenantFromMspPortal } from './mspTenants.js';
import {
  getMspSecureClientUpgradeRun,
  getMspSecureClientUpgradeRuns,
  getMspSecureClientUpgradeRunsAttributeValues,
  upgradeMspManagedAsaSecureClientPackages,
} from './mspUpgradeRuns.js';
import { getApiOnlyUsersInMspManagedTenant } from './mspUsers.js';

export const mspHandlers = {
  getMspManagedDevices,
  getMspManagedDevice,
  getMspDeviceSecureClientPackages,
  upgradeMspManagedAsaSecureClientPackages,
  calculateMspCompatibleSecureClientVersions,
  getMspSecureClientUpgradeRuns,
  getMspSecureClientUpgradeRun,
  getMspSecureClientUpgradeRunsAttributeValues,
  getMspCompatibleSecureClientVersions,
  revokeTenantFromMspPortal,
  getApiOnlyUsersInMspManagedTenant,
};
