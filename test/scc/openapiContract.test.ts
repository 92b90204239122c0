// The contract helper itself (test/support/openapiContract.ts): that it finds what is wrong with a request
// or a response, so a contract test built on it can fail. Skips, saying why, without the reference.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { clientSources } from '../../scripts/scc-reference.js';
import {
  type CapturedRequest,
  contractSkipReason,
  loadOpenApiContract,
  REFERENCE_PATH,
} from '../support/openapiContract.js';

const UID = '6131daad-e813-4b8f-8f42-be1e241e8cdb';
const UID2 = '0b6a3c1e-9f3c-4d65-a0a4-0c2c8e6a1f00';

const get = (path: string, query = ''): CapturedRequest => ({
  method: 'GET',
  path,
  query: new URLSearchParams(query),
  body: undefined,
});
const post = (path: string, body: unknown): CapturedRequest => ({
  method: 'POST',
  path,
  query: new URLSearchParams(),
  body,
});

describe('contract helper without the reference', () => {
  it('gives a reason to print and refuses to load', () => {
    const missing = '/nowhere/scc-openapi-subset.yaml';

    expect(contractSkipReason(missing)).toBe(
      `skipped: ${missing} not found (the SCC OpenAPI reference is not part of the repository)`,
    );
    expect(() => loadOpenApiContract(missing)).toThrow(`skipped: ${missing} not found`);
  });
});

const skipReason = contractSkipReason();
if (skipReason) process.stdout.write(`contract helper: ${skipReason}\n`);

(skipReason ? describe.skip : describe)(`contract helper over ${REFERENCE_PATH}`, () => {
  const contract = skipReason ? undefined : loadOpenApiContract();
  const c = (): NonNullable<typeof contract> => {
    if (!contract) throw new Error('the reference was not loaded');
    return contract;
  };

  describe('operations', () => {
    it('lists every operation of the client cuts (of a cut named with `only`, those), and their routes', () => {
      const inFiles = clientSources().flatMap(({ path, only }) => {
        const file = parseYaml(readFileSync(path, 'utf8')) as {
          paths: Record<string, Record<string, { operationId?: string }>>;
        };
        const ids = Object.values(file.paths).flatMap((item) =>
          Object.values(item).flatMap((op) => op.operationId ?? []),
        );
        return only ? ids.filter((id) => only.includes(id)) : ids;
      });
      expect(c().listOperationIds()).toEqual([...new Set(inFiles)].sort());
      expect(c().route('getDevice')).toEqual({ method: 'GET', path: '/v1/inventory/devices/{deviceUid}' });
    });

    it('routes a request to its operation, literal segments before parameters', () => {
      expect(c().matchOperation('POST', '/v1/msp/tenants/create')).toBe('createTenant');
      expect(c().matchOperation('POST', `/v1/msp/tenants/${UID}`)).toBe('addTenantToMspPortal');
      expect(
        c().matchOperation('GET', '/v1/inventory/devices/secure-client/upgrades/runs/attribute-values'),
      ).toBe('getSecureClientUpgradeRunsAttributeValues');
      expect(c().matchOperation('PUT', '/v1/inventory/devices')).toBeUndefined();
    });
  });

  describe('validateRequest', () => {
    it('accepts a request the reference describes', () => {
      const request = get(
        '/v1/inventory/devices',
        'limit=10&offset=0&q=name%3Afw*&sort=name%3AASC&sort=uid%3ADESC',
      );

      expect(c().validateRequest('getDevices', request)).toEqual([]);
    });

    it('reports the wrong method and a path that does not fit the template', () => {
      expect(c().validateRequest('getDevices', { ...get('/v1/inventory/device'), method: 'POST' })).toEqual([
        'method: POST where the reference says GET',
        'path: /v1/inventory/device does not match /v1/inventory/devices',
      ]);
    });

    it('checks path parameters against their schema after decoding them', () => {
      expect(c().validateRequest('getDevice', get('/v1/inventory/devices/fw-01'))).toEqual([
        'path.deviceUid must match format "uuid"',
      ]);
      expect(c().validateRequest('getDevice', get('/v1/inventory/devices/%E0%A4%A'))).toEqual([
        'path.deviceUid: is not valid percent-encoding',
      ]);
    });

    it('checks repeated array parameters item by item, with their count and uniqueness', () => {
      const versions = '/v1/inventory/devices/asas/secure-client/upgrades/versions';
      const many = Array.from(
        { length: 51 },
        (_, i) => `deviceUids=00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );

      expect(
        c().validateRequest(
          'getAsaCompatibleSecureClientVersions',
          get(versions, `deviceUids=${UID}&deviceUids=${UID2}`),
        ),
      ).toEqual([]);
      expect(c().validateRequest('getAsaCompatibleSecureClientVersions', get(versions))).toEqual([
        'query.deviceUids: is required',
      ]);
      expect(
        c().validateRequest(
          'getAsaCompatibleSecureClientVersions',
          get(versions, `deviceUids=${UID},${UID2}`),
        ),
      ).toEqual(['query.deviceUids/0 must match format "uuid"']);
      expect(
        c().validateRequest(
          'getAsaCompatibleSecureClientVersions',
          get(versions, `deviceUids=${UID}&deviceUids=${UID}`),
        ),
      ).toEqual(['query.deviceUids must NOT have duplicate items (items ## 1 and 0 are identical)']);
      expect(
        c().validateRequest('getAsaCompatibleSecureClientVersions', get(versions, many.join('&'))),
      ).toEqual(['query.deviceUids must NOT have more than 50 items']);
    });

    it('reports a single-valued parameter given twice and a parameter the operation does not have', () => {
      expect(
        c().validateRequest('getDevices', get('/v1/inventory/devices', 'limit=1&limit=2&pageSize=3')),
      ).toEqual([
        'query.limit: given 2 times but takes one value',
        'query.pageSize: is not a parameter of getDevices',
      ]);
    });

    it('checks the request body, including OpenAPI nullable', () => {
      const command = (body: unknown) => ({
        deviceUid: UID,
        request: { commands: [{ method: 'GET', link: '/api', body }] },
      });

      expect(
        c().validateRequest('executeDeviceCommand', post('/v1/fmc/gateway/command', command(null))),
      ).toEqual([]);
      expect(
        c().validateRequest('executeDeviceCommand', post('/v1/fmc/gateway/command', command(7))),
      ).toEqual(['body/request/commands/0/body must be string']);
      expect(c().validateRequest('executeDeviceCommand', post('/v1/fmc/gateway/command', undefined))).toEqual(
        ['body: is required'],
      );
      expect(
        c().validateRequest('createTenant', post('/v1/msp/tenants/create', { displayName: 'x' })),
      ).toEqual(["body must have required property 'tenantName'"]);
      expect(c().validateRequest('getDevices', { ...get('/v1/inventory/devices'), body: {} })).toEqual([
        'body: getDevices takes no request body',
      ]);
    });
  });

  describe('validateResponse', () => {
    it('reads deployed changes by their deploymentType (the documented correction of a self-contradiction)', () => {
      const asa = {
        deploymentType: 'ASA_DEVICE_DEPLOY',
        deviceUid: UID,
        initialConfig: 'a',
        deployedConfig: 'b',
      };
      const ftd = { deploymentType: 'FTD_DEVICE_DEPLOY', changeType: 'UPDATE', name: 'outside' };

      expect(c().validateResponse('getChangesDeployedInDeploymentRun', 200, [asa, ftd])).toEqual([]);
      expect(
        c().validateResponse('getChangesDeployedInDeploymentRun', 200, [{ ...asa, initialConfig: 5 }]),
      ).toContain('body/0/initialConfig must be string');
      expect(
        c().validateResponse('getChangesDeployedInDeploymentRun', 200, [{ ...ftd, changeType: 'MOVE' }]),
      ).not.toEqual([]);
    });

    it('checks a success body against its schema', () => {
      expect(
        c().validateResponse('getMspManagedTenant', 200, {
          uid: UID,
          name: 'a',
          displayName: 'A',
          region: 'US',
        }),
      ).toEqual([]);
      expect(
        c().validateResponse('getMspManagedTenant', 200, { name: 'a', displayName: 'A', region: 'US' }),
      ).toEqual(["body must have required property 'uid'"]);
    });

    it('resolves $ref responses such as http400BadRequest and http401Unauthorised', () => {
      expect(c().validateResponse('getDevices', 400, { errorCode: 'INVALID_INPUT', errorMsg: 'q' })).toEqual(
        [],
      );
      expect(c().validateResponse('getDevices', 400, { errorCode: 'OOPS' })[0]).toMatch(
        /^body\/errorCode must be equal to one of the allowed values/,
      );
      expect(
        c().validateResponse('getDevices', 401, { error: 'invalid_token', errorDescription: 'expired' }),
      ).toEqual([]);
    });

    it('reports a status the operation does not declare, and a body where none is declared', () => {
      expect(c().validateResponse('getDevice', 418, {})).toEqual([
        'status: 418 is not declared by getDevice (declared: 200, 400, 401, 403, 404, 405, 500)',
      ]);
      expect(c().validateResponse('removeTenantFromMspPortal', 204, undefined)).toEqual([]);
      expect(c().validateResponse('removeTenantFromMspPortal', 204, {})).toEqual([
        'body: status 204 declares no content',
      ]);
    });

    it('accepts any JSON where the content has no schema', () => {
      expect(c().validateResponse('executeDeviceCommand', 200, { anything: [1, 'two'] })).toEqual([]);
    });
  });

  describe('examples', () => {
    it('returns the examples under each response, by name', () => {
      expect(
        c()
          .responseExamples('executeDeviceCommand')
          .map((e) => `${e.status} ${e.name}`),
      ).toEqual(['200 responded', '200 timeout']);
    });

    it('assembles an example from the example keywords of a schema, as documentation shows it', () => {
      const page = c()
        .schemaExamples('getHumanUsersInMspManagedTenant')
        .find((example) => example.status === '200');

      // The vendor's example for User.roles, a documented flaw: a string where the schema says array.
      expect(page?.value).toMatchObject({ items: [{ roles: '[ROLE_ADMIN]' }] });
    });
  });
});
