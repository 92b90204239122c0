// `upgrades:` of the FWBOT_PROFILES file: what fwbot checks after a firewall software upgrade (`/fw upgrade`,
// issue 37). `smoke_traces` lists packet-traces per device query; each is traced right before a device's
// upgrade starts and again once it completed, and the verdicts must be the same. A trace is written as
// `/fw trace` takes its words after the device: `<protocol> <source> [<source-port>] <destination> <port>`
// and optionally `--in <nameif>` (`tcp 10.1.100.25 198.51.100.10 443`, `icmp 10.1.100.25 8.8.8.8 echo`).
// Each is validated here with the same value grammars (src/model/asaValues.ts), so a wrong one fails the load
// with the key named; what reaches a device is only packet-tracer's template filled with the parsed values.
import { z } from 'zod';
import {
  type Address,
  addressFamily,
  type Checked,
  checkInterfaceText,
  type IcmpType,
  type Port,
  parseAddress,
  parseIcmpType,
  parsePort,
  parseProtocol,
} from '../../model/asaValues.js';
import { closedObject, type ProfilesFileKey } from './schemaParts.js';

/** One smoke trace as declared, and as validated (the device is the one being upgraded). */
export interface SmokeTrace {
  /** As written in the file: how the thread names it. */
  readonly text: string;
  readonly flow: SmokeFlow;
}

export interface SmokeTraceRule {
  /** A device query (the Lucene syntax of /fw devices) selecting the devices these traces are for. */
  readonly devices: string;
  readonly traces: readonly SmokeTrace[];
}

export interface UpgradeSettings {
  readonly smokeTraces: readonly SmokeTraceRule[];
}

export const defaultUpgrades: UpgradeSettings = Object.freeze({ smokeTraces: [] });

/** A smoke trace's flow: what `/fw trace` takes after the device, its values parsed by their grammars. */
export type SmokeFlow = {
  source: Address;
  destination: Address;
  /** The typed `--in` (its shape checked; matched against the device's own list when traced). */
  in?: string;
} & ({ protocol: 'tcp' | 'udp'; sourcePort?: Port; port: Port } | { protocol: 'icmp'; icmpType: IcmpType });

const SHAPE =
  'must be `<protocol> <source> [<source-port>] <destination> <port>` as /fw trace takes them after the device, optionally ending `--in <nameif>` (e.g. `tcp 10.1.100.25 198.51.100.10 443`)';

/**
 * One trace's words, bound as `/fw trace` binds them (a fifth word makes the third the source port), each
 * value checked by the grammar the trace's template takes (src/model/asaValues.ts).
 */
export function parseSmokeTrace(text: string): Checked<SmokeFlow> {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  let input: string | undefined;
  const at = words.indexOf('--in');
  if (at >= 0) {
    const nameif = words[at + 1];
    if (nameif === undefined || at + 2 !== words.length)
      return { ok: false, reason: '--in takes one interface name, at the end' };
    const checked = checkInterfaceText(nameif);
    if (!checked.ok) return { ok: false, reason: `--in ${checked.reason}` };
    input = checked.value;
    words.splice(at, 2);
  }
  if (words.some((w) => w.startsWith('--')) || words.length < 4 || words.length > 5)
    return { ok: false, reason: SHAPE };
  const [protocolText = '', sourceText = '', third = '', fourth = '', fifth] = words;
  const protocol = parseProtocol(protocolText);
  if (!protocol.ok) return { ok: false, reason: `protocol ${protocol.reason}` };
  const source = parseAddress(sourceText);
  if (!source.ok) return { ok: false, reason: `source ${source.reason}` };
  const [sourcePortText, destinationText, portText] =
    fifth === undefined ? [undefined, third, fourth] : [third, fourth, fifth];
  const destination = parseAddress(destinationText);
  if (!destination.ok) return { ok: false, reason: `destination ${destination.reason}` };
  if (addressFamily(source.value) !== addressFamily(destination.value))
    return {
      ok: false,
      reason: 'destination must be of the same family as the source (both IPv4 or both IPv6).',
    };
  const common = { source: source.value, destination: destination.value, ...(input ? { in: input } : {}) };
  if (protocol.value === 'icmp') {
    if (sourcePortText !== undefined)
      return { ok: false, reason: 'ICMP has no ports; leave the source port out.' };
    if (addressFamily(source.value) === 6)
      return { ok: false, reason: 'source must be an IPv4 address for an ICMP trace.' };
    const icmpType = parseIcmpType(portText);
    if (!icmpType.ok) return { ok: false, reason: `icmp-type ${icmpType.reason}` };
    return { ok: true, value: { ...common, protocol: 'icmp', icmpType: icmpType.value } };
  }
  const port = parsePort(portText);
  if (!port.ok) return { ok: false, reason: `port ${port.reason}` };
  if (sourcePortText === undefined)
    return { ok: true, value: { ...common, protocol: protocol.value, port: port.value } };
  const sourcePort = parsePort(sourcePortText);
  if (!sourcePort.ok) return { ok: false, reason: `source-port ${sourcePort.reason}` };
  return {
    ok: true,
    value: { ...common, protocol: protocol.value, port: port.value, sourcePort: sourcePort.value },
  };
}

const TraceText = z.string().transform((text, ctx): SmokeTrace => {
  const parsed = parseSmokeTrace(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: `is not a trace: ${parsed.reason}` });
    return z.NEVER;
  }
  return { text: text.trim().replace(/\s+/g, ' '), flow: parsed.value };
});

const SmokeTraceRuleSchema = closedObject({
  devices: z.string().trim().min(1, 'is empty; give a device query such as name:asa-dc-*'),
  traces: z.array(TraceText).min(1, 'lists no trace; give at least one, such as tcp 10.1.100.25 8.8.8.8 443'),
});

export const UpgradesSchema = closedObject({
  smoke_traces: z.array(SmokeTraceRuleSchema).optional(),
});

export const upgradesKeys: readonly ProfilesFileKey[] = [
  {
    key: 'upgrades.smoke_traces',
    description:
      'packet-traces that must give the same verdict after a software upgrade (`/fw upgrade`) as right before it: a list of `{ devices, traces }`, where `devices` is a device query (as /fw devices takes) and each trace is written as /fw trace takes its words after the device: `<protocol> <source> [<source-port>] <destination> <port>`, optionally ending `--in <nameif>`. Run on ASAs only (packet-tracer); a device several entries select runs all their traces',
    default: 'none',
    example: 'smoke_traces: [{ devices: "name:asa-dc-*", traces: ["tcp 10.1.100.25 198.51.100.10 443"] }]',
  },
];

export function upgradesFrom(data: z.output<typeof UpgradesSchema> | undefined): UpgradeSettings {
  return Object.freeze({
    smokeTraces: (data?.smoke_traces ?? []).map((rule) => ({ devices: rule.devices, traces: rule.traces })),
  });
}
