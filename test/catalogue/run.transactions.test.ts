// `/fw transactions cancel`: only a transaction SCC marks cancellable, while it runs; the cancel itself, and
// a sentence for everything else (finished, not cancellable, unknown), before anything is sent.
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { useSimulator } from './harness.js';

describe('transactions cancel', () => {
  const h = useSimulator();
  const cancels = () => h.sim.requestLog.list({ operationId: 'cancelTransaction' }).length;

  async function runningDeploy(): Promise<string> {
    const client = h.client();
    const stage = await fetch(`${h.sim.url}/_sim/devices/asa-hq-01/stage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'to be cancelled' }),
    });
    expect(stage.status).toBeLessThan(300);
    const { data } = await client.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')] },
    });
    if (!data.transactionUid) throw new Error('the deploy has no transaction');
    return data.transactionUid;
  }

  it('cancels a running deploy, and says what SCC does not undo', async () => {
    const uid = await runningDeploy();
    const outcome = await h.run(`transactions cancel ${uid}`);
    expect(renderText(outcome.view)).toContain('cancelled the `DEPLOY_ASA_DEVICE_CHANGES` transaction');
    const after = await h.client().transactions.get(uid);
    expect(after.cdoTransactionStatus).toBe('CANCELLED');
    expect(cancels()).toBe(1);
  });

  it('refuses, in one sentence and without calling cancel, what cannot be cancelled', async () => {
    const uid = await runningDeploy();
    h.sim.clock.advance(30 * 60_000); // the deploy ends
    await expect(h.run(`transactions cancel ${uid}`)).rejects.toThrow(/nothing left to cancel/);
    await expect(h.run('transactions cancel 7131daad-e813-4b8f-8f42-be1e241e8cdb')).rejects.toThrow(
      /SCC knows no transaction/,
    );
    await expect(h.run('transactions cancel not-a-uuid')).rejects.toThrow(/must be a UUID/);
    expect(cancels()).toBe(0);
  });

  it('refuses --without-approval where fwbot has no record of how the work began, before anything is sent', async () => {
    const uid = await runningDeploy();
    await expect(h.run(`transactions cancel ${uid} --without-approval`)).rejects.toThrow(
      /no record of how transaction .* was started, so cancelling it needs a second person/,
    );
    expect(cancels()).toBe(0);
  });
});
