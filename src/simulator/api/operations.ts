// One handler per SCC operation, keyed by the reference's operationId; the server mounts each at the
// method and path the generated operation table gives, so routes cannot drift from the reference. Each
// area's file exports its handlers as one group, and the table is the groups: a handler added to its
// area's group is served without a line here, and the type still asks for every operation of the client.
import type { OperationHandlers } from '../http/context.js';
import { accessRuleHandlers } from './accessRules.js';
import { changeHandlers } from './changes.js';
import { cliHandlers } from './cli.js';
import { deploymentHandlers } from './deployments.js';
import { deviceHandlers } from './devices.js';
import { deviceUpgradeHandlers } from './deviceUpgrades.js';
import { eventHandlers } from './events.js';
import { gatewayHandlers } from './gateway.js';
import { governanceHandlers } from './governance.js';
import { interfaceHandlers } from './interfaces.js';
import { mspDeviceUpgradeHandlers } from './mspDeviceUpgrades.js';
import { mspHandlers } from './mspHandlers.js';
import { tenantUserHandlers } from './mspUsers.js';
import { objectChangeHandlers } from './objectChanges.js';
import { objectHandlers } from './objects.js';
import { policyHandlers } from './policies.js';
import { reportHandlers } from './reports.js';
import { responseHandlers } from './response.js';
import { searchHandlers } from './search.js';
import { secureClientHandlers } from './secureClient.js';
import { tenantHandlers } from './tenants.js';
import { transactionHandlers } from './transactions.js';
import { upgradeRunHandlers } from './upgradeRuns.js';

export const operationHandlers: OperationHandlers = {
  ...gatewayHandlers,
  ...reportHandlers,
  ...tenantHandlers,
  ...tenantUserHandlers,
  ...mspHandlers,
  ...interfaceHandlers,
  ...changeHandlers,
  ...cliHandlers,
  ...deploymentHandlers,
  ...secureClientHandlers,
  ...upgradeRunHandlers,
  ...deviceUpgradeHandlers,
  ...mspDeviceUpgradeHandlers,
  ...eventHandlers,
  ...governanceHandlers,
  ...transactionHandlers,
  ...deviceHandlers,
  ...searchHandlers,
  ...policyHandlers,
  ...objectHandlers,
  ...responseHandlers,
  ...accessRuleHandlers,
  ...objectChangeHandlers,
};
