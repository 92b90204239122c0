// Shuns on the simulated ASA: `shun <ip>`, `no shun <ip>`, `show shun` and `clear shun`, the privileged-EXEC
// commands that block an address at once. A shun is not configuration: it lives in the device's memory (the
// view's live list, SimState.shuns), is never in `show running-config`, and a reload or a failover loses it
// (admin/devices.ts). While it stands, the address's connections are gone (`show conn address`, asaShow.ts)
// and packet-tracer drops what it sends (asaPacketTracer.ts).
//
// Formats, from Cisco's ASA command reference (shun, show shun): `show shun` prints one line per shun,
// `shun (<interface>) <source> <destination> <source port> <destination port> <protocol>`, the unused ones
// as 0.0.0.0 and 0 (e.g. `shun (outside) 10.1.1.27 0.0.0.0 0 0 0`), and nothing when there is none. The
// confirmation `Shun <ip> successful` is the one a documented PIX session prints; fwbot reads `show shun`,
// not the confirmation. Only the forms fwbot's templates send are modelled (a source address alone): the
// connection-scoped form and `vlan`/`interface` options are invalid input here.
import { formatIp, type Ip, parseIp } from './asaAddresses.js';
import type { AsaDeviceView, LineOutcome, Token } from './asaCommandLine.js';
import { lookupRoute } from './asaPolicyEval.js';
import type { ShunRecord, SimState } from './model.js';

/** The device's live list of shuns (created empty on first use). */
export function shunsOf(state: SimState, deviceUid: string): ShunRecord[] {
  let list = state.shuns.get(deviceUid);
  if (list === undefined) {
    list = [];
    state.shuns.set(deviceUid, list);
  }
  return list;
}

/** What a reload or a failover does: every shun of the device is lost. Returns how many there were. */
export function clearShuns(state: SimState, deviceUid: string): number {
  const list = state.shuns.get(deviceUid);
  const count = list?.length ?? 0;
  if (list !== undefined) list.length = 0;
  return count;
}

/** The shun that blocks `ip` on the device, if any. */
export function shunOf(view: Pick<AsaDeviceView, 'shuns'>, ip: Ip): ShunRecord | undefined {
  const address = formatIp(ip);
  return view.shuns.find((shun) => shun.address === address);
}

function showShun(view: AsaDeviceView): string {
  return view.shuns
    .map((shun) => {
      const none = shun.address.includes(':') ? '::' : '0.0.0.0';
      return `shun (${shun.interface}) ${shun.address} ${none} 0 0 0\n`;
    })
    .join('');
}

/** The command-line runner for `shun`, `no shun`, `show shun` and `clear shun` lines. */
export function runShun(tokens: Token[], view: AsaDeviceView): LineOutcome | undefined {
  const words = tokens.map((t) => t.text);
  const invalidAt = (i: number): LineOutcome => {
    const last = tokens[tokens.length - 1];
    return { invalidAt: tokens[i]?.at ?? (last === undefined ? 0 : last.at + last.text.length + 1) };
  };
  const address = (i: number): Ip | LineOutcome => {
    if (tokens.length > i + 1) return invalidAt(i + 1);
    const ip = parseIp(words[i] ?? '');
    return ip ?? invalidAt(i);
  };
  const isIp = (value: Ip | LineOutcome): value is Ip => 'family' in value;
  if (words[0] === 'show' && words[1] === 'shun')
    return tokens.length > 2 ? invalidAt(2) : { output: showShun(view) };
  if (words[0] === 'clear' && words[1] === 'shun') {
    if (tokens.length > 2) return invalidAt(2);
    view.shuns.length = 0;
    return { output: '' };
  }
  if (words[0] === 'shun') {
    const ip = address(1);
    if (!isIp(ip)) return ip;
    if (shunOf(view, ip) === undefined) {
      const route = lookupRoute(view, ip);
      view.shuns.push({ address: formatIp(ip), interface: route?.nameif ?? 'outside', since: view.now });
    }
    return { output: `Shun ${formatIp(ip)} successful\n` };
  }
  if (words[0] === 'no' && words[1] === 'shun') {
    const ip = address(2);
    if (!isIp(ip)) return ip;
    const shun = shunOf(view, ip);
    if (shun !== undefined) view.shuns.splice(view.shuns.indexOf(shun), 1);
    return { output: '' };
  }
  return undefined;
}
