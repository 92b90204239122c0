import { describe, expect, it } from 'vitest';
import { SccUserError } from '../../src/catalogue/sccErrors.js';
import { UserError } from '../../src/model/errors.js';
import { useSimulator } from './harness.js';

const h = useSimulator();

async function failure(text: string, token?: string): Promise<SccUserError> {
  const error = await h.run(text, { token }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SccUserError)) throw new Error(`expected an SCC error, got ${String(error)}`);
  return error;
}

describe('SCC errors as sentences', () => {
  it('400: an unsearchable field, with the fields SCC lists', async () => {
    const error = await failure('tenants list colour:blue');
    expect(error.message).toBe(
      "Could not list the tenants. SCC refused the request (400 INVALID_INPUT): Field 'colour' is not searchable. Searchable fields: uid, name, displayName, region, cdFmcType, complianceStatus, tenantPayType, deviceCount",
    );
    expect(error).toMatchObject({
      status: 400,
      errorCode: 'INVALID_INPUT',
      operationId: 'getMspManagedTenants',
    });
  });

  it('403: a read-only token asking for a change', async () => {
    const error = await failure('tenants create acme-eu', 'sim-read-only');
    expect(error.message).toMatch(
      /^Could not create the tenant\. SCC refused the request \(403 FORBIDDEN\): Only a super-admin/,
    );
  });

  it('404: an unknown gateway request', async () => {
    const error = await failure('gateway result 00000000-0000-4000-8000-000000000000');
    expect(error.message).toBe(
      'Could not read the answer to the gateway request. SCC refused the request (404 NOT_FOUND): No command request 00000000-0000-4000-8000-000000000000',
    );
  });

  it('409: a tenant name taken outside the MSP portal, which the read before cannot see', async () => {
    const error = await failure('tenants create stark-us');
    expect(error.status).toBe(409);
    expect(error.message).toBe(
      'Could not create the tenant. SCC refused the request (409 CONFLICT): A tenant named stark-us already exists',
    );
  });

  it('429: a second tenant within 30 seconds, saying when to try again', async () => {
    await h.run('tenants create acme-one');
    const error = await failure('tenants create acme-two');
    expect(error.message).toMatch(
      /^Could not create the tenant\. SCC is limiting the rate of requests \(429 TOO_MANY_REQUESTS\): .* Try again in \d+ s\.$/,
    );
  });

  it('500: a server error, warning that a change may have been applied', async () => {
    h.sim.faults.add({ path: '/v1/msp/tenants/create', method: 'POST', status: 500 });
    const error = await failure('tenants create acme-eu');
    expect(error.message).toMatch(
      /^Could not create the tenant\. SCC could not handle the request \(500 SERVER_ERROR\).* It may still have been applied: check before trying again\.$/,
    );
  });

  it('500 on a read: says what failed, with no warning about changes', async () => {
    h.sim.faults.add({ path: '/v1/inventory/devices', method: 'GET', status: 500 });
    const error = await failure('devices');
    expect(error.message).toMatch(/^Could not list the devices\. SCC could not handle/);
    expect(error.message).not.toContain('applied');
  });

  it('400: says why each device is not eligible for an upgrade, from the reasons SCC gives', async () => {
    const one = await failure('vpn upgrade asa-branch-02 --version 5.1.15.287');
    expect(one.message).toBe(
      'Could not start the Secure Client upgrade. SCC refused the request (400 INVALID_INPUT): 1 device is not eligible for Secure Client 5.1.15.287: asa-branch-02. ' +
        'asa-branch-02 runs ASA software 9.14.4; Secure Client 5.1.15.287 needs 9.18 or later.',
    );
    await h.run('vpn upgrade asa-hq-01 --version 5.1.15.287');
    const two = await failure('vpn upgrade asa-hq-01 asa-branch-02 --version 5.1.15.287');
    expect(two.message).toMatch(
      /: 2 devices are not eligible for Secure Client 5\.1\.15\.287: asa-hq-01, asa-branch-02\. asa-hq-01 is already in a running Secure Client upgrade\. asa-branch-02 runs ASA software 9\.14\.4; /,
    );
  });

  it('keeps the client error as the cause, for the log', async () => {
    const error = await failure('gateway result 00000000-0000-4000-8000-000000000000');
    expect(error.cause).toMatchObject({ name: 'SccApiError', status: 404 });
    expect(error).toBeInstanceOf(UserError);
  });
});
