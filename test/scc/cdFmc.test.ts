// Following a cdFMC provisioning: the one-step function a queue worker uses, and the follower that polls the
// portal's transaction until it is DONE and hands over the managed tenant's transaction uid. Time is driven
// by an injected clock and sleep, never waited for.
import { afterEach, describe, expect, it } from 'vitest';
import { followCdFmcProvisioning, targetTenantTransactionUid } from '../../src/scc/cdFmc.js';
import { SccTransactionError } from '../../src/scc/errors.js';
import type { CdoTransaction } from '../../src/scc/generated/models.js';
import { clientOf, type FakeScc, inOrder, type Reply, startFakeScc, TENANT_UID } from './fakeScc.js';

const PORTAL_TX = 'aaaaaaaa-0000-4000-8000-000000000001';
const TARGET_TX = 'bbbbbbbb-0000-4000-8000-000000000002';

const tx = (status: string, extra: Partial<CdoTransaction> = {}): CdoTransaction => ({
  transactionUid: PORTAL_TX,
  transactionType: 'MSP_PROVISION_CDFMC',
  cdoTransactionStatus: status,
  ...extra,
});
const done = tx('DONE', { transactionDetails: { TRANSACTION_UID_IN_TARGET_TENANT: TARGET_TX } });
const answer = (transaction: CdoTransaction): Reply => ({
  status: transaction.cdoTransactionStatus === 'DONE' ? 200 : 202,
  body: transaction,
});

/** A fake clock whose sleep advances time and records how long each wait was. */
function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    waits,
  };
}

describe('targetTenantTransactionUid (one step, no waiting)', () => {
  it('says to wait while the portal transaction is pending or in progress', () => {
    expect(targetTenantTransactionUid(tx('PENDING'))).toEqual({ done: false, status: 'PENDING' });
    expect(targetTenantTransactionUid(tx('IN_PROGRESS'))).toEqual({ done: false, status: 'IN_PROGRESS' });
  });

  it('hands over the managed tenant transaction once the portal transaction is DONE', () => {
    expect(targetTenantTransactionUid(done)).toEqual({ done: true, targetTransactionUid: TARGET_TX });
  });

  it('fails clearly when the portal transaction ended in ERROR or CANCELLED', () => {
    const failed = tx('ERROR', {
      errorMessage: 'No cdFMC capacity in region',
      errorDetails: { region: 'EU' },
    });

    const error = (() => {
      try {
        targetTenantTransactionUid(failed);
      } catch (e) {
        return e;
      }
    })() as SccTransactionError;

    expect(error).toBeInstanceOf(SccTransactionError);
    expect(error).toMatchObject({
      transactionUid: PORTAL_TX,
      transactionStatus: 'ERROR',
      errorDetails: { region: 'EU' },
    });
    expect(error.userMessage()).toBe('cdFMC provisioning ended in ERROR: No cdFMC capacity in region');
    expect(() => targetTenantTransactionUid(tx('CANCELLED'))).toThrow(
      'cdFMC provisioning ended in CANCELLED',
    );
  });

  it('fails clearly when DONE carries no TRANSACTION_UID_IN_TARGET_TENANT', () => {
    expect(() => targetTenantTransactionUid(tx('DONE', { transactionDetails: { OTHER: 'x' } }))).toThrow(
      'cdFMC provisioning finished, but its transaction has no TRANSACTION_UID_IN_TARGET_TENANT to follow on the managed tenant',
    );
    expect(() => targetTenantTransactionUid(tx('DONE'))).toThrow(SccTransactionError);
  });
});

describe('followCdFmcProvisioning', () => {
  let fake: FakeScc | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('polls the portal transaction with growing waits until DONE, then returns the target uid', async () => {
    fake = await startFakeScc(
      inOrder(answer(tx('PENDING')), answer(tx('IN_PROGRESS')), answer(tx('IN_PROGRESS')), answer(done)),
    );
    const { client } = clientOf(fake);
    const time = fakeTime();

    const provisioning = tx('PENDING');
    const target = await followCdFmcProvisioning(client.transactions, provisioning, {
      ...time,
      intervalMs: 1_000,
    });

    expect(target).toBe(TARGET_TX);
    expect(fake.requests.map((r) => r.apiPath)).toEqual(Array(4).fill(`/v1/transactions/${PORTAL_TX}`));
    expect(time.waits).toEqual([1_000, 2_000, 4_000]);
    await client.close();
  });

  it('starts from the 202 answer of provisionCdFmc', async () => {
    fake = await startFakeScc(inOrder({ status: 202, body: tx('PENDING') }, answer(done)));
    const { client } = clientOf(fake);

    const provisioning = await client.tenants.provisionCdFmc(TENANT_UID, { dedicatedCdFmcInstance: false });
    const target = await followCdFmcProvisioning(client.transactions, provisioning, fakeTime());

    expect(target).toBe(TARGET_TX);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      apiPath: `/v1/msp/tenants/${TENANT_UID}/cdfmc`,
      body: { dedicatedCdFmcInstance: false },
    });
    await client.close();
  });

  it('needs no request when the transaction it is given is already DONE', async () => {
    fake = await startFakeScc(inOrder(answer(done)));
    const { client } = clientOf(fake);

    await expect(followCdFmcProvisioning(client.transactions, done)).resolves.toBe(TARGET_TX);
    expect(fake.requests).toHaveLength(0);
    await client.close();
  });

  it('fails with the portal error when provisioning ends in ERROR', async () => {
    fake = await startFakeScc(
      inOrder(answer(tx('IN_PROGRESS')), answer(tx('ERROR', { errorMessage: 'Tenant already has a cdFMC' }))),
    );
    const { client } = clientOf(fake);

    const error = await followCdFmcProvisioning(client.transactions, tx('PENDING'), fakeTime()).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(SccTransactionError);
    expect((error as SccTransactionError).userMessage()).toBe(
      'cdFMC provisioning ended in ERROR: Tenant already has a cdFMC',
    );
    await client.close();
  });

  it('gives up after maxWaitMs with the last status it saw', async () => {
    fake = await startFakeScc(inOrder(answer(tx('IN_PROGRESS'))));
    const { client } = clientOf(fake);
    const time = fakeTime();

    const error = await followCdFmcProvisioning(client.transactions, tx('PENDING'), {
      ...time,
      intervalMs: 1_000,
      maxIntervalMs: 4_000,
      maxWaitMs: 10_000,
    }).catch((e: unknown) => e);

    expect((error as Error).message).toBe(
      `getTransaction: transaction ${PORTAL_TX}: Transaction ${PORTAL_TX} was still IN_PROGRESS after 10 s`,
    );
    // 1 + 2 + 4 s waited; another 4 s would pass the 10 s limit.
    expect(time.waits).toEqual([1_000, 2_000, 4_000]);
    await client.close();
  });

  it('refuses a provisioning answer without a transaction uid', async () => {
    fake = await startFakeScc(inOrder(answer(done)));
    const { client } = clientOf(fake);

    await expect(
      followCdFmcProvisioning(client.transactions, { cdoTransactionStatus: 'PENDING' }, fakeTime()),
    ).rejects.toThrow('cdFMC provisioning answered without a transaction uid to follow');
    await client.close();
  });
});
