// Transactions: the PENDING → IN_PROGRESS → DONE/ERROR walk on the simulated clock, 202 while running and
// 200 once finished, two-hour expiry after the last update, tenant visibility, and cdFMC's two legs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type CallOptions, obj, type RawResponse, simulator, str } from './support.js';

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

beforeEach(async () => {
  ({ sim, api } = await simulator());
});
afterEach(async () => {
  await sim.stop();
});

const poll = (uid: string, token?: string) =>
  api('GET', `/v1/transactions/${uid}`, token === undefined ? {} : { token });

describe('transactions', () => {
  it('walk PENDING → IN_PROGRESS → DONE, answering 202 until finished and then 200', async () => {
    const started = await api('POST', `/v1/msp/tenants/${sim.tenantUid('contoso-eu')}/mcd`);
    expect(started.status).toBe(202);
    const tx = obj(started);
    expect(tx).toMatchObject({
      cdoTransactionStatus: 'PENDING',
      transactionType: 'MSP_ENABLE_MULTICLOUD_DEFENSE',
    });
    expect(tx.entityUid).toBe(sim.tenantUid('contoso-eu'));
    expect(tx.tenantUid).toBe(sim.state.portalUid);
    expect(tx.transactionPollingUrl).toBe(`${sim.url}/v1/transactions/${str(tx.transactionUid)}`);
    expect(tx.submissionTime).toBe(new Date(sim.clock.now()).toISOString());

    const uid = str(tx.transactionUid);
    sim.clock.advance(2_000);
    const running = await poll(uid);
    expect(running.status).toBe(202);
    expect(obj(running).cdoTransactionStatus).toBe('IN_PROGRESS');

    sim.clock.advance(120_000);
    const done = await poll(uid);
    expect(done.status).toBe(200);
    expect(obj(done).cdoTransactionStatus).toBe('DONE');
    expect(Date.parse(str(obj(done).lastUpdatedTime))).toBeGreaterThan(Date.parse(str(tx.submissionTime)));
    expect(sim.state.tenants.get(sim.tenantUid('contoso-eu'))?.mcdEnabled).toBe(true);
  });

  it('end in ERROR with an errorMessage when the work fails (a tenant name containing "fail")', async () => {
    const started = obj(await api('POST', `/v1/msp/tenants/${sim.tenantUid('failing-labs-in')}/mcd`));
    sim.clock.advance(10 * 60_000);
    const finished = await poll(str(started.transactionUid));
    expect(finished.status).toBe(200);
    expect(obj(finished)).toMatchObject({ cdoTransactionStatus: 'ERROR' });
    expect(str(obj(finished).errorMessage)).toContain('failing-labs-in');
  });

  it('are gone (404) two simulated hours after their last update, not before', async () => {
    const started = obj(await api('POST', `/v1/msp/tenants/${sim.tenantUid('contoso-eu')}/mcd`));
    const uid = str(started.transactionUid);
    sim.clock.advance(10 * 60_000);
    const finished = obj(await poll(uid));
    const lastUpdate = Date.parse(str(finished.lastUpdatedTime));
    sim.clock.advance(lastUpdate + 2 * 3_600_000 - 1 - sim.clock.now());
    expect((await poll(uid)).status).toBe(200);
    sim.clock.advance(1);
    const gone = await poll(uid);
    expect(gone.status).toBe(404);
    expect(obj(gone).errorCode).toBe('NOT_FOUND');
  });

  it('answer 400 for a malformed UUID and 404 for an unknown one', async () => {
    const bad = await poll('not-a-uuid');
    expect(bad.status).toBe(400);
    expect(obj(bad)).toMatchObject({
      errorCode: 'INVALID_INPUT',
      details: { transactionUid: { value: 'not-a-uuid' } },
    });
    expect((await poll('6e3492c6-083a-4ead-9da9-cd2db32a965d')).status).toBe(404);
  });

  it("are visible only with a token of the transaction's tenant", async () => {
    const started = obj(await api('POST', `/v1/msp/tenants/${sim.tenantUid('contoso-eu')}/mcd`));
    const tenantToken = sim.mintTenantToken(sim.tenantUid('contoso-eu'));
    expect((await poll(str(started.transactionUid), tenantToken)).status).toBe(404);
    expect((await poll(str(started.transactionUid), 'sim-read-only')).status).toBe(202);
  });
});

describe('cdFMC provisioning', () => {
  it('is DONE on the portal at once and runs on in the target tenant, visible with its token', async () => {
    const globex = sim.tenantUid('globex-apj');
    const started = await api('POST', `/v1/msp/tenants/${globex}/cdfmc`, {
      body: { dedicatedCdFmcInstance: true },
    });
    expect(started.status).toBe(202);
    const portalTx = obj(started);
    expect(portalTx.cdoTransactionStatus).toBe('DONE');
    expect(portalTx.transactionType).toBe('MSP_PROVISION_CDFMC');
    const targetUid = str(
      (portalTx.transactionDetails as Record<string, unknown>).TRANSACTION_UID_IN_TARGET_TENANT,
    );
    expect((await poll(str(portalTx.transactionUid))).status).toBe(200);

    expect((await poll(targetUid)).status).toBe(404);
    const tenantToken = sim.mintTenantToken(globex);
    const target = await poll(targetUid, tenantToken);
    expect(target.status).toBe(202);
    expect(obj(target)).toMatchObject({ tenantUid: globex, cdoTransactionStatus: 'PENDING' });

    sim.clock.advance(5_000);
    expect(obj(await poll(targetUid, tenantToken)).cdoTransactionStatus).toBe('IN_PROGRESS');
    sim.clock.advance(12 * 60_000);
    const done = await poll(targetUid, tenantToken);
    expect(done.status).toBe(200);
    expect(obj(done).cdoTransactionStatus).toBe('DONE');
    expect(obj(await api('GET', `/v1/msp/tenants/${globex}`)).cdFmcType).toBe('DEDICATED');
  });

  it('fails on the target leg for a tenant whose name contains "fail"', async () => {
    const tenant = sim.tenantUid('failing-labs-in');
    const portalTx = obj(await api('POST', `/v1/msp/tenants/${tenant}/cdfmc`));
    expect(portalTx.cdoTransactionStatus).toBe('DONE');
    const targetUid = str(
      (portalTx.transactionDetails as Record<string, unknown>).TRANSACTION_UID_IN_TARGET_TENANT,
    );
    sim.clock.advance(20 * 60_000);
    const target = obj(await poll(targetUid, sim.mintTenantToken(tenant)));
    expect(target.cdoTransactionStatus).toBe('ERROR');
    expect(obj(await api('GET', `/v1/msp/tenants/${tenant}`)).cdFmcType).toBe('UNPROVISIONED');
  });

  it('fails on the target leg when a cdFMC is already provisioned, and refuses a second run while one runs', async () => {
    const contoso = sim.tenantUid('contoso-eu');
    const portalTx = obj(
      await api('POST', `/v1/msp/tenants/${contoso}/cdfmc`, { body: { dedicatedCdFmcInstance: false } }),
    );
    expect((await api('POST', `/v1/msp/tenants/${contoso}/cdfmc`)).status).toBe(409);
    const targetUid = str(
      (portalTx.transactionDetails as Record<string, unknown>).TRANSACTION_UID_IN_TARGET_TENANT,
    );
    sim.clock.advance(20 * 60_000);
    const target = obj(await poll(targetUid, sim.mintTenantToken(contoso)));
    expect(target).toMatchObject({ cdoTransactionStatus: 'ERROR' });
    expect(str(target.errorMessage)).toContain('already provisioned');
  });

  it('refuses a body without dedicatedCdFmcInstance', async () => {
    const response = await api('POST', `/v1/msp/tenants/${sim.tenantUid('globex-apj')}/cdfmc`, { body: {} });
    expect(response.status).toBe(400);
    expect(obj(response).details).toHaveProperty('dedicatedCdFmcInstance');
  });
});
