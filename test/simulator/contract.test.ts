// The simulator against the vendor's OpenAPI reference (every cut the client is generated from): fwbot's
// own SCC client calls every operation it has on the simulator through a recording proxy, and every answer
// as it went over the wire (status and raw body) is checked with the same validator as the client's
// contract test. The steps below are written for the operations whose answers depend on a story (a staged
// change, a deploy, a run); an operation none of them reaches is reached through the plain reads that
// declare it, each run from its first example on the seeded world. Prints `simulator contract: N/N
// operations, 0 violations`; skips, saying why, when ../shared is absent.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { createSccClient, type SccClient } from '../../src/scc/client.js';
import { sccOperationIds } from '../../src/scc/generated/operations.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { plainReads, runnableExample } from '../support/catalogueExamples.js';
import { memoryServices } from '../support/memoryServices.js';
import { contractSkipReason, loadOpenApiContract } from '../support/openapiContract.js';

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** Forwards every request to the simulator and keeps what came back, byte for byte. */
async function startRecordingProxy(
  target: string,
  exchanges: Exchange[],
): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const out: Buffer[] = [];
          answer.on('data', (c: Buffer) => out.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(out).toString('utf8');
            exchanges.push({
              method: req.method ?? 'GET',
              path: (req.url ?? '/').split('?')[0] ?? '/',
              status: answer.statusCode ?? 0,
              body: text === '' ? undefined : (JSON.parse(text) as unknown),
            });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(text);
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const skip = contractSkipReason();
if (skip !== undefined) console.log(`simulator contract: ${skip}`);

describe('simulator contract', () => {
  let sim: SimulatorHandle;
  let proxy: { url: string; server: Server };
  const exchanges: Exchange[] = [];
  const clients: SccClient[] = [];
  const client = (token = 'sim-super-admin') => {
    const c = createSccClient({ baseUrl: proxy.url, token, retry: { maxAttempts: 1 } });
    clients.push(c);
    return c;
  };
  const iface = (device: string, hardwareName: string) => {
    const deviceUid = sim.deviceUid(device);
    for (const i of sim.state.interfaces.values())
      if (i.deviceUid === deviceUid && i.hardwareName === hardwareName) return i.uid;
    throw new Error(`no ${hardwareName} on ${device}`);
  };

  beforeAll(async () => {
    sim = await startSimulator({ seed: 'contract' });
    proxy = await startRecordingProxy(sim.url, exchanges);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await sim.stop();
  });

  it.skipIf(skip !== undefined)(
    skip ?? 'answers every operation of the client as the reference describes it',
    async () => {
      const scc = client();
      const asa = sim.deviceUid('asa-hq-01');
      const ftd = sim.deviceUid('ftd-edge-01');
      const fmc = sim.deviceUid('cdfmc-acme');

      // Inventory
      await scc.call('getDevices', { query: { q: 'deviceType:ASA', sort: ['name:DESC'], limit: 5 } });
      await scc.call('getDevice', { path: { deviceUid: asa } });

      // ASA interfaces: physical, EtherChannel with a subinterface, VLAN, virtual tunnel
      const freePort = iface('asa-hq-01', 'GigabitEthernet1/6');
      await scc.call('getAsaPhysicalInterfaces', {
        path: { deviceUid: asa },
        query: { sort: ['hardwareName:ASC'] },
      });
      await scc.call('getAsaPhysicalInterface', { path: { deviceUid: asa, interfaceUid: freePort } });
      await scc.call('modifyAsaPhysicalInterface', {
        path: { deviceUid: asa, interfaceUid: freePort },
        body: { description: 'spare port', mtu: 9000, speedType: 'AUTO', duplexType: 'AUTO' },
      });
      await scc.call('getAsaEtherChannelInterfaces', { path: { deviceUid: asa } });
      const channel = await scc.call('createAsaEtherChannelInterface', {
        path: { deviceUid: asa },
        body: {
          etherChannelId: 7,
          name: 'backup',
          lacpMode: 'ACTIVE',
          memberInterfaces: [
            iface('asa-hq-01', 'GigabitEthernet1/7'),
            iface('asa-hq-01', 'GigabitEthernet1/8'),
          ],
          securityLevel: 80,
          ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: '10.70.0.1', netmask: '255.255.255.0' } },
        },
      });
      const channelUid = String(channel.data.uid);
      await scc.call('getAsaEtherChannelInterface', { path: { deviceUid: asa, interfaceUid: channelUid } });
      await scc.call('modifyAsaEtherChannelInterface', {
        path: { deviceUid: asa, interfaceUid: channelUid },
        body: { mtu: 1600 },
      });
      const sub = await scc.call('createAsaSubInterface', {
        path: { deviceUid: asa, interfaceUid: channelUid },
        body: { subInterfaceId: 700, vlanPrimaryId: 700, name: 'backup-700', securityLevel: 50 },
      });
      const subUid = String(sub.data.uid);
      await scc.call('getAsaInterfaceSubInterfaces', { path: { deviceUid: asa, interfaceUid: channelUid } });
      await scc.call('getAsaSubInterfaces', {
        path: { deviceUid: asa },
        query: { q: 'vlanPrimaryId:[100 TO 800]' },
      });
      await scc.call('getAsaSubInterface', { path: { deviceUid: asa, interfaceUid: subUid } });
      await scc.call('modifyAsaSubInterface', {
        path: { deviceUid: asa, interfaceUid: subUid },
        body: { description: 'vlan 700' },
      });
      await scc.call('deleteAsaSubInterface', { path: { deviceUid: asa, interfaceUid: subUid } });
      await scc.call('deleteAsaEtherChannelInterface', {
        path: { deviceUid: asa, interfaceUid: channelUid },
      });
      await scc.call('getAsaVlanInterfaces', { path: { deviceUid: asa } });
      const vlan = await scc.call('createAsaVlanInterface', {
        path: { deviceUid: asa },
        body: { vlanId: 99, name: 'lab', mtu: 1500 },
      });
      const vlanUid = String(vlan.data.uid);
      await scc.call('getAsaVlanInterface', { path: { deviceUid: asa, interfaceUid: vlanUid } });
      await scc.call('modifyAsaVlanInterface', {
        path: { deviceUid: asa, interfaceUid: vlanUid },
        body: { enabled: false },
      });
      await scc.call('deleteAsaVlanInterface', { path: { deviceUid: asa, interfaceUid: vlanUid } });
      await scc.call('getAsaVirtualTunnelInterfaces', { path: { deviceUid: asa } });
      await scc.call('getAsaVirtualTunnelInterface', {
        path: { deviceUid: asa, interfaceUid: iface('asa-hq-01', 'Tunnel1') },
      });

      // Staged changes and deploys (scc-openapi-changes.yaml): the interface changes above are staged on
      // asa-hq-01; calculate and read the commands, deploy it with a device that has nothing pending
      // (SKIPPED), read the run while it runs and once done, what was deployed, and read configuration.
      const branch = sim.deviceUid('asa-branch-02');
      await scc.call('getAsaConfiguration', { path: { deviceUid: asa } });
      const commandsCalculation = await scc.call('calculateAsaCommandsToApplyPendingChanges', {
        path: { deviceUid: asa },
      });
      sim.clock.advance(5_000);
      await scc.call('getTransaction', {
        path: { transactionUid: String(commandsCalculation.data.transactionUid) },
      });
      await scc.call('getAsaCommandsToApplyPendingChanges', { path: { deviceUid: asa } });
      const deployment = await scc.call('deployChangesToMultipleAsaDevices', {
        body: { deviceUids: [asa, branch], description: 'contract', deploymentNotes: 'CHG-1' },
      });
      const deploymentRunUid = String(deployment.data.entityUid);
      sim.clock.advance(8_000);
      await scc.call('getDeviceDeploymentRun', { path: { deploymentRunUid } });
      sim.clock.advance(2 * 60_000);
      await scc.call('getDeviceDeploymentRun', { path: { deploymentRunUid } });
      await scc.call('getDeviceDeploymentRuns', {
        query: { q: 'deploymentRunStatus:DEPLOY_*', sort: ['submissionTime:DESC'] },
      });
      for (const deviceUid of [asa, branch]) {
        await scc.call('getChangesDeployedInDeploymentRun', { path: { deploymentRunUid, deviceUid } });
      }
      await scc.call('readAsaDeviceConfiguration', { path: { deviceUid: branch } });
      const changeRefusals = await Promise.allSettled([
        scc.call('getAsaCommandsToApplyPendingChanges', { path: { deviceUid: sim.deviceUid('asa-dc-03') } }),
        scc.call('getDeviceDeploymentRun', {
          path: { deploymentRunUid: '00000000-0000-4000-8000-000000000000' },
        }),
        scc.call('deployChangesToMultipleAsaDevices', { body: { deviceUids: [ftd] } }),
      ]);
      expect(changeRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Events (scc-openapi-events.yaml): the change log the interface changes and the deploy above wrote,
      // one change log, the audit log, the token; and the refusals the reference declares (400, 403).
      const changelogs = await scc.call('getChangelogs', {
        query: { q: 'entityName:asa-hq-01', searchText: 'deploy', timeRange: '1h', limit: 10 },
      });
      await scc.call('getChangelogs', { query: { q: 'status:COMPLETED', offset: 0 } });
      await scc.call('getChangelog', { path: { changelogUid: String(changelogs.data.items?.[0]?.uid) } });
      await scc.call('getAuditLogs', {
        query: { q: 'eventType:USER_LOGGED_IN', sort: ['eventTime:DESC'], searchText: 'acme-msp', limit: 5 },
      });
      await scc.call('getToken', {});
      await client('sim-read-only').call('getToken', {});
      const eventRefusals = await Promise.allSettled([
        scc.call('getChangelogs', { query: { q: 'lastEventDate:[2025-01-01 TO *]', timeRange: '5m' } }),
        scc.call('getChangelogs', { query: { limit: 500 } }),
        scc.call('getAuditLogs', { query: { q: 'eventType:(' } }),
        client('sim-read-only').call('getAuditLogs', {}),
      ]);
      expect(eventRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Secure Client: packages (the FTD one whose filename cannot be parsed), versions, upgrades and runs
      const asaPackages = await scc.call('getAsaSecureClientPackages', { path: { deviceUid: asa } });
      const asaPackage = String(asaPackages.data.items?.[0]?.uid);
      await scc.call('getAsaSecureClientPackageByUid', { path: { deviceUid: asa, packageUid: asaPackage } });
      const ftdPackages = await scc.call('getFtdSecureClientPackages', { path: { deviceUid: ftd } });
      const odd = ftdPackages.data.items?.find((p) => p.version === undefined || p.version === null);
      await scc.call('getFtdSecureClientPackageByUid', {
        path: { deviceUid: ftd, packageUid: String(odd?.uid) },
      });
      await scc.call('getAsaCompatibleSecureClientVersions', {
        query: { deviceUids: [asa, sim.deviceUid('asa-dc-03')] },
      });
      await scc.call('getFtdCompatibleSecureClientVersions', { query: { deviceUids: [ftd] } });
      const asaUpgrade = await scc.call('triggerSecureClientUpgrade', {
        body: { deviceUids: [asa], version: '5.1.15.287', name: 'contract-asa' },
      });
      await scc.call('triggerFtdSecureClientUpgrade', {
        body: {
          deviceUids: [ftd],
          version: '5.1.15.287',
          platforms: [{ os: 'WINDOWS', cpuArchitecture: 'X86_64' }],
        },
      });
      const runUid = String(asaUpgrade.data.entityUid);
      await scc.call('getSecureClientUpgradeRun', { path: { upgradeRunUid: runUid } });
      await scc.call('getTransaction', { path: { transactionUid: String(asaUpgrade.data.transactionUid) } });
      sim.clock.advance(10 * 60_000);
      await scc.call('getSecureClientUpgradeRun', { path: { upgradeRunUid: runUid } });
      await scc.call('getTransaction', { path: { transactionUid: String(asaUpgrade.data.transactionUid) } });
      await scc.call('getSecureClientUpgradeRuns', {
        query: { q: 'upgradeRunStatus:DONE*', sort: ['submissionTime:DESC'] },
      });
      await scc.call('getSecureClientUpgradeRunsAttributeValues', {});

      // Event reports
      await scc.call('getSearchReports', { query: { q: 'status:COMPLETED', sort: ['createdDate:DESC'] } });

      // Command gateway: listcommands, async then result, and a synchronous call answered on the clock
      await scc.call('getDeviceCommands', {});
      const link = `/api/fmc_config/v1/domain/${sim.state.fmc.domainUid}/object/networks`;
      const pending = await scc.call('executeDeviceCommand', {
        query: { async: true },
        body: { deviceUid: fmc, request: { commands: [{ method: 'GET', link }] } },
      });
      await scc.call('getDeviceCommandResponse', { path: { requestId: String(pending.data.requestId) } });
      sim.clock.advance(60_000);
      await scc.call('getDeviceCommandResponse', { path: { requestId: String(pending.data.requestId) } });
      const sync = scc.call('executeDeviceCommand', {
        body: { deviceUid: fmc, request: { commands: [{ method: 'GET', link }] } },
      });
      await sim.untilParked(1);
      sim.clock.advance(60_000);
      await sync;

      // ASA command line (scc-openapi-lookups.yaml): a packet-tracer and a refused command on two ASAs, the
      // transaction until DONE, the results of the execution and one result; refusals (400, 404).
      const cli = await scc.call('executeCliCommand', {
        body: {
          deviceUids: [asa, branch],
          script: 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443',
        },
      });
      sim.clock.advance(10_000);
      await scc.call('getTransaction', { path: { transactionUid: String(cli.data.transactionUid) } });
      const cliResults = await scc.call('getCliResults', {
        query: { q: `executionUid:${String(cli.data.entityUid)}`, sort: ['startTime:DESC'], limit: 10 },
      });
      await scc.call('getCliResult', { path: { cliResultUid: String(cliResults.data.items?.[0]?.uid) } });
      await scc.call('executeCliCommand', { body: { deviceUids: [asa], script: 'conf t' } });
      sim.clock.advance(10_000);
      const cliRefusals = await Promise.allSettled([
        scc.call('executeCliCommand', { body: { deviceUids: [ftd], script: 'show version' } }),
        scc.call('getCliResult', { path: { cliResultUid: '00000000-0000-4000-8000-000000000000' } }),
      ]);
      expect(cliRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Incident response (scc-openapi-response.yaml): one session read, a user's sessions and a headend's
      // ended, the sessions refreshed, an ASA reconnected and its new certificate accepted, one connector
      // read, each transaction until DONE; refusals (a device that is not a headend, an unknown session).
      const sessions = await scc.call('getRaVpnSessions', { query: { q: 'status:ACTIVE', limit: 5 } });
      const session = sessions.data.items?.[0];
      await scc.call('getRaVpnSession', { path: { raVpnSessionUid: String(session?.uid) } });
      await scc.call('getMfaEvents', { query: { q: 'result:DENIED', sort: ['timestamp:DESC'] } });
      await scc.call('terminateRaVpnSessionsByDeviceAndUserName', {
        path: { deviceUid: String(session?.deviceUid), userName: String(session?.username) },
      });
      await scc.call('terminateRaVpnSessionsByDevice', { path: { deviceUid: asa } });
      await scc.call('refreshRaVpnSessionsByDevice', { body: { deviceUids: [asa] } });
      await scc.call('reconnectAsaDevice', { path: { deviceUid: asa } });
      await scc.call('bulkAcceptAsaCertificates', { body: { deviceUids: [asa, branch] } });
      sim.clock.advance(10_000);
      const sdcs = await scc.call('getSdcs', {});
      await scc.call('getSdc', { path: { sdcUid: String(sdcs.data.items?.[0]?.uid) } });
      const responseRefusals = await Promise.allSettled([
        scc.call('terminateRaVpnSessionsByDevice', { path: { deviceUid: sim.deviceUid('ftd-lab-03') } }),
        scc.call('getRaVpnSession', { path: { raVpnSessionUid: '00000000-0000-4000-8000-000000000000' } }),
      ]);
      expect(responseRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Lookups (scc-openapi-lookups.yaml): access rules (searched, sorted, paged, one fetched: the seeded
      // shadowed and duplicate rules carry their issues), access groups, objects with their usages, the
      // global search; refusals the reference declares (400 on a field getObjects does not search, on a
      // blank search, 404 on rules and groups).
      const rules = await scc.call('listAccessRules', {
        query: { q: `entityUid:${asa} AND isActiveRule:true`, sort: ['index:ASC'], limit: 50 },
      });
      await scc.call('listAccessRules', {
        query: { q: 'ruleConfigurationText:*WEB-01*', offset: 1, limit: 2 },
      });
      await scc.call('fetchAccessRule', { path: { accessRuleUid: String(rules.data.items?.[0]?.uid) } });
      const groups = await scc.call('listAccessGroups', {
        query: { q: `entityUid:${asa}`, sort: ['name:ASC'] },
      });
      await scc.call('fetchAccessGroup', { path: { accessGroupUid: String(groups.data.items?.[0]?.uid) } });
      const objects = await scc.call('getObjects', {
        query: { q: 'name:WEB-01 OR content:172.20.*', limit: 10 },
      });
      await scc.call('getObjects', { query: { sort: 'name:ASC' } });
      for (const object of objects.data.items ?? []) {
        await scc.call('getObject', { path: { uid: String(object.uid) } });
        await scc.call('getObjectUsages', { path: { uid: String(object.uid) } });
      }
      await scc.call('search', { query: { q: 'WEB-01' } });
      await scc.call('search', { query: { q: 'asa' } });
      const lookupRefusals = await Promise.allSettled([
        scc.call('getObjects', { query: { q: 'description:web' } }),
        scc.call('search', { query: { q: ' ' } }),
        scc.call('fetchAccessRule', { path: { accessRuleUid: '00000000-0000-4000-8000-000000000000' } }),
        scc.call('fetchAccessGroup', { path: { accessGroupUid: '00000000-0000-4000-8000-000000000000' } }),
      ]);
      expect(lookupRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Governance (scc-openapi-governance.yaml): the tenant's settings, change requests (created, read,
      // searched), a deploy cancelled while PENDING; refusals the reference declares (400 on a name in use
      // and on a transaction already cancelled, 404 on an unknown change request, 422 on a type that
      // cannot be cancelled).
      await scc.call('getTenantSettings', {});
      const changeRequest = await scc.call('createChangeRequest', {
        body: { name: 'CHG0000001', description: 'contract' },
      });
      await scc.call('getChangeRequest', { path: { changeRequestUid: String(changeRequest.data.uid) } });
      await scc.call('getChangeRequests', { query: { q: 'name:CHG*', limit: 10, offset: 0 } });
      const toCancel = await scc.call('deployChangesToMultipleAsaDevices', {
        body: { deviceUids: [asa], description: 'CHG0000001: contract' },
      });
      await scc.call('cancelTransaction', { path: { transactionUid: String(toCancel.data.transactionUid) } });
      const governanceRefusals = await Promise.allSettled([
        scc.call('createChangeRequest', { body: { name: 'CHG0000001' } }),
        scc.call('getChangeRequest', { path: { changeRequestUid: '00000000-0000-4000-8000-000000000000' } }),
        scc.call('cancelTransaction', { path: { transactionUid: String(toCancel.data.transactionUid) } }),
        scc.call('cancelTransaction', {
          path: { transactionUid: String(commandsCalculation.data.transactionUid) },
        }),
      ]);
      expect(governanceRefusals.map((s) => s.status)).toEqual([
        'rejected',
        'rejected',
        'rejected',
        'rejected',
      ]);

      // MSP portal
      await scc.call('getMspManagedTenants', { query: { q: 'region:US OR region:EU', sort: ['name:ASC'] } });
      const northwind = sim.tenantUid('northwind-us');
      await scc.call('getMspManagedTenant', { path: { managedTenantUid: northwind } });
      await scc.call('createTenant', {
        body: { tenantName: 'contract-tenant', displayName: 'Contract', salesOrderNumber: 'SO-1' },
      });
      await scc.call('addMspTenant', {
        body: { apiToken: sim.mintTenantToken(sim.tenantUid('tyrell-apj')) },
      });
      await scc.call('addTenantToMspPortal', { path: { tenantUid: sim.tenantUid('stark-us') } });
      await scc.call('removeTenantFromMspPortal', { path: { tenantUid: sim.tenantUid('hooli-uae') } });
      await scc.call('getHumanUsersInMspManagedTenant', {
        path: { tenantUid: northwind },
        query: { q: 'roles:ROLE_SUPER_ADMIN' },
      });
      await scc.call('addUsersToTenantInMspPortal', {
        path: { tenantUid: northwind },
        body: {
          users: [
            {
              username: 'new.user@northwind.example',
              role: 'ROLE_READ_ONLY',
              firstName: 'New',
              lastName: 'User',
            },
          ],
        },
      });
      await scc.call('deleteUsersFromTenantInMspPortal', {
        path: { tenantUid: northwind },
        body: { usernames: ['northwind-us-automation'] },
      });
      await scc.call('enableMulticloudDefenseForTenantInMspPortal', {
        path: { tenantUid: sim.tenantUid('contoso-eu') },
      });
      const apiUser = sim.state.tenants.get(northwind)?.users.find((u) => u.apiOnly);
      await scc.call('generateApiTokenForUserInTenant', {
        path: { tenantUid: northwind, apiUserUid: String(apiUser?.uid) },
      });
      const globex = sim.tenantUid('globex-apj');
      const cdFmc = await scc.call('provisionCdFmcForTenantInMspPortal', {
        path: { tenantUid: globex },
        body: { dedicatedCdFmcInstance: true },
      });
      const targetUid = String(cdFmc.data.transactionDetails?.TRANSACTION_UID_IN_TARGET_TENANT);
      const tenantClient = client(sim.mintTenantToken(globex));
      await tenantClient.call('getTransaction', { path: { transactionUid: targetUid } });

      // MSP portal reach (scc-openapi-msp.yaml): devices and Secure Client across managed
      // tenants (results read while running and once finished), API-only users, revoke, and refusals.
      const mspAsas = [sim.deviceUid('nw-asa-hq'), sim.deviceUid('globex-asa-01')];
      await scc.call('getMspManagedDevices', {
        query: { q: 'deviceType:ASA', sort: ['name:ASC'], limit: 5 },
      });
      const windowed = sim.state.devices.get(sim.deviceUid('nw-asa-hq'));
      if (windowed !== undefined)
        windowed.maintenanceWindow = { startCron: '0 2 * * *', durationMinutes: 30 };
      await scc.call('getMspManagedDevice', { path: { deviceUid: sim.deviceUid('nw-asa-hq') } });
      await scc.call('getMspDeviceSecureClientPackages', {
        path: { deviceUid: sim.deviceUid('nw-asa-hq') },
        query: { q: 'os:WINDOWS', sort: ['fileName:ASC'] },
      });
      const calculation = await scc.call('calculateMspCompatibleSecureClientVersions', {
        body: { deviceUids: mspAsas },
      });
      const compatibilityInfoUid = String(calculation.data.entityUid);
      await scc.call('getMspCompatibleSecureClientVersions', { path: { compatibilityInfoUid } });
      const mspUpgrade = await scc.call('upgradeMspManagedAsaSecureClientPackages', {
        body: {
          deviceUids: mspAsas,
          version: '5.1.8.105',
          name: 'contract-msp',
          platforms: [{ os: 'WINDOWS', cpuArchitecture: 'X86_64' }],
        },
      });
      const mspRunUid = String(mspUpgrade.data.entityUid);
      await scc.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: mspRunUid } });
      const invalidUpgrade = await scc.call('upgradeMspManagedAsaSecureClientPackages', {
        body: { deviceUids: [sim.deviceUid('globex-asa-02')], version: '5.1.2.42' },
      });
      sim.clock.advance(15 * 60_000);
      await scc.call('getMspCompatibleSecureClientVersions', { path: { compatibilityInfoUid } });
      await scc.call('getMspSecureClientUpgradeRun', { path: { upgradeRunUid: mspRunUid } });
      await scc.call('getMspSecureClientUpgradeRun', {
        path: { upgradeRunUid: String(invalidUpgrade.data.entityUid) },
      });
      await scc.call('getMspSecureClientUpgradeRuns', {
        query: { q: 'upgradeRunStatus:DONE*', sort: ['submissionTime:DESC'], limit: 10 },
      });
      await scc.call('getMspSecureClientUpgradeRunsAttributeValues', {});
      await scc.call('getApiOnlyUsersInMspManagedTenant', {
        path: { tenantUid: northwind },
        query: { q: 'name:*automation', limit: 10 },
      });
      await scc.call('revokeTenantFromMspPortal', { path: { tenantUid: sim.tenantUid('initech-aus') } });
      const mspRefusals = await Promise.allSettled([
        scc.call('getMspManagedDevice', { path: { deviceUid: '00000000-0000-4000-8000-000000000000' } }),
        scc.call('calculateMspCompatibleSecureClientVersions', {
          body: { deviceUids: ['00000000-0000-4000-8000-000000000000'] },
        }),
        scc.call('upgradeMspManagedAsaSecureClientPackages', {
          body: { deviceUids: mspAsas, version: '0.0.1' },
        }),
        client('sim-read-only').call('upgradeMspManagedAsaSecureClientPackages', {
          body: { deviceUids: mspAsas, version: '5.1.8.105' },
        }),
        scc.call('getMspSecureClientUpgradeRun', {
          path: { upgradeRunUid: '00000000-0000-4000-8000-000000000000' },
        }),
        scc.call('getMspCompatibleSecureClientVersions', {
          path: { compatibilityInfoUid: '00000000-0000-4000-8000-000000000000' },
        }),
        scc.call('revokeTenantFromMspPortal', { path: { tenantUid: sim.tenantUid('wayne-eu') } }),
        client('sim-admin').call('revokeTenantFromMspPortal', { path: { tenantUid: northwind } }),
        tenantClient.call('getMspDeviceSecureClientPackages', {
          path: { deviceUid: sim.deviceUid('nw-asa-hq') },
        }),
      ]);
      expect(mspRefusals.every((s) => s.status === 'rejected')).toBe(true);

      // Firewall software upgrades: versions, a stage-only run continued by an upgrade, an FTD run, the
      // package cache, renaming and deleting runs, and the MSP portal's versions, upgrades and runs.
      const branchAsa = sim.deviceUid('asa-branch-02');
      const dcAsa = sim.deviceUid('asa-dc-03');
      const edge2 = sim.deviceUid('ftd-edge-02');
      await scc.call('getAsaUpgradeVersions', { path: { deviceUid: branchAsa } });
      await scc.call('getCompatibleAsaVersionsForMultipleAsas', {
        query: { deviceUids: [branchAsa, dcAsa] },
      });
      await scc.call('getCompatibleFtdVersions', { path: { deviceUid: edge2 } });
      await scc.call('getCompatibleFtdVersionsForMultipleFtds', { query: { deviceUids: [edge2] } });
      const ftdPackage = await scc.call('getCompatibleFtdVersions', { path: { deviceUid: edge2 } });
      const packageUid = String(
        ftdPackage.data.items?.find((v) => v.softwareVersion === '7.4.2')?.upgradePackageUid,
      );
      const staged = await scc.call('upgradeAsaDevice', {
        path: { deviceUid: branchAsa },
        body: { softwareVersion: '9.20.3', stageUpgrade: true, name: 'contract-stage' },
      });
      const stagedRun = String(staged.data.entityUid);
      await scc.call('getDeviceUpgradeRun', { path: { upgradeRunUid: stagedRun } });
      await scc.call('modifyDeviceUpgradeRun', {
        path: { upgradeRunUid: stagedRun },
        body: { name: 'contract-staged' },
      });
      await scc.call('updateFtdUpgradePackagesCache', {});
      sim.clock.advance(5 * 60_000);
      await scc.call('upgradeAsaDevices', {
        body: { deviceUids: [branchAsa, dcAsa], softwareVersion: '9.20.3' },
      });
      const ftdRun = await scc.call('upgradeFtdDevice', {
        path: { deviceUid: edge2 },
        body: { upgradePackageUid: packageUid, stageUpgrade: true },
      });
      const ftdRefusals = await Promise.allSettled([
        scc.call('upgradeFtdDevice', { path: { deviceUid: edge2 }, body: { upgradePackageUid: packageUid } }),
        scc.call('upgradeFtdDevices', { body: { deviceUids: [edge2], upgradePackageUid: packageUid } }),
      ]);
      expect(ftdRefusals.every((r) => r.status === 'rejected')).toBe(true);
      await scc.call('getDeviceUpgradeRuns', {
        query: { q: 'upgradeRunType:ASA_DEVICE_UPGRADE', limit: 10 },
      });
      await scc.call('deleteDeviceUpgradeRun', { path: { uid: String(ftdRun.data.entityUid) } });
      await scc.call('upgradeFtdDevices', {
        body: {
          deviceUids: [sim.deviceUid('ftd-lab-03')],
          upgradePackageUid: String(
            (await scc.call('getCompatibleFtdVersions', { path: { deviceUid: sim.deviceUid('ftd-lab-03') } }))
              .data.items?.[0]?.upgradePackageUid,
          ),
        },
      });
      await scc.call('getMspAsaCompatibleUpgradeVersions', {
        query: { deviceUids: [sim.deviceUid('nw-asa-hq'), sim.deviceUid('globex-asa-01')] },
      });
      const ftdCalculation = await scc.call('calculateMspFtdCompatibleUpgradeVersions', {
        body: { deviceUids: [sim.deviceUid('nw-ftd-edge')] },
      });
      const upgradeVersionUid = String(ftdCalculation.data.entityUid);
      await scc.call('getMspFtdCompatibleUpgradeVersions', { path: { upgradeVersionUid } });
      const mspAsaRun = await scc.call('upgradeMspManagedAsaDevices', {
        body: {
          deviceUids: [sim.deviceUid('nw-asa-hq'), sim.deviceUid('globex-asa-01')],
          softwareVersion: '9.20.3',
          stageUpgradeOnly: true,
        },
      });
      const mspFtdRun = await scc.call('upgradeMspManagedFtdDevices', {
        body: {
          deviceUids: [sim.deviceUid('nw-ftd-edge')],
          softwareVersion: '7.4.2',
        },
      });
      await scc.call('getMspDeviceUpgradeRun', { path: { uid: String(mspFtdRun.data.entityUid) } });
      sim.clock.advance(30 * 60_000);
      await scc.call('getMspFtdCompatibleUpgradeVersions', { path: { upgradeVersionUid } });
      await scc.call('getMspDeviceUpgradeRuns', {
        query: { q: 'upgradeRunType:FTD_DEVICE_UPGRADE', limit: 5 },
      });
      await scc.call('getMspDeviceUpgradeRunsAttributeValues', {});
      await scc.call('getDeviceUpgradeRuns', {});
      await scc.call('deleteMspDeviceUpgradeRun', { path: { uid: String(mspAsaRun.data.entityUid) } });
      // Access changes (scc-openapi-access.yaml), staged on asa-dc-03: a group, a rule in it, moved and
      // disabled, objects with and without targets, their duplicates, targets and issues, then removed.
      const dc = sim.deviceUid('asa-dc-03');
      const createdGroup = await scc.call('createAccessGroup', {
        body: {
          entityUid: dc,
          name: 'storage_access_in',
          resources: [{ interface: { interfaceName: 'storage', direction: 'INBOUND' } }],
        },
      });
      const accessGroupUid = String(createdGroup.data.uid);
      await scc.call('patchAccessGroup', { path: { accessGroupUid }, body: { name: 'storage_in' } });
      const vendor = await scc.call('createObject', {
        body: {
          name: 'VENDOR-NET',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.0/28' } },
          targetIds: [dc],
        },
      });
      const vendorUid = String(vendor.data.uid);
      const createdRule = await scc.call('createAccessRule', {
        body: {
          accessGroupUid,
          entityUid: dc,
          index: 1,
          ruleAction: 'PERMIT',
          protocol: { name: 'tcp' },
          sourceNetwork: { name: 'VENDOR-NET', uid: vendorUid },
          destinationNetwork: { name: 'any' },
          destinationPort: { name: '443' },
          remark: 'contract',
        },
      });
      const accessRuleUid = String(createdRule.data.uid);
      await scc.call('modifyAccessRule', {
        path: { accessRuleUid },
        body: { uid: accessRuleUid, isActiveRule: false },
      });
      await scc.call('modifyObject', { path: { uid: vendorUid }, body: { description: 'vendor range' } });
      await scc.call('getDuplicateObjects', { path: { uid: vendorUid }, query: { targetUid: dc } });
      await scc.call('getTargets', { path: { uid: vendorUid }, query: { q: 'targetType:ASA' } });
      await scc.call('createTargets', { path: { uid: vendorUid }, body: { targetsUuids: [asa] } });
      await scc.call('getIssuesCount', { query: { q: 'name:VENDOR*' } });
      const spare = await scc.call('createObject', {
        body: {
          name: 'SPARE',
          value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: '192.0.2.99' } },
        },
      });
      await scc.call('deleteAccessRule', { path: { accessRuleUid } });
      await scc.call('deleteAccessGroup', { path: { accessGroupUid } });
      await scc.call('deleteObject', {
        path: { uid: String(spare.data.uid) },
        query: { forcedDelete: false },
      });
      const accessRefusals = await Promise.allSettled([
        scc.call('createAccessRule', { body: { accessGroupUid, entityUid: dc, index: 99 } }),
        scc.call('createObject', {
          body: { name: 'SVC', value: { objectType: 'SERVICE_OBJECT', defaultContent: { protocol: 'TCP' } } },
        }),
        // PARTNER-NET is named by a deny of asa-dc-03: in use, not deleted.
        scc
          .call('getObjects', { query: { q: 'name:PARTNER-NET' } })
          .then(({ data }) => scc.call('deleteObject', { path: { uid: String(data.items?.[0]?.uid) } })),
      ]);
      expect(accessRefusals.every((r) => r.status === 'rejected')).toBe(true);

      // A few refusals on operations that declare them: still CommonApiError bodies. (createTenant's 429
      // is not among its declared statuses, so the duplicate is sent after the 30-second limit.)
      sim.clock.advance(30_000);
      const refusals: Promise<unknown>[] = [
        scc.call('getDevice', { path: { deviceUid: '00000000-0000-4000-8000-000000000000' } }),
        scc.call('createTenant', { body: { tenantName: 'northwind-us' } }),
        scc.call('createAsaVlanInterface', { path: { deviceUid: asa }, body: { vlanId: 5000 } }),
        scc.call('getTransaction', { path: { transactionUid: '00000000-0000-4000-8000-000000000000' } }),
      ];
      const settled = await Promise.allSettled(refusals);
      expect(settled.every((s) => s.status === 'rejected')).toBe(true);

      const contract = loadOpenApiContract();
      const answered = () =>
        new Set(
          exchanges.flatMap((e) => (e.status < 400 ? [contract.matchOperation(e.method, e.path)] : [])),
        );

      // Operations no step above reached: through the plain reads that declare them, each from its first
      // example, on the seeded world again.
      sim.reset();
      const catalogue = createCatalogue();
      const unreached = (ids: readonly string[]) => ids.filter((id) => !answered().has(id));
      const readsOfUnreached = plainReads(catalogue).filter((op) => unreached(op.scc).length > 0);
      const failedExamples: string[] = [];
      for (const op of readsOfUnreached) {
        if (unreached(op.scc).length === 0) continue;
        const example = runnableExample(catalogue, op);
        const ctx = {
          scc: client(),
          profile: 'default',
          actor: { userId: 'U0CONTRACT', channelId: 'C0CONTRACT' },
          requestId: 'req-contract',
          log: pino({ level: 'silent' }),
          now: () => Date.now(),
          ...(op.needs.length > 0 ? { services: memoryServices() } : {}),
        };
        await op.execute(ctx, catalogue.parse(example).raw).catch((error: unknown) => {
          failedExamples.push(`/fw ${example}: ${error instanceof Error ? error.message : String(error)}`);
        });
      }

      const covered = new Set<string>();
      const violations: string[] = [];
      for (const exchange of exchanges) {
        const operationId = contract.matchOperation(exchange.method, exchange.path);
        if (operationId === undefined) {
          violations.push(`${exchange.method} ${exchange.path}: no operation of the reference`);
          continue;
        }
        if (exchange.status < 400) covered.add(operationId);
        for (const v of contract.validateResponse(operationId, exchange.status, exchange.body)) {
          violations.push(`${operationId} ${exchange.status}: ${v}`);
        }
      }
      const missing = sccOperationIds.filter((id) => !covered.has(id));
      console.log(
        `simulator contract: ${covered.size}/${sccOperationIds.length} operations, ${violations.length} violations`,
      );
      expect(violations).toEqual([]);
      expect({ missing, failedExamples }).toEqual({ missing: [], failedExamples: [] });
    },
  );
});
