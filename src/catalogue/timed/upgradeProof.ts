// The proof after a software upgrade (`/fw upgrade`, issue 37 item 5): once a run the upgrade started has
// completed (or failed on some devices: those that finished, reporting the target version), each of its
// devices is read again and compared with what it was right before its upgrade
// started (upgradeProof.ts): version, connectivity, failover state, running configuration, smoke traces. The
// tracking worker schedules one item per run when the run ends (the follow kind's `later`), before the end
// is told, so a crash between them loses nothing; the item says one message in the card's thread, once,
// however often it runs. Reading is all it does, so a run interrupted by a crash simply runs again.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import type { UpgradeRunDto } from '../../scc/generated/models.js';
import {
  type DeviceBaseline,
  type DeviceProof,
  type FailedDevice,
  proofView,
  proveDevice,
  UpgradeBaseline,
} from '../upgradeProof.js';
import { defineTimedKind } from './kind.js';

/** A device of a failed run that did not finish: SCC's last word for each of its units, else the run's. */
function failedReason(run: UpgradeRunDto, uid: string): string {
  const status = run.deviceUpgradeStatuses?.find((d) => d.uid?.toLowerCase() === uid.toLowerCase());
  const nodes = (status?.completionStatuses ?? []).filter((n) => n.message);
  const said =
    nodes.length > 1
      ? nodes.map((n) => `${n.name ?? '?'}: ${n.message}`).join('; ')
      : (nodes[0]?.message ?? run.errorMsg ?? 'no reason given');
  return said;
}

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
    // A completed run's devices are proven; a failed run's, those that finished (they report the target
    // version): the others were named with SCC's reason when it ended, and are named again beside them.
    if (!run || (status !== 'UPGRADE_COMPLETED' && status !== 'UPGRADE_FAILED'))
      return { status: 'done', summary: `not proven: the run is ${status}, not UPGRADE_COMPLETED` };
    const finished: DeviceBaseline[] = [];
    const failed: FailedDevice[] = [];
    for (const device of p.baseline.devices) {
      if (status === 'UPGRADE_COMPLETED') {
        finished.push(device);
        continue;
      }
      const { data: record } = await ctx.op.scc.call('getDevice', { path: { deviceUid: device.uid } });
      if (record.softwareVersion === p.baseline.version) finished.push(device);
      else
        failed.push({
          name: device.name,
          reports: record.softwareVersion ?? 'no version',
          sccSays: failedReason(run, device.uid),
        });
    }
    if (finished.length === 0)
      return {
        status: 'done',
        summary: `nothing to prove: no device of the run finished (${status})`,
      };
    const proofs: DeviceProof[] = [];
    for (const device of finished) {
      try {
        proofs.push(await proveDevice(ctx.op, device, p.baseline.version));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        proofs.push({ name: device.name, proven: false, lines: [`✗ not read: ${untrusted(why)}`] });
      }
    }
    await ctx.say('proof', proofView(p.label, proofs, failed));
    const proven = proofs.filter((d) => d.proven).map((d) => d.name);
    const differ = proofs.filter((d) => !d.proven).map((d) => d.name);
    const parts = [
      ...(differ.length > 0 ? [`differs: ${differ.join(', ')}`] : []),
      ...(proven.length > 0 ? [`proven: ${proven.join(', ')}`] : []),
      ...(failed.length > 0 ? [`not upgraded: ${failed.map((f) => f.name).join(', ')}`] : []),
    ];
    return { status: 'done', summary: parts.join('; ') };
  },
  // It only reads and says (once per key): running it again is harmless.
  interrupted: 'run-again',
});
