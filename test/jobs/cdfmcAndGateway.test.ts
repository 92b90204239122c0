import { describe, expect, it } from 'vitest';
import { FMC_DOMAIN_UID } from '../../src/simulator/state/seedInventory.js';
import {
  driveUntil,
  eventType,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('tracking cdFMC provisioning in two legs', () => {
  let h: Harness;
  // A profile for globex-apj (its own token), none for initech-aus.
  useHarness(
    (created) => {
      h = created;
    },
    {
      profiles: (sim) => ({
        default: sim.tokens.superAdmin,
        'globex-apj': sim.mintTenantToken(sim.tenantUid('globex-apj')),
      }),
    },
  );

  it("follows the portal leg, then the target tenant's transaction with that tenant's profile", async () => {
    const { workers, clients } = await h.start();
    const tenantUid = h.sim.tenantUid('globex-apj');
    const portal = await clients
      .get('default')
      .tenants.provisionCdFmc(tenantUid, { dedicatedCdFmcInstance: false });
    const where = thread();

    await workers.jobs.tracker.follow(
      {
        kind: 'cdfmc',
        transactionUid: String(portal.transactionUid),
        tenantUid,
        tenantName: 'globex-apj',
        label: 'cdFMC for globex-apj',
      },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 30_000);

    const posts = postsIn(h.slack, where);
    const note = posts.find((call) => eventType(call) === 'fwbot_note');
    expect(text(note ?? reply)).toContain(
      'The portal step is done. Provisioning now runs on tenant *globex-apj*',
    );
    expect(text(note ?? reply)).toContain('profile `globex-apj`');
    expect(text(reply)).toMatch(/^<@U0ALICE> \*cdFMC for globex-apj\*: tenant \*globex-apj\*: done\./);
    expect(posts.map(eventType)).toEqual(['fwbot_note', 'fwbot_outcome']);
    // The second leg was read with the tenant's token: the portal's token cannot see it.
    const target = String(portal.transactionDetails?.TRANSACTION_UID_IN_TARGET_TENANT);
    expect(text(reply)).toContain(target);
  });

  it('says clearly that the second leg cannot be followed when no profile holds that tenant', async () => {
    const { workers, clients } = await h.start();
    const tenantUid = h.sim.tenantUid('initech-aus');
    const portal = await clients
      .get('default')
      .tenants.provisionCdFmc(tenantUid, { dedicatedCdFmcInstance: true });
    const where = thread();

    await workers.jobs.tracker.follow(
      {
        kind: 'cdfmc',
        transactionUid: String(portal.transactionUid),
        tenantUid,
        tenantName: 'initech-aus',
        label: 'cdFMC for initech-aus',
      },
      where,
    );
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toContain('the portal step is done');
    expect(text(reply)).toContain('which fwbot cannot follow: no profile is configured for that tenant');
    expect(text(reply)).toContain(tenantUid);
    expect(text(reply)).toContain("only the tenant's own API token can read its transactions");
  });
});

describe('tracking gateway commands', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it("posts the device's answer to an async command as pretty JSON", async () => {
    const { workers, clients } = await h.start();
    const fmc = h.sim.deviceUid('cdfmc-acme');
    const sent = await clients
      .get('default')
      .gateway.execute(fmc, [{ method: 'GET', link: '/api/fmc_platform/v1/info/serverversion' }], {
        async: true,
      });
    expect(sent.status).toBe('pending');
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'gateway', requestId: String(sent.requestId), deviceUid: fmc, label: 'FMC server version' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 500);

    expect(text(reply)).toMatch(
      /^<@U0ALICE> \*FMC server version\*: the device answered \(\w+\):\n```\n\[\n {2}\{/,
    );
    expect(text(reply)).toContain('"serverVersion"');
  });

  it('follows a synchronous command that timed out to its belated answer', async () => {
    const { workers, clients } = await h.start();
    const fmc = h.sim.deviceUid('cdfmc-acme');
    const link = `/api/fmc_config/v1/domain/${FMC_DOMAIN_UID}/deployment/deployabledevices`;
    const waiting = clients.get('default').gateway.execute(fmc, [{ method: 'GET', link }]);
    await h.sim.untilParked(1);
    h.sim.clock.advance(70_000); // SCC's hard limit: the call answers `timeout`
    const timedOut = await waiting;
    expect(timedOut.status).toBe('timeout');
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'gateway', requestId: String(timedOut.requestId), deviceUid: fmc, label: 'deployable devices' },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 5_000);

    expect(text(reply)).toContain('*deployable devices*: the device answered');
    expect(text(reply)).toContain('```');
    expect(postsIn(h.slack, where)).toHaveLength(1);
  });

  it('says the answer is gone when SCC no longer knows the request', async () => {
    const { workers, clients } = await h.start();
    const fmc = h.sim.deviceUid('cdfmc-acme');
    const sent = await clients
      .get('default')
      .gateway.execute(fmc, [{ method: 'GET', link: '/api/fmc_platform/v1/info/serverversion' }], {
        async: true,
      });
    h.sim.clock.advance(2 * 3_600_000);
    const where = thread();

    await workers.jobs.tracker.follow(
      { kind: 'gateway', requestId: String(sent.requestId), deviceUid: fmc, label: 'version' },
      where,
    );
    const reply = await finalReply(h.slack, where);

    expect(text(reply)).toContain('outcome unknown: SCC no longer knows gateway request');
  });
});
