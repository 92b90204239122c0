// The one flow an existing access rule matched, as a packet-tracer line, so that its removal or disabling
// can be verified once deployed (`rules remove|disable`, src/follow/ruleVerify.ts). It is read from SCC's
// copy of the rule's configuration line: the protocol (tcp, udp or icmp), a host of the source and of the
// destination (`host A`, `A MASK`, or a network object holding one host or network, read from SCC's objects
// as an access request reads them), the destination port (`eq N` or its name), and the input interface the
// access list is bound to (or, bound to several, the one whose connected subnet holds the source). A rule
// that is not one flow (`ip`, `any`, object-groups, service objects, port ranges, a source port) is said
// plainly, never guessed. The line is built from asaCommands.ts templates: nothing of the rule reaches the
// device as written.
import { accessGroupBindings } from '../render/accessRules.js';
import type { AccessGroup } from '../scc/generated/models.js';
import { fieldIs } from '../scc/lucene.js';
import { traceAddressOf } from './accessDesign.js';
import {
  type AsaCommand,
  DEFAULT_SOURCE_PORT,
  type IcmpType,
  type InterfaceName,
  parseAddress,
  parseIcmpType,
  parsePort,
  pickInterface,
  scriptOf,
  sendableInterfaceName,
} from './asaCommands.js';
import { inferInputInterface } from './inputInterface.js';
import type { OperationContext } from './operation.js';
import { boundedPaginate, listDeviceInterfaces } from './resolve.js';

/** A packet-tracer line for the rule, or why the rule has no single flow to trace. */
export type RuleTrace = { script: string } | { untraceable: string };

/** A side of the rule: the address to trace with, or why there is none. */
type Side = { address: string } | { why: string };

const PORT_OPERATORS = new Set(['eq', 'lt', 'gt', 'neq', 'range']);

/** The prefix length of a contiguous IPv4 mask (`255.255.255.0` → 24); undefined for anything else. */
export function prefixOfMask(mask: string): number | undefined {
  const octets = mask.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return undefined;
  const bits = octets.map((o) => o.toString(2).padStart(8, '0')).join('');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : undefined;
}

/** A network object of the device holding one host or network, as SCC's objects list it. */
async function objectAddress(ctx: OperationContext, name: string): Promise<Side> {
  const items = (await boundedPaginate(
    ctx.scc,
    'getObjects',
    { query: { q: fieldIs('name', name) } },
    'objects',
  )) as {
    name?: string | null;
    elements?: string[] | null;
    value?: { objectType?: string } | null;
  }[];
  const found = items.find((item) => item.name === name && item.value?.objectType === 'NETWORK_OBJECT');
  if (!found) return { why: `SCC has no network object named ${name}` };
  const elements = found.elements ?? [];
  const address = elements.length === 1 ? traceAddressOf(elements[0] ?? '') : undefined;
  return address
    ? { address }
    : { why: `the object ${name} holds ${elements.join(', ') || 'nothing'}, not one IPv4 host or network` };
}

/** Reads one address of the rule from `words` at `at`; `next` is where the words after it start. */
async function sideAt(
  ctx: OperationContext,
  words: readonly string[],
  at: number,
  which: string,
): Promise<{ side: Side; next: number }> {
  const word = words[at] ?? '';
  const after = words[at + 1] ?? '';
  if (word === 'any' || word === 'any4' || word === 'any6')
    return { side: { why: `its ${which} is ${word}` }, next: at + 1 };
  if (word === 'host') {
    const parsed = parseAddress(after);
    return {
      side: parsed.ok ? { address: parsed.value } : { why: `its ${which} host ${after} is not an address` },
      next: at + 2,
    };
  }
  if (word === 'object') return { side: await objectAddress(ctx, after), next: at + 2 };
  if (word === 'object-group')
    return { side: { why: `its ${which} is the object-group ${after}` }, next: at + 2 };
  if (word === 'interface') return { side: { why: `its ${which} is the interface ${after}` }, next: at + 2 };
  const prefix = prefixOfMask(after);
  const address =
    prefix === undefined ? undefined : traceAddressOf(prefix === 32 ? word : `${word}/${prefix}`);
  return {
    side: address ? { address } : { why: `its ${which} ${word} ${after} is not an IPv4 network` },
    next: at + 2,
  };
}

/** The input interface: the access list's one `in` binding, else the interface whose subnet holds the source. */
async function inputOf(
  ctx: OperationContext,
  deviceUid: string,
  group: AccessGroup | undefined,
  source: string,
): Promise<InterfaceName | { why: string }> {
  const interfaces = (await listDeviceInterfaces(ctx.scc, deviceUid)).map((i) => i.iface);
  const nameifs = interfaces.map((i) => i.name ?? '').filter((name) => sendableInterfaceName(name));
  const bound = (group ? accessGroupBindings(group) : [])
    .filter((binding) => binding.startsWith('in on '))
    .map((binding) => binding.slice('in on '.length));
  const named = bound.length === 1 ? bound[0] : inferInputInterface(source, interfaces);
  const input = named === undefined ? undefined : pickInterface(named, nameifs);
  if (input) return input;
  return {
    why:
      bound.length === 0
        ? 'its access list is bound to no interface (or globally), so no input interface is known'
        : `its access list is bound to ${bound.join(', ')} and no connected subnet of those holds ${source}`,
  };
}

/** The rule's one flow as a packet-tracer line, or why it has none (a sentence ending "…has no single flow"). */
export async function ruleTrace(
  ctx: OperationContext,
  deviceUid: string,
  group: AccessGroup | undefined,
  ruleText: string,
): Promise<RuleTrace> {
  const words = ruleText.trim().split(/\s+/);
  const untraceable = (why: string): RuleTrace => ({ untraceable: why });
  // access-list NAME extended permit|deny PROTOCOL SOURCE [PORT] DESTINATION [PORT] [log …] [inactive] …
  if (words[0] !== 'access-list' || words[2] !== 'extended' || !/^(permit|deny)$/.test(words[3] ?? ''))
    return untraceable('it is not an extended permit or deny line');
  const protocol = words[4] ?? '';
  if (protocol === 'object' || protocol === 'object-group')
    return untraceable(`it matches the services of ${protocol} ${words[5] ?? ''}`);
  if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'icmp')
    return untraceable(
      `it matches the protocol ${protocol} (every protocol for ip), not one of tcp, udp, icmp`,
    );
  const source = await sideAt(ctx, words, 5, 'source');
  if ('why' in source.side) return untraceable(source.side.why);
  if (PORT_OPERATORS.has(words[source.next] ?? '')) return untraceable('it names a source port');
  const destination = await sideAt(ctx, words, source.next, 'destination');
  if ('why' in destination.side) return untraceable(destination.side.why);
  const rest = words.slice(destination.next);
  const sourceAddress = parseAddress(source.side.address);
  const destinationAddress = parseAddress(destination.side.address);
  if (!sourceAddress.ok || !destinationAddress.ok) return untraceable('its addresses are not IPv4 addresses');
  let command: (input: InterfaceName) => AsaCommand;
  if (protocol === 'icmp') {
    // An ICMP type, if named, is the first word after the destination; none means every type: echo is traced.
    const typed =
      rest[0] !== undefined && !['log', 'inactive', 'time-range'].includes(rest[0]) ? rest[0] : undefined;
    const type = typed === undefined ? { ok: true as const, value: 8 as IcmpType } : parseIcmpType(typed);
    if (!type.ok) return untraceable(`its ICMP type ${typed} is not one fwbot can trace`);
    command = (input) => ({
      kind: 'packet-tracer',
      input,
      protocol: 'icmp',
      source: sourceAddress.value,
      icmpType: type.value,
      destination: destinationAddress.value,
    });
  } else {
    if (rest[0] !== 'eq') {
      const what = PORT_OPERATORS.has(rest[0] ?? '')
        ? `the ports ${rest[0]} ${rest[1] ?? ''}`
        : `every ${protocol} port`;
      return untraceable(`it matches ${what.trim()}, not one port`);
    }
    const port = parsePort(rest[1] ?? '');
    if (!port.ok) return untraceable(`its port ${rest[1] ?? ''} is not one fwbot can trace`);
    command = (input) => ({
      kind: 'packet-tracer',
      input,
      protocol,
      source: sourceAddress.value,
      sourcePort: DEFAULT_SOURCE_PORT,
      destination: destinationAddress.value,
      destinationPort: port.value,
    });
  }
  const input = await inputOf(ctx, deviceUid, group, sourceAddress.value);
  if (typeof input !== 'string') return untraceable(input.why);
  return { script: scriptOf(command(input)) };
}
