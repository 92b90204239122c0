// The proof after a software upgrade across the MSP portal's tenants (`/fw upgrade` through the portal, issue
// 37 items 5 and 7): once an MSP run that the upgrade in the windows started has completed, each of its
// devices is read again and compared with what it was right before (mspUpgradeSteps.ts): the version it
// reports, its connectivity, its failover state, from the portal's records; and, for a tenant whose own
// profile fwbot has, the running configuration's diff and the smoke traces as one tenant's proof makes
// them. The thread gets one message for the run, once, saying which checks could not be made across tenants.
// The follow kind mspDeviceUpgradeRun schedules it when the run ends (`later`); reading is all it does, so a
// run interrupted by a crash simply runs again.
import { z } from 'zod';
import { MspUpgradeBaseline, mspProofView, proveMspDevices } from '../mspUpgradeSteps.js';
import { defineTimedKind } from './kind.js';

export const mspUpgradeProof = defineTimedKind({
  kind: 'msp-upgrade-proof',
  payload: z.object({
    /** The MSP run's transaction: what the run is found by, and one proof per run. */
    transactionUid: z.string().min(1),
    /** What the thread calls the run: `upgrade 3 devices in 2 tenants to 9.20.3`. */
    label: z.string(),
    baseline: MspUpgradeBaseline,
  }),
  id: (p) => p.transactionUid,
  describe: (p) => `proof after ${p.label}`,
  devices: (p) => p.baseline.devices.map((d) => ({ uid: d.uid, name: d.name })),
  async run(ctx, p) {
    const { data } = await ctx.op.scc.call('getMspDeviceUpgradeRuns', {
      query: { q: `transactionUid:"${p.transactionUid}"`, limit: '1' },
    });
    const run = data.items?.find((item) => item.transactionUid === p.transactionUid);
    const status = run?.upgradeRunStatus ?? 'unknown';
    // Only a completed upgrade is proven: a failed one was told with SCC's reason when it ended.
    if (status !== 'UPGRADE_COMPLETED')
      return { status: 'done', summary: `not proven: the run is ${status}, not UPGRADE_COMPLETED` };
    const tenants = { profiles: () => ctx.profiles(), clientOf: (profile: string) => ctx.clientOf(profile) };
    const proofs = await proveMspDevices(ctx.op, p.baseline, tenants);
    await ctx.say('proof', mspProofView(p.label, p.baseline, proofs));
    const proven = proofs.filter((d) => d.proven).map((d) => d.name);
    const differ = proofs.filter((d) => !d.proven).map((d) => d.name);
    return {
      status: 'done',
      summary:
        differ.length === 0
          ? `proven: ${proven.join(', ')}`
          : `differs: ${differ.join(', ')}${proven.length > 0 ? `; proven: ${proven.join(', ')}` : ''}`,
    };
  },
  // It only reads and says (once per key): running it again is harmless.
  interrupted: 'run-again',
});
