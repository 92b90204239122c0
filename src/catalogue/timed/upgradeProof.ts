// The proof after a software upgrade (`/fw upgrade`, issue 37 item 5): once a run the upgrade started has
// completed, each of its devices is read again and compared with what it was right before its upgrade
// started (upgradeProof.ts): version, connectivity, failover state, running configuration, smoke traces. The
// tracking worker schedules one item per run when the run ends (the follow kind's `later`), before the end
// is told, so a crash between them loses nothing; the item says one message in the card's thread, once,
// however often it runs. Reading is all it does, so a run interrupted by a crash simply runs again.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import { type DeviceProof, proofView, proveDevice, UpgradeBaseline } from '../upgradeProof.js';
import { defineTimedKind } from './kind.js';

export const upgradeProof = defineTimedKind({
  kind: 'upgrade-proof',
  payload: z.object({
    /** The upgrade run's transaction: what the run is found by, and one proof per run. */
    transactionUid: z.string().min(1),
    /** What the thread calls the run: `upgrade asa-hq-01, asa-dc-03 to 9.20.3`. */
    label: z.string(),
    baseline: UpgradeBaseline,
  }),
  id: (p) => p.transactionUid,
  describe: (p) => `proof after ${p.label}`,
  devices: (p) => p.baseline.devices.map((d) => ({ uid: d.uid, name: d.name })),
  async run(ctx, p) {
    const { data } = await ctx.op.scc.call('getDeviceUpgradeRuns', {
      query: { q: `transactionUid:"${p.transactionUid}"`, limit: '1' },
    });
    const run = data.items?.find((item) => item.transactionUid === p.transactionUid);
    const status = run?.upgradeRunStatus ?? 'unknown';
    // Only a completed upgrade is proven: a failed one was told with SCC's reason when it ended.
    if (status !== 'UPGRADE_COMPLETED')
      return { status: 'done', summary: `not proven: the run is ${status}, not UPGRADE_COMPLETED` };
    const proofs: DeviceProof[] = [];
    for (const device of p.baseline.devices) {
      try {
        proofs.push(await proveDevice(ctx.op, device, p.baseline.version));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        proofs.push({ name: device.name, proven: false, lines: [`✗ not read: ${untrusted(why)}`] });
      }
    }
    await ctx.say('proof', proofView(p.label, proofs));
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
