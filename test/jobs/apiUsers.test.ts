// Adding API-only users ends with their UUIDs: the tracking queue follows the add's transaction and, once
// it is DONE, reads the tenant's API-only users once and names each new one with the UUID SCC gave it.
import { describe, expect, it } from 'vitest';
import { newApiUsersOutcome } from '../../src/follow/transaction.js';
import {
  driveUntil,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('tracking an add of API-only users', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('names each new API-only user with its UUID once SCC is done, in one reply', async () => {
    const { workers, clients } = await h.start();
    const tenantUid = h.sim.tenantUid('northwind-us');
    const usernames = ['ci-robot', 'deploy-robot'];
    const { data: tx } = await clients.get('default').call('addUsersToTenantInMspPortal', {
      path: { tenantUid },
      body: { users: usernames.map((username) => ({ username, role: 'ROLE_ADMIN', apiOnlyUser: true })) },
    });
    const where = thread();

    await workers.jobs.tracker.follow(
      {
        kind: 'transaction',
        transactionUid: String(tx.transactionUid),
        label: 'add 2 users to northwind-us',
        afterDone: { kind: 'apiUsers', tenantUid, tenantName: 'northwind-us', usernames },
      },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 2_000);

    const created = h.sim.state.tenants.get(tenantUid)?.users.filter((u) => usernames.includes(u.username));
    expect(created).toHaveLength(2);
    expect(text(reply)).toMatch(/^<@U0ALICE> \*add 2 users to northwind-us\*: done\./);
    for (const user of created ?? []) expect(text(reply)).toContain(`• ${user.username}: \`${user.uid}\``);
    expect(text(reply)).toContain('`/fw tenants token northwind-us &lt;api-user&gt;`');
    expect(postsIn(h.slack, where)).toHaveLength(1);
    // The users were read once, after the transaction ended, and asked for by name.
    const reads = h.sim.requestLog.list({ operationId: 'getApiOnlyUsersInMspManagedTenant' });
    expect(reads).toHaveLength(1);
    expect(decodeURIComponent(reads[0]?.query ?? '').replace(/\+/g, ' ')).toContain(
      'name:"ci-robot" OR name:"deploy-robot"',
    );
  });

  it('says the add failed, without reading the users, when the transaction ends in ERROR', async () => {
    const { workers, clients } = await h.start();
    const tenantUid = h.sim.tenantUid('northwind-us');
    const { data: tx } = await clients.get('default').call('addUsersToTenantInMspPortal', {
      path: { tenantUid },
      // Already in the tenant: SCC's transaction fails and adds nobody.
      body: { users: [{ username: 'northwind-us-automation', role: 'ROLE_ADMIN', apiOnlyUser: true }] },
    });
    const where = thread('default', 'C0TRACK02');
    const before = h.sim.requestLog.list({ operationId: 'getApiOnlyUsersInMspManagedTenant' }).length;

    await workers.jobs.tracker.follow(
      {
        kind: 'transaction',
        transactionUid: String(tx.transactionUid),
        label: 'add 1 user to northwind-us',
        afterDone: {
          kind: 'apiUsers',
          tenantUid,
          tenantName: 'northwind-us',
          usernames: ['northwind-us-automation'],
        },
      },
      where,
    );
    const reply = await driveUntil(h.sim, clients, finalReply(h.slack, where), 2_000);

    expect(text(reply)).toContain('failed. SCC reports an error');
    expect(h.sim.requestLog.list({ operationId: 'getApiOnlyUsersInMspManagedTenant' })).toHaveLength(before);
  });
});

describe('the outcome that names new API-only users', () => {
  it('escapes what SCC and people wrote, and says which names SCC does not list', () => {
    const outcome = newApiUsersOutcome(
      'tx-1',
      'acme',
      ['<!channel>', 'ghost'],
      [{ name: '<!channel>', uid: 'u-1' }],
    );
    expect(outcome.status).toBe('succeeded');
    expect(outcome.text).toContain('• &lt;!channel&gt;: `u-1`');
    expect(outcome.text).toContain('• ghost: not listed by SCC yet');
    expect(outcome.text).not.toContain('<!channel>');
  });

  it('points to the list when the users could not be read', () => {
    const outcome = newApiUsersOutcome('tx-1', 'acme', ['robot'], undefined);
    expect(outcome.text).toContain('`/fw tenants users acme --api-only` lists them with their UUIDs');
  });
});
