// The client against the vendor's OpenAPI reference (../shared/reference/, the cuts the client is generated
// from):
// - the client has exactly the operations of the reference, each called here by its area method (or the
//   generic `call`), and the request it sends (captured on a local server) passes the reference's parameter
//   and request-body schemas; a GET reached only through `call` needs no row written here: its row sends
//   the reference's own parameter examples;
// - every response example of the reference parses with the model the client uses for that status, except
//   the examples the reference README documents as contradicting their own schemas, which must fail on
//   exactly those fields.
// Prints `SCC client contract: N/M operations covered` and fails unless every operation of the reference
// is. Skips, saying why, when the reference is absent (a user's clone).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SccClient } from '../../src/scc/client.js';
import { formatPath } from '../../src/scc/errors.js';
import { type SccOperationId, sccOperations } from '../../src/scc/operationTypes.js';
import type { LooseCallParams } from '../../src/scc/request.js';
import { responseSchema } from '../../src/scc/responseSchemas.js';
import { contractSkipReason, loadOpenApiContract, type OpenApiContract } from '../support/openapiContract.js';
import {
  clientOf,
  DEVICE_UID,
  type FakeScc,
  INTERFACE_UID,
  type Reply,
  startFakeScc,
  TENANT_UID,
} from './fakeScc.js';

const PARENT_UID = '8131daad-e813-4b8f-8f42-be1e241e8cdb';
const PACKAGE_UID = '9131daad-e813-4b8f-8f42-be1e241e8cdb';
const OTHER_DEVICE_UID = '0b6a3c1e-9f3c-4d65-a0a4-0c2c8e6a1f00';
const RUN_UID = 'c4d1f2a0-5b6e-4f70-8a91-2b3c4d5e6f70';
const TRANSACTION_UID = 'aaaaaaaa-0000-4000-8000-000000000001';
const API_USER_UID = 'dddddddd-0000-4000-8000-000000000004';
const CHANGELOG_UID = 'eeeeeeee-0000-4000-8000-000000000005';
const RULE_UID = 'ffffffff-0000-4000-8000-000000000006';
const GROUP_UID = 'ffffffff-0000-4000-8000-000000000007';
const OBJECT_UID = '7131daad-e813-4b8f-8f42-be1e241e8cdb';
const EXECUTION_UID = 'ffffffff-0000-4000-8000-000000000008';
const CLI_RESULT_UID = 'ffffffff-0000-4000-8000-000000000009';
const CHANGE_REQUEST_UID = 'ffffffff-0000-4000-8000-00000000000a';
const ipv4 = { ipType: 'STATIC', ipAddress: { ipAddress: '10.0.0.1', netmask: '255.255.255.0' } } as const;

/** Rows of operations without an area method name the client's generic `call` instead. */
const GENERIC_CALL = 'call';

interface ContractRow {
  /** The area method, as a path on the client. */
  area: string;
  invoke(client: SccClient): Promise<unknown>;
}

/**
 * Rows written by hand: one per area method, and one per operation other than a GET (its body is a choice
 * the row makes). A GET the client reaches only through the generic `call` may have one (to send a query
 * the examples do not show); without it, its row is derived (derivedRow). The first test names any
 * operation left without a row.
 */
const HAND_ROWS: Partial<Record<SccOperationId, ContractRow>> = {
  // Command gateway
  executeDeviceCommand: {
    area: 'gateway.execute',
    invoke: (c) =>
      c.gateway.execute(DEVICE_UID, [{ method: 'GET', link: '/api/fmc_config/v1/domain', body: null }], {
        async: true,
      }),
  },
  getDeviceCommandResponse: {
    area: 'gateway.result',
    invoke: (c) => c.gateway.result('11111111-1111-1111-1111-111111111111'),
  },
  getDeviceCommands: { area: 'gateway.listCommands', invoke: (c) => c.gateway.listCommands() },
  // Event reports
  getSearchReports: {
    area: 'reports.list',
    invoke: (c) => c.reports.list({ q: 'name:weekly*', sort: ['name:DESC'], limit: 20, offset: 40 }),
  },
  // MSP portal
  getMspManagedTenants: {
    area: 'tenants.list',
    invoke: (c) => c.tenants.list({ q: 'displayName:*acme*', sort: ['name:ASC', 'region:DESC'], limit: 200 }),
  },
  getMspManagedTenant: { area: 'tenants.get', invoke: (c) => c.tenants.get(TENANT_UID) },
  createTenant: {
    area: 'tenants.create',
    invoke: (c) =>
      c.tenants.create({
        tenantName: 'acme-prod_1',
        displayName: 'Acme production',
        salesOrderNumber: 'SO-1',
      }),
  },
  addMspTenant: {
    area: 'tenants.addByToken',
    invoke: (c) => c.tenants.addByToken('api-token-of-the-tenant-to-add'),
  },
  addTenantToMspPortal: { area: 'tenants.addExisting', invoke: (c) => c.tenants.addExisting(TENANT_UID) },
  removeTenantFromMspPortal: { area: 'tenants.remove', invoke: (c) => c.tenants.remove(TENANT_UID) },
  getHumanUsersInMspManagedTenant: {
    area: 'tenants.users.list',
    invoke: (c) => c.tenants.users.list(TENANT_UID, { q: 'name:ann*', limit: 50, offset: 0 }),
  },
  addUsersToTenantInMspPortal: {
    area: 'tenants.users.add',
    invoke: (c) =>
      c.tenants.users.add(TENANT_UID, [
        {
          username: 'ann@example.com',
          role: 'ROLE_READ_ONLY',
          apiOnlyUser: false,
          firstName: 'Ann',
          lastName: 'Lee',
        },
        { username: 'ci-bot', role: 'ROLE_DEPLOY_ONLY', apiOnlyUser: true },
      ]),
  },
  deleteUsersFromTenantInMspPortal: {
    area: 'tenants.users.remove',
    invoke: (c) => c.tenants.users.remove(TENANT_UID, ['ann@example.com', 'ci-bot']),
  },
  generateApiTokenForUserInTenant: {
    area: 'tenants.generateApiToken',
    invoke: (c) => c.tenants.generateApiToken(TENANT_UID, API_USER_UID),
  },
  enableMulticloudDefenseForTenantInMspPortal: {
    area: 'tenants.enableMulticloudDefense',
    invoke: (c) => c.tenants.enableMulticloudDefense(TENANT_UID),
  },
  provisionCdFmcForTenantInMspPortal: {
    area: 'tenants.provisionCdFmc',
    invoke: (c) => c.tenants.provisionCdFmc(TENANT_UID, { dedicatedCdFmcInstance: true }),
  },
  // Appliance interfaces
  getAsaPhysicalInterfaces: {
    area: 'interfaces.physical.list',
    invoke: (c) =>
      c.interfaces.physical.list(DEVICE_UID, { q: 'name:GigabitEthernet0/*', sort: ['name:ASC'] }),
  },
  getAsaPhysicalInterface: {
    area: 'interfaces.physical.get',
    invoke: (c) => c.interfaces.physical.get(DEVICE_UID, INTERFACE_UID),
  },
  modifyAsaPhysicalInterface: {
    area: 'interfaces.physical.modify',
    invoke: (c) =>
      c.interfaces.physical.modify(DEVICE_UID, INTERFACE_UID, {
        name: 'outside',
        enabled: true,
        mode: 'ROUTED',
        speedType: 'AUTO',
        duplexType: 'FULL',
        securityLevel: 0,
        ipv4,
      }),
  },
  getAsaEtherChannelInterfaces: {
    area: 'interfaces.etherChannel.list',
    invoke: (c) => c.interfaces.etherChannel.list(DEVICE_UID, { limit: 10 }),
  },
  getAsaEtherChannelInterface: {
    area: 'interfaces.etherChannel.get',
    invoke: (c) => c.interfaces.etherChannel.get(DEVICE_UID, INTERFACE_UID),
  },
  createAsaEtherChannelInterface: {
    area: 'interfaces.etherChannel.create',
    invoke: (c) =>
      c.interfaces.etherChannel.create(DEVICE_UID, {
        name: 'inside-lag',
        etherChannelId: 1,
        lacpMode: 'ACTIVE',
        memberInterfaces: [INTERFACE_UID, PARENT_UID],
        ipv4,
      }),
  },
  modifyAsaEtherChannelInterface: {
    area: 'interfaces.etherChannel.modify',
    invoke: (c) =>
      c.interfaces.etherChannel.modify(DEVICE_UID, INTERFACE_UID, { description: 'uplink', mtu: 9000 }),
  },
  deleteAsaEtherChannelInterface: {
    area: 'interfaces.etherChannel.remove',
    invoke: (c) => c.interfaces.etherChannel.remove(DEVICE_UID, INTERFACE_UID),
  },
  getAsaSubInterfaces: {
    area: 'interfaces.subInterface.list',
    invoke: (c) => c.interfaces.subInterface.list(DEVICE_UID, { offset: 0 }),
  },
  getAsaInterfaceSubInterfaces: {
    area: 'interfaces.subInterface.listByParent',
    invoke: (c) =>
      c.interfaces.subInterface.listByParent(DEVICE_UID, PARENT_UID, { sort: ['subInterfaceId:ASC'] }),
  },
  getAsaSubInterface: {
    area: 'interfaces.subInterface.get',
    invoke: (c) => c.interfaces.subInterface.get(DEVICE_UID, INTERFACE_UID),
  },
  createAsaSubInterface: {
    area: 'interfaces.subInterface.create',
    invoke: (c) =>
      c.interfaces.subInterface.create(DEVICE_UID, PARENT_UID, {
        name: 'guest',
        subInterfaceId: 100,
        vlanPrimaryId: 100,
        vlanSecondaryIds: [{ start: 200, end: 210 }],
        ipv4,
      }),
  },
  modifyAsaSubInterface: {
    area: 'interfaces.subInterface.modify',
    invoke: (c) => c.interfaces.subInterface.modify(DEVICE_UID, INTERFACE_UID, { enabled: false }),
  },
  deleteAsaSubInterface: {
    area: 'interfaces.subInterface.remove',
    invoke: (c) => c.interfaces.subInterface.remove(DEVICE_UID, INTERFACE_UID),
  },
  getAsaVlanInterfaces: {
    area: 'interfaces.vlan.list',
    invoke: (c) => c.interfaces.vlan.list(DEVICE_UID, { q: 'vlanId:[100 TO 200}' }),
  },
  getAsaVlanInterface: {
    area: 'interfaces.vlan.get',
    invoke: (c) => c.interfaces.vlan.get(DEVICE_UID, INTERFACE_UID),
  },
  createAsaVlanInterface: {
    area: 'interfaces.vlan.create',
    invoke: (c) =>
      c.interfaces.vlan.create(DEVICE_UID, {
        name: 'dmz',
        vlanId: 30,
        memberInterfaces: [INTERFACE_UID],
        securityLevel: 50,
      }),
  },
  modifyAsaVlanInterface: {
    area: 'interfaces.vlan.modify',
    invoke: (c) =>
      c.interfaces.vlan.modify(DEVICE_UID, INTERFACE_UID, {
        name: 'dmz2',
        standbyMacAddress: '0000.1111.2222',
      }),
  },
  deleteAsaVlanInterface: {
    area: 'interfaces.vlan.remove',
    invoke: (c) => c.interfaces.vlan.remove(DEVICE_UID, INTERFACE_UID),
  },
  getAsaVirtualTunnelInterfaces: {
    area: 'interfaces.virtualTunnel.list',
    invoke: (c) => c.interfaces.virtualTunnel.list(DEVICE_UID),
  },
  getAsaVirtualTunnelInterface: {
    area: 'interfaces.virtualTunnel.get',
    invoke: (c) => c.interfaces.virtualTunnel.get(DEVICE_UID, INTERFACE_UID),
  },
  // VPN client (Secure Client) management
  getAsaSecureClientPackages: {
    area: 'secureClient.asaPackages',
    invoke: (c) => c.secureClient.asaPackages(DEVICE_UID, { limit: 5, offset: 5 }),
  },
  getAsaSecureClientPackageByUid: {
    area: 'secureClient.asaPackage',
    invoke: (c) => c.secureClient.asaPackage(DEVICE_UID, PACKAGE_UID),
  },
  getFtdSecureClientPackages: {
    area: 'secureClient.ftdPackages',
    invoke: (c) => c.secureClient.ftdPackages(DEVICE_UID),
  },
  getFtdSecureClientPackageByUid: {
    area: 'secureClient.ftdPackage',
    invoke: (c) => c.secureClient.ftdPackage(DEVICE_UID, PACKAGE_UID),
  },
  getAsaCompatibleSecureClientVersions: {
    area: 'secureClient.asaCompatibleVersions',
    invoke: (c) => c.secureClient.asaCompatibleVersions([DEVICE_UID, OTHER_DEVICE_UID], { limit: 50 }),
  },
  getFtdCompatibleSecureClientVersions: {
    area: 'secureClient.ftdCompatibleVersions',
    invoke: (c) => c.secureClient.ftdCompatibleVersions([DEVICE_UID]),
  },
  triggerSecureClientUpgrade: {
    area: 'secureClient.triggerAsaUpgrade',
    invoke: (c) =>
      c.secureClient.triggerAsaUpgrade({
        deviceUids: [DEVICE_UID, OTHER_DEVICE_UID],
        version: '5.1.15.287',
        name: 'asa-rollout',
        platforms: [{ os: 'WINDOWS', cpuArchitecture: 'X86_64' }],
      }),
  },
  triggerFtdSecureClientUpgrade: {
    area: 'secureClient.triggerFtdUpgrade',
    invoke: (c) => c.secureClient.triggerFtdUpgrade({ deviceUids: [DEVICE_UID], version: '5.1.15.287' }),
  },
  getSecureClientUpgradeRun: { area: 'secureClient.run', invoke: (c) => c.secureClient.run(RUN_UID) },
  getSecureClientUpgradeRuns: {
    area: 'secureClient.runs',
    invoke: (c) => c.secureClient.runs({ q: 'upgradeRunStatus:DONE', sort: ['submissionTime:DESC'] }),
  },
  getSecureClientUpgradeRunsAttributeValues: {
    area: 'secureClient.runAttributeValues',
    invoke: (c) => c.secureClient.runAttributeValues(),
  },
  // MSP portal reach (scc-openapi-msp.yaml): no area methods; fwbot calls them through the
  // generic `call`, so that is what these rows exercise.
  getMspManagedDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getMspManagedDevices', {
        query: { q: 'managedTenantName:acme*', sort: ['name:ASC'], limit: 100, offset: 0 },
      }),
  },
  getMspManagedDevice: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getMspManagedDevice', { path: { deviceUid: DEVICE_UID } }),
  },
  getMspDeviceSecureClientPackages: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getMspDeviceSecureClientPackages', {
        path: { deviceUid: DEVICE_UID },
        query: { q: 'os:WINDOWS', sort: ['version:DESC'], limit: 20 },
      }),
  },
  calculateMspCompatibleSecureClientVersions: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('calculateMspCompatibleSecureClientVersions', {
        body: { deviceUids: [DEVICE_UID, OTHER_DEVICE_UID] },
      }),
  },
  getMspCompatibleSecureClientVersions: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getMspCompatibleSecureClientVersions', { path: { compatibilityInfoUid: RUN_UID } }),
  },
  upgradeMspManagedAsaSecureClientPackages: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeMspManagedAsaSecureClientPackages', {
        body: {
          deviceUids: [DEVICE_UID, OTHER_DEVICE_UID],
          version: '5.1.15.287',
          name: 'msp-rollout',
          platforms: [{ os: 'MACOS', cpuArchitecture: 'UNIVERSAL' }],
        },
      }),
  },
  getMspSecureClientUpgradeRuns: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getMspSecureClientUpgradeRuns', {
        query: { q: 'upgradeRunStatus:DONE', sort: ['submissionTime:DESC'], limit: 10 },
      }),
  },
  getMspSecureClientUpgradeRun: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: RUN_UID } }),
  },
  getMspSecureClientUpgradeRunsAttributeValues: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getMspSecureClientUpgradeRunsAttributeValues', {}),
  },
  revokeTenantFromMspPortal: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('revokeTenantFromMspPortal', { path: { tenantUid: TENANT_UID } }),
  },
  getApiOnlyUsersInMspManagedTenant: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getApiOnlyUsersInMspManagedTenant', {
        path: { tenantUid: TENANT_UID },
        query: { q: 'name:ci-*', limit: 50, offset: 0 },
      }),
  },
  // Staged changes and deploys on ASAs (scc-openapi-changes.yaml): no area methods either; fwbot calls them
  // through the generic `call`.
  getAsaConfiguration: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getAsaConfiguration', { path: { deviceUid: DEVICE_UID } }),
  },
  calculateAsaCommandsToApplyPendingChanges: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('calculateAsaCommandsToApplyPendingChanges', { path: { deviceUid: DEVICE_UID } }),
  },
  getAsaCommandsToApplyPendingChanges: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getAsaCommandsToApplyPendingChanges', { path: { deviceUid: DEVICE_UID } }),
  },
  readAsaDeviceConfiguration: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('readAsaDeviceConfiguration', { path: { deviceUid: DEVICE_UID } }),
  },
  deployChangesToMultipleAsaDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('deployChangesToMultipleAsaDevices', {
        body: {
          deviceUids: [DEVICE_UID, OTHER_DEVICE_UID],
          description: 'Remove the IoT VLAN',
          deploymentNotes: 'CHG-42',
          forceDeployUnsupportedCommands: false,
        },
      }),
  },
  getDeviceDeploymentRuns: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getDeviceDeploymentRuns', {
        query: { q: `transactionUid:"${TRANSACTION_UID}"`, sort: ['submissionTime:DESC'], limit: 1 },
      }),
  },
  getDeviceDeploymentRun: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('getDeviceDeploymentRun', { path: { deploymentRunUid: RUN_UID } }),
  },
  getChangesDeployedInDeploymentRun: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('getChangesDeployedInDeploymentRun', {
        path: { deploymentRunUid: RUN_UID, deviceUid: DEVICE_UID },
      }),
  },
  // Incident response: ending sessions, refreshing them, reconnecting an ASA, accepting its certificate
  terminateRaVpnSessionsByDevice: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('terminateRaVpnSessionsByDevice', { path: { deviceUid: DEVICE_UID } }),
  },
  terminateRaVpnSessionsByDeviceAndUserName: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('terminateRaVpnSessionsByDeviceAndUserName', {
        path: { deviceUid: DEVICE_UID, userName: 'eve.kowalski@acme.example' },
      }),
  },
  refreshRaVpnSessionsByDevice: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('refreshRaVpnSessionsByDevice', { body: { deviceUids: [DEVICE_UID, OTHER_DEVICE_UID] } }),
  },
  reconnectAsaDevice: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('reconnectAsaDevice', { path: { deviceUid: DEVICE_UID } }),
  },
  bulkAcceptAsaCertificates: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('bulkAcceptAsaCertificates', { body: { deviceUids: [DEVICE_UID] } }),
  },
  // Transactions and inventory
  getTransaction: { area: 'transactions.get', invoke: (c) => c.transactions.get(TRANSACTION_UID) },
  cancelTransaction: { area: 'transactions.cancel', invoke: (c) => c.transactions.cancel(TRANSACTION_UID) },
  // Governance: change requests and the tenant's settings
  getChangeRequests: {
    area: 'governance.changeRequests',
    invoke: (c) => c.governance.changeRequests({ q: 'name:CHG0012345', limit: 10, offset: 0 }),
  },
  getChangeRequest: {
    area: 'governance.changeRequest',
    invoke: (c) => c.governance.changeRequest(CHANGE_REQUEST_UID),
  },
  createChangeRequest: {
    area: 'governance.createChangeRequest',
    invoke: (c) =>
      c.governance.createChangeRequest({ name: 'CHG0012345', description: 'Open 443 to WEB-01' }),
  },
  getTenantSettings: { area: 'governance.tenantSettings', invoke: (c) => c.governance.tenantSettings() },
  getDevices: {
    area: 'devices.list',
    invoke: (c) =>
      c.devices.list({ q: 'name:"fw 01" OR name:fw-0?', sort: ['name:ASC'], limit: 100, offset: 100 }),
  },
  getDevice: { area: 'devices.get', invoke: (c) => c.devices.get(DEVICE_UID) },
  // Change log, audit log, token
  getChangelogs: {
    area: 'events.changelogs',
    invoke: (c) =>
      c.events.changelogs({
        q: `entityUid:${DEVICE_UID} AND lastEventDate:[2026-11-01T00:00:00Z TO *]`,
        searchText: 'object-group',
        limit: 50,
        offset: 50,
      }),
  },
  getChangelog: { area: 'events.changelog', invoke: (c) => c.events.changelog(CHANGELOG_UID) },
  getAuditLogs: {
    area: 'events.auditLogs',
    invoke: (c) =>
      c.events.auditLogs({ timeRange: '1h', searchText: 'alice', sort: ['eventTime:DESC'], limit: 20 }),
  },
  getToken: { area: 'events.token', invoke: (c) => c.events.token() },
  // Lookups: search, access rules and groups, objects and their usages, the ASA command line
  search: { area: 'lookups.search', invoke: (c) => c.lookups.search('WEB-01') },
  listAccessRules: {
    area: 'lookups.accessRules',
    invoke: (c) =>
      c.lookups.accessRules({
        q: `entityUid:${DEVICE_UID} AND ruleConfigurationText:*WEB\\-01*`,
        sort: ['index:ASC'],
        limit: 25,
        offset: 25,
      }),
  },
  fetchAccessRule: { area: 'lookups.accessRule', invoke: (c) => c.lookups.accessRule(RULE_UID) },
  listAccessGroups: {
    area: 'lookups.accessGroups',
    invoke: (c) => c.lookups.accessGroups({ q: `entityUid:${DEVICE_UID}`, limit: 200 }),
  },
  fetchAccessGroup: { area: 'lookups.accessGroup', invoke: (c) => c.lookups.accessGroup(GROUP_UID) },
  getObjects: {
    area: 'lookups.objects',
    invoke: (c) => c.lookups.objects({ q: 'name:*WEB*', sort: 'name:ASC', limit: 25, offset: 25 }),
  },
  getObject: { area: 'lookups.object', invoke: (c) => c.lookups.object(OBJECT_UID, '@detailed') },
  getObjectUsages: { area: 'lookups.objectUsages', invoke: (c) => c.lookups.objectUsages(OBJECT_UID) },
  executeCliCommand: {
    area: 'lookups.executeCli',
    invoke: (c) => c.lookups.executeCli({ deviceUids: [DEVICE_UID], script: 'show version' }),
  },
  getCliResults: {
    area: 'lookups.cliResults',
    invoke: (c) => c.lookups.cliResults({ q: `executionUid:${EXECUTION_UID}`, limit: 50 }),
  },
  getCliResult: { area: 'lookups.cliResult', invoke: (c) => c.lookups.cliResult(CLI_RESULT_UID) },
  // Firewall software upgrades (scc-openapi-upgrades.yaml): the bodies are the rows' choices
  upgradeAsaDevice: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeAsaDevice', {
        path: { deviceUid: DEVICE_UID },
        body: { softwareVersion: '9.20.3', asdmVersion: '7.20(4)', stageUpgrade: true, name: 'stage hq' },
      }),
  },
  upgradeAsaDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeAsaDevices', {
        body: {
          deviceUids: [DEVICE_UID, OTHER_DEVICE_UID],
          softwareVersion: '9.20.3',
          forceUpgrade: false,
          ignoreMaintenanceWindow: true,
        },
      }),
  },
  upgradeFtdDevice: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeFtdDevice', {
        path: { deviceUid: DEVICE_UID },
        body: { upgradePackageUid: PACKAGE_UID, stageUpgrade: false, ignoreMaintenanceWindow: false },
      }),
  },
  upgradeFtdDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeFtdDevices', {
        body: { deviceUids: [DEVICE_UID], upgradePackageUid: PACKAGE_UID, stageUpgrade: true },
      }),
  },
  updateFtdUpgradePackagesCache: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('updateFtdUpgradePackagesCache', {}),
  },
  modifyDeviceUpgradeRun: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('modifyDeviceUpgradeRun', { path: { upgradeRunUid: RUN_UID }, body: { name: 'hq to 9.20.3' } }),
  },
  deleteDeviceUpgradeRun: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('deleteDeviceUpgradeRun', { path: { uid: RUN_UID } }),
  },
  upgradeMspManagedAsaDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeMspManagedAsaDevices', {
        body: {
          deviceUids: [DEVICE_UID, OTHER_DEVICE_UID],
          softwareVersion: '9.20.3',
          stageUpgradeOnly: true,
        },
      }),
  },
  upgradeMspManagedFtdDevices: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('upgradeMspManagedFtdDevices', {
        body: { deviceUids: [DEVICE_UID], softwareVersion: '7.4.2', ignoreMaintenanceWindow: true },
      }),
  },
  calculateMspFtdCompatibleUpgradeVersions: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('calculateMspFtdCompatibleUpgradeVersions', {
        body: { deviceUids: [DEVICE_UID, OTHER_DEVICE_UID] },
      }),
  },
  deleteMspDeviceUpgradeRun: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('deleteMspDeviceUpgradeRun', { path: { uid: RUN_UID } }),
  },
  // Access changes (scc-openapi-access.yaml): no area methods; fwbot calls them through the generic `call`.
  createAccessRule: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('createAccessRule', {
        body: {
          accessGroupUid: GROUP_UID,
          entityUid: DEVICE_UID,
          index: 2,
          ruleAction: 'PERMIT',
          protocol: { name: 'tcp' },
          sourceNetwork: { name: 'PARTNER-NET', uid: OBJECT_UID },
          destinationNetwork: { name: 'any' },
          destinationPort: { name: '22', elements: ['22'] },
          remark: 'CHG-42: partner sftp',
        },
      }),
  },
  modifyAccessRule: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('modifyAccessRule', {
        path: { accessRuleUid: RULE_UID },
        body: { uid: RULE_UID, isActiveRule: false },
      }),
  },
  deleteAccessRule: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('deleteAccessRule', { path: { accessRuleUid: RULE_UID } }),
  },
  createAccessGroup: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('createAccessGroup', {
        body: {
          entityUid: DEVICE_UID,
          name: 'storage_access_in',
          resources: [{ interface: { interfaceName: 'storage', direction: 'INBOUND' } }],
        },
      }),
  },
  patchAccessGroup: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('patchAccessGroup', { path: { accessGroupUid: GROUP_UID }, body: { name: 'storage_in' } }),
  },
  deleteAccessGroup: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('deleteAccessGroup', { path: { accessGroupUid: GROUP_UID } }),
  },
  createObject: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('createObject', {
        body: {
          name: 'VENDOR-NET',
          description: 'Vendor range',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.0/28' } },
          targetIds: [DEVICE_UID],
        },
      }),
  },
  modifyObject: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('modifyObject', {
        path: { uid: OBJECT_UID },
        body: { value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.16/28' } } },
      }),
  },
  deleteObject: {
    area: GENERIC_CALL,
    invoke: (c) => c.call('deleteObject', { path: { uid: OBJECT_UID }, query: { forcedDelete: true } }),
  },
  createTargets: {
    area: GENERIC_CALL,
    invoke: (c) =>
      c.call('createTargets', { path: { uid: OBJECT_UID }, body: { targetsUuids: [OTHER_DEVICE_UID] } }),
  },
};

/**
 * A GET through the generic `call`, with the parameters the reference itself exemplifies
 * (OpenApiContract.exampleParameters), read when the row runs: its contract is loaded by then.
 */
function derivedRow(operationId: SccOperationId): ContractRow {
  return {
    area: GENERIC_CALL,
    invoke: (c) => {
      // The per-operation typing of `call` cannot be written for an id known only at run time; the
      // request builder checks the parameters against the generated table instead.
      const call = c.call as (id: SccOperationId, params: LooseCallParams) => Promise<unknown>;
      return call(operationId, loadOpenApiContract().exampleParameters(operationId));
    },
  };
}

const rows: Partial<Record<SccOperationId, ContractRow>> = Object.fromEntries(
  (Object.keys(sccOperations) as SccOperationId[]).flatMap((id) => {
    const row = HAND_ROWS[id] ?? (sccOperations[id].method === 'GET' ? derivedRow(id) : undefined);
    return row ? [[id, row]] : [];
  }),
);

/** Area methods that are not one operation but built on one (paging, polling). */
const DERIVED_AREA_METHODS = ['devices.iterate', 'tenants.iterate', 'transactions.follow'];

/**
 * Examples of the reference that contradict its own schemas (../shared/reference/README.md, "Known flaws"):
 * the client's model must refuse them on exactly these fields. Examples assembled from the `example`
 * keywords of the schemas, as documentation renderers show them.
 */
const DOCUMENTED_FLAWS: {
  operationId: SccOperationId;
  status: number;
  fields: string[];
  flaw: string;
  /** A value the capture server answers for a field instead of leaving it out (a required one). */
  replies?: Record<string, unknown>;
  /** Fields only the reference's validator refuses: the client's model is looser (an open record). */
  validatorOnly?: string[];
}[] = [
  {
    operationId: 'getHumanUsersInMspManagedTenant',
    status: 200,
    fields: ['items[0].roles'],
    flaw: "User.roles exemplified as the string '[ROLE_ADMIN]'; the schema says array",
  },
  {
    operationId: 'getDevices',
    status: 200,
    fields: ['items[0].deviceRoles', 'items[0].fmcAccessPolicy', 'items[0].raVpnPolicy'],
    flaw: 'Device.deviceRoles, fmcAccessPolicy and raVpnPolicy examples have the wrong types',
  },
  {
    operationId: 'getDevice',
    status: 200,
    fields: ['deviceRoles', 'fmcAccessPolicy', 'raVpnPolicy'],
    flaw: 'Device.deviceRoles, fmcAccessPolicy and raVpnPolicy examples have the wrong types',
  },
  // The same flaw in the events cut (scc-openapi-events.yaml): AuditLog.roles.
  {
    operationId: 'getAuditLogs',
    status: 200,
    fields: ['items[0].roles'],
    flaw: "AuditLog.roles exemplified as the string '[ROLE_READ_ONLY, ROLE_DEPLOY_ONLY]'; the schema says array",
  },
  // The same two flaws in the MSP cut (scc-openapi-msp.yaml): its User, and MspManagedDevice.deviceRoles.
  {
    operationId: 'getApiOnlyUsersInMspManagedTenant',
    status: 200,
    fields: ['items[0].roles'],
    flaw: "User.roles exemplified as the string '[ROLE_ADMIN]'; the schema says array",
  },
  {
    operationId: 'getMspManagedDevices',
    status: 200,
    fields: ['items[0].deviceRoles'],
    flaw: "MspManagedDevice.deviceRoles exemplified as the string 'ASA_RA_VPN_HEADEND'; the schema says array",
  },
  {
    operationId: 'getMspManagedDevice',
    status: 200,
    fields: ['deviceRoles'],
    flaw: "MspManagedDevice.deviceRoles exemplified as the string 'ASA_RA_VPN_HEADEND'; the schema says array",
  },
  // The lookups cut (scc-openapi-lookups.yaml) exemplifies arrays and objects as prose strings, the same
  // kind of flaw: AccessGroup.appliedTo ('[deviceUid1, …]') and resources ('Interface resource: […]'),
  // ObjectResponse.elements ('[a:b:c::1]'), and Override.content ('a:b:c::2', where ObjectContent is an object).
  {
    operationId: 'listAccessGroups',
    status: 200,
    fields: ['items[0].appliedTo', 'items[0].resources'],
    flaw: 'AccessGroup.appliedTo and resources exemplified as strings; the schema says arrays',
  },
  {
    operationId: 'fetchAccessGroup',
    status: 200,
    fields: ['appliedTo', 'resources'],
    flaw: 'AccessGroup.appliedTo and resources exemplified as strings; the schema says arrays',
  },
  // ObjectContent is a `oneOf` of overlapping objects, so `{ literal }` matches more than one of them: the
  // contract reads it as `anyOf` (OVERLAPPING_ONE_OF in test/support/openapiContract.ts), so the
  // example's defaultContent passes.
  {
    operationId: 'getObject',
    status: 200,
    fields: ['elements', 'value.overrides[0].content'],
    flaw: 'ObjectResponse.elements and Override.content exemplified as strings; the schema says array and object',
    replies: { 'value.overrides[0].content': { literal: 'a:b:c::2' } },
  },
  {
    operationId: 'getObjects',
    status: 200,
    fields: ['items[0].value.overrides[0].content'],
    flaw: 'Override.content exemplified as a string; the schema says object',
    replies: { 'items[0].value.overrides[0].content': { literal: 'a:b:c::2' } },
  },
  // The upgrades cut (scc-openapi-upgrades.yaml): CompatibleDeviceDto requires uid and managedTenantUid
  // and exemplifies neither, so an example assembled from the schema's examples lacks both.
  {
    operationId: 'getMspFtdCompatibleUpgradeVersions',
    status: 200,
    fields: [
      'compatibleVersions[0].compatibleDevices[0].managedTenantUid',
      'compatibleVersions[0].compatibleDevices[0].uid',
    ],
    flaw: 'CompatibleDeviceDto requires uid and managedTenantUid but exemplifies neither',
    replies: {
      'compatibleVersions[0].compatibleDevices[0].managedTenantUid': TENANT_UID,
      'compatibleVersions[0].compatibleDevices[0].uid': DEVICE_UID,
    },
  },
  // The access cut (scc-openapi-access.yaml) carries the same schemas with the same prose examples.
  ...(['createAccessGroup', 'patchAccessGroup'] as const).map((operationId) => ({
    operationId,
    status: 200,
    fields: ['appliedTo', 'resources'],
    flaw: 'AccessGroup.appliedTo and resources exemplified as strings; the schema says arrays',
  })),
  ...(
    [
      ['createObject', 201],
      ['modifyObject', 200],
    ] as const
  ).map(([operationId, status]) => ({
    operationId,
    status,
    fields: ['elements', 'value.overrides[0].content'],
    flaw: 'ObjectResponse.elements and Override.content exemplified as strings; the schema says array and object',
    replies: { 'value.overrides[0].content': { literal: 'a:b:c::2' } },
  })),
  {
    operationId: 'getTargets',
    status: 200,
    fields: ['items[0].value.overrides[0].content'],
    flaw: 'Override.content exemplified as a string; the schema says object',
    replies: { 'items[0].value.overrides[0].content': { literal: 'a:b:c::2' } },
  },
];
// The README's fourth flaw, UserInput's example being a string, is on the request side: the requests
// above are written by hand and checked against the schema, never taken from that example.

/** Answers for operations whose reference has no example at all (checked against the reference below). */
const PACKAGE = {
  uid: PACKAGE_UID,
  deviceUid: DEVICE_UID,
  fileName: 'cisco-secure-client-win-5.1.15.287.pkg',
};
const REPLIES_WITHOUT_EXAMPLE: Partial<Record<SccOperationId, unknown>> = {
  getAsaSecureClientPackageByUid: PACKAGE,
  getFtdSecureClientPackageByUid: PACKAGE,
  getChangesDeployedInDeploymentRun: [
    {
      uid: '5c1e2f3a-0b4d-4c6e-8f90-1a2b3c4d5e6f',
      deploymentRunUid: RUN_UID,
      deploymentType: 'ASA_DEVICE_DEPLOY',
      deviceUid: DEVICE_UID,
      initialConfig: 'interface Vlan20\n nameif iot\n',
      deployedConfig: '!\n',
    },
  ],
};

const flawsOf = (operationId: string, status: number): string[] =>
  DOCUMENTED_FLAWS.find((f) => f.operationId === operationId && f.status === status)?.fields ?? [];

const skipReason = contractSkipReason();
if (skipReason) process.stdout.write(`SCC client contract: ${skipReason}\n`);

(skipReason ? describe.skip : describe)(`SCC client contract${skipReason ? ` (${skipReason})` : ''}`, () => {
  let contract: OpenApiContract;
  let fake: FakeScc;
  const covered = new Set<string>();

  beforeAll(async () => {
    contract = loadOpenApiContract();
    fake = await startFakeScc((request) => replyFor(contract, request.method, request.apiPath));
  });
  afterAll(async () => {
    await fake?.close();
    if (contract) {
      process.stdout.write(
        `SCC client contract: ${covered.size}/${contract.listOperationIds().length} operations covered\n`,
      );
    }
  });

  it('describes exactly the operations the client is generated from, each with a row here', () => {
    expect(contract.listOperationIds()).toEqual(Object.keys(sccOperations).sort());
    expect(Object.keys(rows).sort()).toEqual(contract.listOperationIds());
  });

  it('answers operations without an example with bodies the reference accepts', () => {
    for (const [operationId, body] of Object.entries(REPLIES_WITHOUT_EXAMPLE)) {
      const successExamples = contract.schemaExamples(operationId).filter((e) => e.status.startsWith('2'));
      expect(successExamples, operationId).toEqual([]);
      expect(contract.validateResponse(operationId, 200, body), operationId).toEqual([]);
    }
  });

  it('has a contract row for every area method, and every row names an area method', () => {
    const { client } = clientOf(fake);
    const methods = areaMethods(client).sort();

    const areas = Object.values(rows)
      .map((row) => row.area)
      .filter((area) => area !== GENERIC_CALL);
    expect(methods).toEqual([...areas, ...DERIVED_AREA_METHODS].sort());
  });

  describe('requests', () => {
    it.each(Object.keys(rows).sort())(
      '%s: the area method sends a request the reference accepts',
      async (id) => {
        const operationId = id as SccOperationId;
        const row = rows[operationId];
        if (!row) throw new Error(`${operationId} has no contract row`);
        const { client } = clientOf(fake);
        const spy = spyOnAreaMethod(client, row.area);
        const before = fake.requests.length;

        await row.invoke(client);

        expect(spy, `${row.area} was not the method invoked`).toHaveBeenCalledTimes(1);
        const sent = fake.requests.slice(before);
        expect(sent).toHaveLength(1);
        const request = sent[0];
        if (!request) return;
        expect(contract.matchOperation(request.method, request.apiPath)).toBe(operationId);
        const violations = contract.validateRequest(operationId, {
          method: request.method,
          path: request.apiPath,
          query: request.query,
          body: request.body,
        });
        expect(violations).toEqual([]);
        covered.add(operationId);
        await client.close();
      },
    );

    it('covers every operation of the reference', () => {
      expect(contract.listOperationIds().filter((id) => !covered.has(id))).toEqual([]);
    });
  });

  describe('response examples', () => {
    it('parses every example the reference gives under a response with the model for that status', () => {
      const checked: string[] = [];
      for (const operationId of contract.listOperationIds() as SccOperationId[]) {
        for (const example of contract.responseExamples(operationId)) {
          const schema = responseSchema(operationId, Number(example.status));
          expect(schema, `${operationId} ${example.status} has no model`).toBeTruthy();
          const parsed = schema?.safeParse(example.value);
          expect(parsed?.success, `${operationId} ${example.status} ${example.name}`).toBe(true);
          checked.push(`${operationId} ${example.status} ${example.name}`);
        }
      }
      // The reference gives few: executeDeviceCommand's `responded` and `timeout`, for one.
      expect(checked).toEqual(
        expect.arrayContaining(['executeDeviceCommand 200 responded', 'executeDeviceCommand 200 timeout']),
      );
    });

    it('parses every example assembled from the schemas, failing only on the documented flaws', () => {
      const failures: Record<string, string[]> = {};
      const expected: Record<string, string[]> = {};
      for (const operationId of contract.listOperationIds() as SccOperationId[]) {
        for (const example of contract.schemaExamples(operationId)) {
          const status = Number(example.status);
          const key = `${operationId} ${status}`;
          const schema = responseSchema(operationId, status);
          if (!schema) continue; // 204: no body to parse
          const parsed = schema.safeParse(example.value);
          failures[key] = parsed.success
            ? []
            : parsed.error.issues.map((issue) => formatPath(issue.path)).sort();
          expected[key] = [...flawsOf(operationId, status)].sort();
        }
      }

      expect(failures).toEqual(expected);
      for (const flaw of DOCUMENTED_FLAWS)
        expect(Object.keys(failures)).toContain(`${flaw.operationId} ${flaw.status}`);
    });

    it('finds nothing else wrong with those examples than the documented flaws and prose enum examples', () => {
      // e.g. DuplexType's example is "AUTO, FULL or HALF": wrong for the reference's closed enum, accepted
      // by the client's open enums (the vendor adds values), so it is not a flaw for the client.
      for (const operationId of contract.listOperationIds() as SccOperationId[]) {
        for (const example of contract.schemaExamples(operationId)) {
          const status = Number(example.status);
          // One field may break several branches of a `oneOf`: each field counts once.
          const unexplained = new Set(
            contract
              .validateResponse(operationId, status, example.value)
              .filter((violation) => !violation.includes('must be equal to one of the allowed values'))
              .map((violation) => violationField(violation)),
          );
          const flaw = DOCUMENTED_FLAWS.find((f) => f.operationId === operationId && f.status === status);
          expect([...unexplained].sort(), `${operationId} ${status}`).toEqual(
            [...new Set([...flawsOf(operationId, status), ...(flaw?.validatorOnly ?? [])])].sort(),
          );
        }
      }
    });
  });
});

/**
 * `body/items/0/roles must be array` → `items[0].roles`; a missing required property is named as the
 * field (`body/a/0 must have required property 'uid'` → `a[0].uid`), as the client's model names it.
 */
function violationField(violation: string): string {
  const pointer = violation.split(' ')[0]?.replace(/^body\/?/, '') ?? '';
  const missing = /must have required property '([^']+)'/.exec(violation)?.[1];
  const parts = [...(pointer === '' ? [] : pointer.split('/')), ...(missing === undefined ? [] : [missing])];
  return parts.length === 0
    ? ''
    : formatPath(parts.map((part) => (/^\d+$/.test(part) ? Number(part) : part)));
}

/**
 * What the capture server answers: the operation's success status with the reference's own example (the
 * declared one, else the one assembled from its schema) minus its documented flaws, so every area method
 * completes and its answer is parsed.
 */
function replyFor(contract: OpenApiContract, method: string, apiPath: string): Reply {
  const operationId = contract.matchOperation(method, apiPath);
  if (!operationId)
    return { status: 404, body: { errorCode: 'NOT_FOUND', errorMsg: `no operation ${method} ${apiPath}` } };
  const status = Number(contract.declaredStatuses(operationId).find((s) => s.startsWith('2')));
  if (status === 204) return { status };
  const example =
    contract.responseExamples(operationId).find((e) => Number(e.status) === status)?.value ??
    contract.schemaExamples(operationId).find((e) => Number(e.status) === status)?.value ??
    REPLIES_WITHOUT_EXAMPLE[operationId as SccOperationId] ??
    {};
  const replies =
    DOCUMENTED_FLAWS.find((f) => f.operationId === operationId && f.status === status)?.replies ?? {};
  return { status, body: withoutFields(example, flawsOf(operationId, status), replies) };
}

/** The value without its flawed fields, or with the documented replacement where the field is required. */
function withoutFields(
  value: unknown,
  fields: readonly string[],
  replies: Record<string, unknown> = {},
): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const field of fields) {
    const parts = field.split(/[.[\]]+/).filter(Boolean);
    const last = parts.pop();
    let here: unknown = copy;
    for (const part of parts) here = (here as Record<string, unknown> | undefined)?.[part];
    if (!last || typeof here !== 'object' || here === null) continue;
    if (field in replies) (here as Record<string, unknown>)[last] = replies[field];
    else delete (here as Record<string, unknown>)[last];
  }
  return copy;
}

/** Paths of every function of the client's area objects (`tenants.users.add`), not the generic core. */
function areaMethods(client: SccClient): string[] {
  const out: string[] = [];
  const walk = (value: unknown, prefix: string): void => {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof inner === 'function') {
        if (prefix) out.push(path);
      } else if (typeof inner === 'object' && inner !== null) {
        walk(inner, path);
      }
    }
  };
  walk(client, '');
  return out;
}

function spyOnAreaMethod(client: SccClient, area: string) {
  const parts = area.split('.');
  const method = parts.pop() ?? '';
  let owner: unknown = client;
  for (const part of parts) owner = (owner as Record<string, unknown>)[part];
  if (typeof (owner as Record<string, unknown> | undefined)?.[method] !== 'function') {
    throw new Error(`the client has no area method ${area}`);
  }
  return vi.spyOn(owner as Record<string, (...args: unknown[]) => unknown>, method);
}
