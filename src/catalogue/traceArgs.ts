// The arguments of `trace` and `show`, typed from the raw words: each value is checked against its own
// grammar (asaCommands.ts) here, so a refusal names the argument in one sentence and comes before any call
// to SCC. Nothing here is sent as typed: the values are the parsers' canonical forms.
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
  SHOW_TOPICS,
} from './asaCommands.js';

type RawText = string | string[] | boolean | undefined;

/** A raw value as text, untrimmed: a line break or tab around a value is refused, not cut off. */
function rawText(value: RawText): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}

/** Records refusals by argument name, so the transform can tell whether any value was refused. */
function reporter(ctx: z.RefinementCtx) {
  let refused = false;
  const issue = (arg: string, message: string) => {
    refused = true;
    ctx.addIssue({ code: 'custom', path: [arg], message });
  };
  return {
    issue,
    take<T>(arg: string, checked: Checked<T>): T | undefined {
      if (checked.ok) return checked.value;
      issue(arg, checked.reason);
      return undefined;
    },
    required(arg: string, value: RawText): string | undefined {
      const typed = rawText(value);
      if (typed === undefined) issue(arg, 'is required.');
      return typed;
    },
    get refused() {
      return refused;
    },
  };
}

const RawValue = z.union([z.string(), z.array(z.string()), z.boolean()]).optional();

export type TraceFlow = {
  device: string;
  source: Address;
  destination: Address;
  /** The typed `--in` (checked against its grammar; matched against the device's list when run). */
  in?: string;
} & ({ protocol: 'tcp' | 'udp'; sourcePort?: Port; port: Port } | { protocol: 'icmp'; icmpType: IcmpType });

/**
 * `<source> <destination> <port>`, or with a source port `<source> <source-port> <destination> <port>`:
 * the grammar binds the four words to source, destination, port and the hidden `final-port`, shifted here.
 */
export const traceArgs = z
  .object({
    device: RawValue,
    protocol: RawValue,
    source: RawValue,
    destination: RawValue,
    port: RawValue,
    'final-port': RawValue,
    in: RawValue,
  })
  .transform((raw, ctx): TraceFlow => {
    const r = reporter(ctx);
    const device = r.required('device', raw.device)?.trim() ?? '';
    const protocolText = r.required('protocol', raw.protocol);
    const protocol = protocolText === undefined ? undefined : r.take('protocol', parseProtocol(protocolText));
    const withSourcePort = rawText(raw['final-port']) !== undefined;
    const words = withSourcePort
      ? { sourcePort: raw.destination, destination: raw.port, port: raw['final-port'] }
      : { sourcePort: undefined, destination: raw.destination, port: raw.port };
    const sourceText = r.required('source', raw.source);
    const source = sourceText === undefined ? undefined : r.take('source', parseAddress(sourceText));
    const destinationText = r.required('destination', words.destination);
    const destination =
      destinationText === undefined ? undefined : r.take('destination', parseAddress(destinationText));
    const portArg = protocol === 'icmp' ? 'icmp-type' : 'port';
    const portText = r.required(portArg, words.port);
    const icmpType =
      protocol === 'icmp' && portText !== undefined ? r.take(portArg, parseIcmpType(portText)) : undefined;
    const port =
      protocol !== 'icmp' && portText !== undefined ? r.take(portArg, parsePort(portText)) : undefined;
    let sourcePort: Port | undefined;
    const sourcePortText = rawText(words.sourcePort);
    if (sourcePortText !== undefined) {
      if (protocol === 'icmp') r.issue('source-port', 'ICMP has no ports; leave it out.');
      else sourcePort = r.take('source-port', parsePort(sourcePortText));
    }
    const inText = rawText(raw.in);
    const input = inText === undefined ? undefined : r.take('in', checkInterfaceText(inText));
    if (source && destination && addressFamily(source) !== addressFamily(destination))
      r.issue('destination', 'must be of the same family as the source (both IPv4 or both IPv6).');
    if (protocol === 'icmp' && source && addressFamily(source) === 6)
      r.issue('source', 'must be an IPv4 address for an ICMP trace (fwbot does not trace ICMPv6).');
    if (r.refused || !protocol || !source || !destination) return z.NEVER;
    const common = { device, source, destination, ...(input !== undefined ? { in: input } : {}) };
    if (protocol === 'icmp') return icmpType === undefined ? z.NEVER : { ...common, protocol, icmpType };
    if (port === undefined) return z.NEVER;
    return { ...common, protocol, port, ...(sourcePort !== undefined ? { sourcePort } : {}) };
  });

export type ShowRequest = { device: string } & (
  | { topic: 'route' | 'conn' | 'xlate'; address: Address }
  | { topic: 'failover' | 'version' | 'shun' }
  /** `show interface`: the typed name (checked against its grammar; matched against the device's list). */
  | { topic: 'interface'; name: string }
);

export const showArgs = z
  .object({ device: RawValue, topic: RawValue, target: RawValue })
  .transform((raw, ctx): ShowRequest => {
    const r = reporter(ctx);
    const device = r.required('device', raw.device)?.trim() ?? '';
    const topicText = r.required('topic', raw.topic);
    const topic = SHOW_TOPICS.find((t) => t === topicText?.toLowerCase());
    if (topicText !== undefined && !topic) r.issue('topic', `must be one of ${SHOW_TOPICS.join(', ')}.`);
    if (!topic) return z.NEVER;
    if (topic === 'route' || topic === 'conn' || topic === 'xlate') {
      const typed = r.required('target', raw.target);
      const address = typed === undefined ? undefined : r.take('target', parseAddress(typed));
      // `show route` is IPv4 only on the ASA; fwbot sends no command it has not modelled.
      if (topic === 'route' && address && addressFamily(address) === 6)
        r.issue('target', 'must be an IPv4 address for show route (the ASA lists IPv6 routes apart).');
      return address && !r.refused ? { device, topic, address } : z.NEVER;
    }
    if (topic === 'interface') {
      const typed = r.required('target', raw.target);
      const name = typed === undefined ? undefined : r.take('target', checkInterfaceText(typed));
      return name && !r.refused ? { device, topic, name } : z.NEVER;
    }
    if (rawText(raw.target) !== undefined) r.issue('target', `show ${topic} takes nothing more.`);
    return r.refused ? z.NEVER : { device, topic };
  });
