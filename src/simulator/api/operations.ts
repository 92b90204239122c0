// One handler per SCC operation, keyed by the reference's operationId; the server mounts each at the
// method and path the generated operation table gives, so routes cannot drift from the reference.
import type { OperationHandlers } from '../http/context.js';
import { changeHandlers } from './changes.js';
import { cliHandlers } from './cli.js';
import { deploymentHandlers } from './deployments.js';
import { getDevice, getDevices } from './devices.js';
import { eventHandlers } from './events.js';
import { executeDeviceCommand, getDeviceCommandResponse, getDeviceCommands } from './gateway.js';
import { governanceHandlers } from './governance.js';
import { interfaceHandlers } from './interfaces.js';
import { mspHandlers } from './mspHandlers.js';
import {
  addUsersToTenantInMspPortal,
  deleteUsersFromTenantInMspPortal,
  generateApiTokenForUserInTenant,
  getHumanUsersInMspManagedTenant,
} from './mspUsers.js';
import { getObject, getObjects, getObjectUsages } from './objects.js';
import { fetchAccessGroup, fetchAccessRule, listAccessGroups, listAccessRules } from './policies.js';
import { getSearchReports } from './reports.js';
import { search } from './search.js';
import { secureClientHandlers } from './secureClient.js';
import {
  addMspTenant,
  addTenantToMspPortal,
  createTenant,
  enableMulticloudDefenseForTenantInMspPortal,
  getMspManagedTenant,
  getMspManagedTenants,
  provisionCdFmcForTenantInMspPortal,
  removeTenantFromMspPortal,
} from './tenants.js';
import { getTransaction } from './transactions.js';
import {
  getSecureClientUpgradeRun,
  getSecureClientUpgradeRuns,
  getSecureClientUpgradeRunsAttributeValues,
  triggerFtdSecureClientUpgrade,
  triggerSecureClientUpgrade,
} from './upgradeRuns.js';

export const operationHandlers: OperationHandlers = {
  executeDeviceCommand,
  getDeviceCommandResponse,
  getDeviceCommands,
  getSearchReports,
  addMspTenant,
  getMspManagedTenants,
  addTenantToMspPortal,
  removeTenantFromMspPortal,
  addUsersToTenantInMspPortal,
  getHumanUsersInMspManagedTenant,
  createTenant,
  deleteUsersFromTenantInMspPortal,
  enableMulticloudDefenseForTenantInMspPortal,
  generateApiTokenForUserInTenant,
  getMspManagedTenant,
  provisionCdFmcForTenantInMspPortal,
  ...mspHandlers,
  ...interfaceHandlers,
  ...changeHandlers,
  ...cliHandlers,
  ...deploymentHandlers,
  ...secureClientHandlers,
  ...eventHandlers,
  ...governanceHandlers,
  getSecureClientUpgradeRun,
  getSecureClientUpgradeRuns,
  getSecureClientUpgradeRunsAttributeValues,
  triggerFtdSecureClientUpgrade,
  triggerSecureClientUpgrade,
  getTransaction,
  getDevices,
  getDevice,
  search,
  listAccessRules,
  fetchAccessRule,
  listAccessGroups,
  fetchAccessGroup,
  getObjects,
  getObject,
  getObjectUsages,
};
