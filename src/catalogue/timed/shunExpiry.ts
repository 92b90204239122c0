// A shun's end: `no shun <ip>` on the ASA when its time is up (`/fw shun … --for`), exactly once. An ASA's
// shun has no expiry of its own, so this item is its end. The device is read first (`show shun`): a shun
// already gone (a reload or a failover loses it, or someone lifted it by hand) is said and left alone; else
// the point of no return, then `no shun` from its template. After a crash past that point, `show shun` says
// whether it took effect.
import { z } from 'zod';
import { code } from '../../render/format.js';
import { untrusted } from '../../render/untrusted.js';
import type { Device } from '../../scc/generated/models.js';
import { type Address, parseAddress, scriptOf, shunScriptOf } from '../asaCommands.js';
import { parseShowShun } from '../asaShunOutput.js';
import type { OperationContext } from '../context.js';
import { runCliLine } from '../trace.js';
import { undeployedSentence } from '../undeployedChanges.js';
import { defineTimedKind } from './kind.js';

/** The address as validated when the shun was placed; validated again when it is read back. */
export function addressOf(text: string): Address {
  const checked = parseAddress(text);
  if (!checked.ok) throw new Error(`a shun's stored address does not validate: ${JSON.stringify(text)}`);
  return checked.value;
}

/** Why fwbot sends nothing to this ASA now (undeployed changes, not ONLINE), or undefined when it may. */
export function notSendable(
  device: Pick<Device, 'configState' | 'connectivityState'>,
  name: string,
): string | undefined {
  if (device.configState === 'NOT_SYNCED') return undeployedSentence(name);
  const state = device.connectivityState ?? 'UNKNOWN';
  return state === 'ONLINE' ? undefined : `${untrusted(name)} is ${state}: fwbot sends nothing to it.`;
}

/** `14:00`: the minute (UTC) a shun's end ran, as its thread is told. */
export function utcMinute(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}

/** Whether the device blocks `address` now, from its `show shun`. */
export async function isShunned(
  ctx: Pick<OperationContext, 'scc' | 'signal'>,
  device: { uid: string; name: string },
  address: Address,
): Promise<boolean> {
  const answer = await runCliLine(ctx, device, scriptOf({ kind: 'show', topic: 'shun' }));
  return parseShowShun(answer).shuns.some((shun) => shun.source === address);
}

export const shunExpiry = defineTimedKind({
  kind: 'shun-expiry',
  payload: z.object({
    deviceUid: z.string().min(1),
    device: z.string(),
    address: z.string().min(1),
    /** The reason given for the shun (kept redacted as typed free text is). */
    reason: z.string(),
    /** Who placed it (a Slack user id, or the CLI's user). */
    by: z.string(),
  }),
  id: (p) => `${p.deviceUid}:${p.address}`,
  describe: (p) => `no shun ${p.address} on ${p.device}`,
  devices: (p) => [{ uid: p.deviceUid, name: p.device }],
  async run(ctx, p) {
    const address = addressOf(p.address);
    const device = { uid: p.deviceUid, name: p.device };
    if (!(await isShunned(ctx.op, device, address))) {
      await ctx.say(
        'gone',
        `:information_source: The shun of ${code(address)} on ${untrusted(p.device)} was already gone when its time was up (a reload or a failover loses shuns, or it was lifted by hand): nothing was sent.`,
      );
      return { status: 'done', summary: `already gone on ${p.device}` };
    }
    await ctx.committing();
    await runCliLine(ctx.op, device, shunScriptOf({ kind: 'no-shun', address }));
    await ctx.say(
      'lifted',
      `:unlock: shun of ${code(address)} ended on ${untrusted(p.device)} (\`no shun\` ran at ${utcMinute(ctx.now())} UTC).`,
    );
    return { status: 'done', summary: `lifted on ${p.device}` };
  },
  interrupted: async (ctx, p) =>
    (await isShunned(ctx.op, { uid: p.deviceUid, name: p.device }, addressOf(p.address)))
      ? 'not-done'
      : 'took-effect',
});
