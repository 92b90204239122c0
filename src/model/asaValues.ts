// The values fwbot may place into an ASA command line (src/catalogue/asaCommands.ts builds the lines): each
// parsed against its own small grammar (an address with node:net, a port or ICMP type as a number or a fixed
// name, an interface name's shape, a protocol) and written back in canonical form. Pure: no device, no SCC.
// Here rather than beside the templates so the profiles file can check the packet-traces it declares
// (`upgrades.smoke_traces`) with the very grammar `/fw trace` uses; asaCommands.ts re-exports all of it.
import { isIP } from 'node:net';

/** Longer than any value a template takes (an IPv6 address is at most 45 characters): refused as is. */
export const MAX_VALUE_LENGTH = 64;

/** A value that passed its grammar and was written back canonically; only this module makes them. */
declare const validated: unique symbol;
type Validated<T, Kind extends string> = T & { readonly [validated]: Kind };

export type Address = Validated<string, 'address'>;
export type Port = Validated<number, 'port'>;
export type IcmpType = Validated<number, 'icmp-type'>;
/** An interface name as the device spells it (nameif or hardware name), found in its own list. */
export type InterfaceName = Validated<string, 'interface'>;
/** An access list's name as SCC and the device spell it (`outside_access_in`), checked against its shape. */
export type AccessListName = Validated<string, 'access-list'>;

/** Why a value was refused: one sentence's tail, completed with the argument's name by the caller. */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

export const PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Well-known service names, as the ASA knows them (and a few common aliases); always sent as numbers. */
export const PORT_NAMES: Readonly<Record<string, number>> = Object.freeze({
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  tacacs: 49,
  domain: 53,
  dns: 53,
  bootps: 67,
  bootpc: 68,
  tftp: 69,
  http: 80,
  www: 80,
  kerberos: 88,
  pop3: 110,
  ntp: 123,
  imap4: 143,
  snmp: 161,
  snmptrap: 162,
  bgp: 179,
  ldap: 389,
  https: 443,
  isakmp: 500,
  syslog: 514,
  ldaps: 636,
  sqlnet: 1521,
  radius: 1645,
  'radius-acct': 1646,
  nfs: 2049,
  rdp: 3389,
  sip: 5060,
});

/** ICMP types by the ASA's names; always sent as numbers. */
export const ICMP_TYPE_NAMES: Readonly<Record<string, number>> = Object.freeze({
  'echo-reply': 0,
  unreachable: 3,
  'source-quench': 4,
  redirect: 5,
  'alternate-address': 6,
  echo: 8,
  'router-advertisement': 9,
  'router-solicitation': 10,
  'time-exceeded': 11,
  'parameter-problem': 12,
  'timestamp-request': 13,
  'timestamp-reply': 14,
  'information-request': 15,
  'information-reply': 16,
  'mask-request': 17,
  'mask-reply': 18,
  traceroute: 30,
});

/** The source port packet-tracer is given when none is typed: the first of the dynamic range. */
export const DEFAULT_SOURCE_PORT = 49152 as Port;

/** Printable ASCII without spaces; everything else (control characters, look-alikes) is refused early. */
const PLAIN_ASCII = /^[\x21-\x7e]+$/;

function tooLongOrNotPlain(raw: string): string | undefined {
  if (raw.length === 0) return 'is empty.';
  if (raw.length > MAX_VALUE_LENGTH) return `is longer than ${MAX_VALUE_LENGTH} characters.`;
  if (!PLAIN_ASCII.test(raw))
    return 'has characters outside its grammar (spaces, line breaks, or letters that only look like ASCII).';
  return undefined;
}

/**
 * An IPv4 or IPv6 address, written back canonically: IPv4 as four decimal octets, IPv6 compressed and
 * lower-case (RFC 5952, as the WHATWG URL parser writes it). No zone, no prefix length, no host name.
 */
export function parseAddress(raw: string): Checked<Address> {
  const refused = tooLongOrNotPlain(raw);
  const wanted = 'must be an IPv4 or IPv6 address such as 10.1.100.25 or 2001:db8::10.';
  if (refused) return { ok: false, reason: `${refused.replace(/\.$/, '')}; it ${wanted}` };
  if (!/^[0-9A-Fa-f.:]+$/.test(raw)) return { ok: false, reason: wanted };
  const family = isIP(raw);
  if (family === 4) return { ok: true, value: raw.split('.').map(Number).join('.') as Address };
  if (family === 6) {
    const host = new URL(`http://[${raw}]/`).hostname;
    return { ok: true, value: host.slice(1, -1) as Address };
  }
  return { ok: false, reason: wanted };
}

export function addressFamily(address: Address): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

function numberOrName<T extends number>(
  raw: string,
  names: Readonly<Record<string, number>>,
  min: number,
  max: number,
  what: string,
): Checked<T> {
  const wanted = `must be a ${what} from ${min} to ${max}, or one of ${Object.keys(names).join(', ')}.`;
  const refused = tooLongOrNotPlain(raw);
  if (refused) return { ok: false, reason: `${refused.replace(/\.$/, '')}; it ${wanted}` };
  // Digits only: `1e3`, `0x50`, `-1` and `+80` are not ports even where Number() would read them.
  if (/^[0-9]{1,5}$/.test(raw)) {
    const value = Number(raw);
    return value >= min && value <= max ? { ok: true, value: value as T } : { ok: false, reason: wanted };
  }
  const named = Object.hasOwn(names, raw.toLowerCase()) ? names[raw.toLowerCase()] : undefined;
  return named === undefined ? { ok: false, reason: wanted } : { ok: true, value: named as T };
}

/** A TCP or UDP port: 1–65535 or a service name (`https`), sent as a number. */
export function parsePort(raw: string): Checked<Port> {
  return numberOrName<Port>(raw, PORT_NAMES, 1, 65535, 'port number');
}

/** An ICMP type: 0–255 or the ASA's name for it (`echo`), sent as a number. */
export function parseIcmpType(raw: string): Checked<IcmpType> {
  return numberOrName<IcmpType>(raw, ICMP_TYPE_NAMES, 0, 255, 'ICMP type');
}

export function parseProtocol(raw: string): Checked<Protocol> {
  const wanted = `must be one of ${PROTOCOLS.join(', ')}.`;
  if (tooLongOrNotPlain(raw)) return { ok: false, reason: wanted };
  const lower = raw.toLowerCase();
  const found = PROTOCOLS.find((p) => p === lower);
  return found ? { ok: true, value: found } : { ok: false, reason: wanted };
}

/** What an interface name may look like on an ASA (`outside`, `GigabitEthernet1/2.100`, `Port-channel1`). */
const INTERFACE_NAME = /^[A-Za-z0-9][A-Za-z0-9_./:-]{0,63}$/;

/** The typed text could name an interface at all (checked before SCC is asked for the device's list). */
export function checkInterfaceText(raw: string): Checked<string> {
  const refused = tooLongOrNotPlain(raw);
  if (refused) return { ok: false, reason: refused };
  if (!INTERFACE_NAME.test(raw))
    return {
      ok: false,
      reason:
        'must be an interface name: letters, digits and _ . / : - (such as outside or GigabitEthernet1/2).',
    };
  return { ok: true, value: raw };
}

/**
 * The device's own spelling of the interface `typed` names, among `names` (the device's nameifs, or its
 * nameifs and hardware names): an exact match, else the only case-insensitive one. A name the device
 * itself spells outside the grammar is never offered, so it can never be sent.
 */
export function pickInterface(typed: string, names: readonly string[]): InterfaceName | undefined {
  const usable = names.filter((name) => INTERFACE_NAME.test(name));
  if (usable.includes(typed)) return typed as InterfaceName;
  const folded = usable.filter((name) => name.toLowerCase() === typed.toLowerCase());
  return folded.length === 1 ? (folded[0] as InterfaceName) : undefined;
}

/** Whether an interface name as the device spells it could be sent (used to offer choices). */
export function sendableInterfaceName(name: string): name is InterfaceName {
  return INTERFACE_NAME.test(name);
}

/**
 * What an access list's name may look like to be sent (`outside_access_in`, `INSIDE_out`, `access-global-in`,
 * `101`): letters, digits and `_ . -`. The device allows more, but a name outside this shape is never sent.
 */
const ACCESS_LIST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** An access list's name, as SCC's access group names it, checked before it goes into `show access-list`. */
export function parseAccessListName(raw: string): Checked<AccessListName> {
  const refused = tooLongOrNotPlain(raw);
  if (refused) return { ok: false, reason: refused };
  if (!ACCESS_LIST_NAME.test(raw))
    return { ok: false, reason: 'must be an access list name: letters, digits and _ . - only.' };
  return { ok: true, value: raw as AccessListName };
}
