// The design of an access request's rule, as pure functions over validated values: what a source or a
// destination may be (a host, a CIDR, or an existing object's name: anything else is refused before any
// call), the address packet-tracer is run with, the name fwbot gives an object it creates, the remark, and
// the commands fwbot predicts SCC will calculate. Nothing a person typed reaches a command as typed: every
// word below is built from a checked address, prefix, port or name.
//
// Object names (docs/using/access-requests.md): a host is `fwbot-h-<address>` (`fwbot-h-10.1.2.3`), a
// network `fwbot-n-<address>_<prefix>` (`fwbot-n-10.1.0.0_16`).
import { isIP } from 'node:net';
import { ICMP_TYPE_NAMES, PORT_NAMES } from '../model/asaValues.js';

/** An object's name as the ASA accepts it (and as SCC's object API does). */
export const OBJECT_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

export const ACCESS_PROTOCOLS = ['tcp', 'udp', 'icmp', 'ip'] as const;
export type AccessProtocol = (typeof ACCESS_PROTOCOLS)[number];

/** A source or destination: an IPv4 host, an IPv4 network (host bits zero), or an object of the device. */
export type Endpoint =
  | { kind: 'address'; address: string; prefix: number }
  | { kind: 'object'; name: string };

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const WANTED =
  'must be an IPv4 host (10.1.2.3), a network in CIDR form (10.1.0.0/16), or the name of an existing network object';

function ipv4Value(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function ipv4Text(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The network mask of a prefix length, as the ASA writes it (`255.255.0.0`). */
export function maskOf(prefix: number): string {
  return ipv4Text(prefix === 0 ? 0 : 2 ** 32 - 2 ** (32 - prefix));
}

/** Reads one typed endpoint; refused with a sentence when it is none of the three. */
export function parseEndpoint(raw: string): Checked<Endpoint> {
  const typed = raw.trim();
  if (typed.length === 0 || typed.length > 64) return { ok: false, reason: `${WANTED}.` };
  const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})(?:\/(\d{1,2}))?$/.exec(typed);
  if (cidr) {
    const [, address = '', prefixText] = cidr;
    if (isIP(address) !== 4) return { ok: false, reason: `${WANTED}; “${typed}” is not an IPv4 address.` };
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    if (prefix > 32) return { ok: false, reason: `${WANTED}; a prefix length is 0 to 32.` };
    if (prefix === 0)
      return {
        ok: false,
        reason: 'must name a host or a network: 0.0.0.0/0 (any) is not granted by an access request.',
      };
    const canonical = address.split('.').map(Number).join('.');
    const value = ipv4Value(canonical);
    const size = 2 ** (32 - prefix);
    if (value % size !== 0)
      return {
        ok: false,
        reason: `has host bits set: ${canonical}/${prefix} is not a network (did you mean ${ipv4Text(value - (value % size))}/${prefix}?).`,
      };
    return { ok: true, value: { kind: 'address', address: canonical, prefix } };
  }
  if (/^[\d./]+$/.test(typed)) return { ok: false, reason: `${WANTED}.` };
  if (/^any[46]?$/i.test(typed))
    return { ok: false, reason: 'must name a host or a network: `any` is not granted by an access request.' };
  if (!OBJECT_NAME.test(typed)) return { ok: false, reason: `${WANTED}.` };
  return { ok: true, value: { kind: 'object', name: typed } };
}

/** `10.1.2.3` for a host, `10.1.0.0/16` for a network: how SCC lists an object's elements. */
export function cidrOf(endpoint: { address: string; prefix: number }): string {
  return endpoint.prefix === 32 ? endpoint.address : `${endpoint.address}/${endpoint.prefix}`;
}

/** The name fwbot gives an object it creates for a host or a network (the documented convention). */
export function objectNameFor(endpoint: { address: string; prefix: number }): string {
  return endpoint.prefix === 32
    ? `fwbot-h-${endpoint.address}`
    : `fwbot-n-${endpoint.address}_${endpoint.prefix}`;
}

/**
 * The address packet-tracer is run with for an element of an object or a typed endpoint: the host itself,
 * or a network's first host address (`10.1.0.1` for `10.1.0.0/16`; the network itself for /31 and /32).
 * Undefined for what is not an IPv4 host or network (a range, an FQDN, IPv6).
 */
export function traceAddressOf(element: string): string | undefined {
  const parsed = parseEndpoint(element);
  if (!parsed.ok || parsed.value.kind !== 'address') return undefined;
  const { address, prefix } = parsed.value;
  return prefix >= 31 ? address : ipv4Text(ipv4Value(address) + 1);
}

/** A port (1–65535) for tcp and udp, an ICMP type (0–255) for icmp; none for ip. */
export function portWords(protocol: AccessProtocol, port: number | undefined): string | undefined {
  if (port === undefined) return undefined;
  if (protocol === 'tcp' || protocol === 'udp') return `eq ${port}`;
  if (protocol === 'icmp') return String(port);
  return undefined;
}

/** The rule's configuration line as the ASA prints it (SCC's ruleConfigurationText), without a line. */
export function ruleLine(
  acl: string,
  rule: { protocol: AccessProtocol; source: string; destination: string; port?: number | undefined },
): string {
  return [
    'access-list',
    acl,
    'extended permit',
    rule.protocol,
    `object ${rule.source}`,
    `object ${rule.destination}`,
    portWords(rule.protocol, rule.port),
  ]
    .filter((w): w is string => w !== undefined)
    .join(' ');
}

/** An ASA remark holds at most 100 characters, printable, on one line. */
const REMARK_LIMIT = 100;

/** `fwbot: @alice T-1234 partner sync`: the requester, the ticket and the reason, on one line of at most 100. */
export function remarkOf(requester: string, ticket: string | undefined, reason: string): string {
  const plain = (text: string) =>
    text
      .replace(/[^\x20-\x7e]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const text = ['fwbot:', plain(requester), ticket ? plain(ticket) : undefined, plain(reason)]
    .filter((w): w is string => w !== undefined && w !== '')
    .join(' ');
  return text.length <= REMARK_LIMIT
    ? text
    : `${text.slice(0, REMARK_LIMIT - 1).trimEnd()}…`.slice(0, REMARK_LIMIT);
}

/** An object fwbot creates for the rule: its name and its one element. */
export interface NewObject {
  name: string;
  cidr: string;
}

/** The object's definition as the ASA prints it. */
export function objectCommands(object: NewObject): string[] {
  const [address = '', prefixText] = object.cidr.split('/');
  const body =
    prefixText === undefined ? ` host ${address}` : ` subnet ${address} ${maskOf(Number(prefixText))}`;
  return [`object network ${object.name}`, body];
}

/**
 * The commands fwbot expects SCC to calculate: the objects it creates, then the remark and the rule at
 * their lines (the remark takes the line the rule was to take, the rule the next one).
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** An ASA time-range that ends at `end` (UTC): its name by fwbot's convention and its `absolute` line. */
export interface TimeRangeDesign {
  name: string;
  line: string;
}

/** `fwbot-until-20270131-0000` with `absolute end 00:00 31 January 2027`: built from a time, never typed. */
export function timeRangeFor(end: number): TimeRangeDesign {
  const d = new Date(end);
  const two = (n: number) => String(n).padStart(2, '0');
  const hhmm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  const ymd = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
  return {
    name: `fwbot-until-${ymd}-${hhmm.replace(':', '')}`,
    line: `absolute end ${hhmm} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
  };
}

export function predictedAccessCommands(design: {
  acl: string;
  index: number;
  remark: string;
  rule: string;
  create: readonly NewObject[];
  timeRange?: TimeRangeDesign | undefined;
}): string[] {
  const rest = design.rule.slice(`access-list ${design.acl} `.length);
  return [
    ...(design.timeRange ? [`time-range ${design.timeRange.name}`, ` ${design.timeRange.line}`] : []),
    ...design.create.flatMap(objectCommands),
    `access-list ${design.acl} line ${design.index} remark ${design.remark}`,
    `access-list ${design.acl} line ${design.index + 1} ${rest}`,
  ];
}

/** Words after which the next word is a name of the configuration's own, never a port or ICMP type. */
const NAMING_WORDS = new Set([
  'object',
  'object-group',
  'host',
  'access-list',
  'interface',
  'time-range',
  'user',
]);
const PORT_OPERATORS = new Set(['eq', 'lt', 'gt', 'neq']);

/**
 * A rule's words as the ASA means them: a port or ICMP type written by name (`eq https`, `echo`) becomes its
 * number, so fwbot's line (always numbers) and the device's (which prints the names it knows: a real ASA shows
 * `eq https` for `eq 443`) compare equal.
 */
function numericWords(words: readonly string[]): string[] {
  const icmp = words.some((word, i) => i < 6 && /^icmp$/i.test(word));
  return words.map((word, i) => {
    const before = words[i - 1]?.toLowerCase() ?? '';
    if (NAMING_WORDS.has(before)) return word;
    const lower = word.toLowerCase();
    const port = PORT_NAMES[lower];
    const portPlace =
      PORT_OPERATORS.has(before) || before === 'range' || words[i - 2]?.toLowerCase() === 'range';
    if (portPlace && port !== undefined) return String(port);
    const type = ICMP_TYPE_NAMES[lower];
    if (icmp && type !== undefined) return String(type);
    return word;
  });
}

/**
 * Whitespace-insensitive, without the `line N` a configuration line may carry, with ports and ICMP types
 * by number: for comparing rules. A remark is compared as written.
 */
export function sameRuleText(a: string, b: string): boolean {
  const plain = (text: string) => {
    const words = text
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/^(access-list \S+) line \d+ /, '$1 ')
      .split(' ');
    return (words[2]?.toLowerCase() === 'remark' ? words : numericWords(words)).join(' ');
  };
  return plain(a) === plain(b);
}
