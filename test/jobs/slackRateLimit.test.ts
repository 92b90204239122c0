import { describe, expect, it } from 'vitest';
import {
  driveUntil,
  finalReply,
  type Harness,
  postsIn,
  text,
  thread,
  useHarness,
} from './support/harness.js';

describe('when Slack answers 429', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  it('delivers the final reply once, after the Retry-After wait, without holding a worker', async () => {
    const { workers, clients } = await h.start();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    const uid = String(tx.transactionUid);
    const limited = thread('default', 'C0LIMITED1');
    const other = thread('default', 'C0OTHER001');
    h.slack.rateLimit('chat.postMessage', 1, 1);

    await workers.jobs.tracker.follow({ kind: 'transaction', transactionUid: uid, label: 'MCD' }, limited);
    const first = await driveUntil(
      h.sim,
      clients,
      h.slack.waitFor((call) => call.method === 'chat.postMessage'),
      15_000,
    );
    // While the limited reply waits, the workers carry on with other work.
    const tx2 = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('contoso-eu'));
    await workers.jobs.tracker.follow(
      { kind: 'transaction', transactionUid: String(tx2.transactionUid), label: 'MCD 2' },
      other,
    );
    const otherReply = await driveUntil(h.sim, clients, finalReply(h.slack, other), 15_000);
    const reply = await finalReply(h.slack, limited);

    expect(first.status).toBe(429);
    expect(reply.at - first.at).toBeGreaterThanOrEqual(1_000);
    expect(otherReply.at).toBeLessThan(reply.at);
    expect(text(reply)).toMatch(/^<@U0ALICE> \*MCD\*: done\./);
    expect(
      h.slack.callsTo('chat.postMessage').filter((call) => call.args.channel === 'C0LIMITED1'),
    ).toHaveLength(2);
    expect(postsIn(h.slack, limited)).toHaveLength(1);
    expect([...h.slack.messages().keys()].filter((key) => key.startsWith('C0LIMITED1/'))).toHaveLength(1);
  });
});
