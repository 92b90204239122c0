// What fwbot reads of an ASA's answers about shuns: `show shun` (which addresses the device blocks now) and
// `show conn address <ip>` (the connections a shun of that address would drop: its impact, said before
// it is placed). Answers come back untidy: CRLF line ends, trailing spaces, pager lines (`<--- More --->`)
// and their erase, the prompt echoed, the older PIX format (`Shun <ip> 0.0.0.0 0 0`), interface names of
// any length with or without the comma before `idle`, and mapped addresses in parentheses. A line that is
// none of these is kept in `unread`, never guessed at. Addresses are written back canonically
// (parseAddress), so they compare with the validated ones fwbot sends.
import { type Address, parseAddress } from './asaCommands.js';

/** One line of `show shun`: the address blocked, and the connection it was scoped to (0.0.0.0 / 0 when none). */
export interface ShunEntry {
  /** The interface the address arrives on; undefined in the PIX format, which does not say. */
  interface: string | undefined;
  source: Address;
  destination: Address;
  sourcePort: number;
  destinationPort: number;
  /** IP protocol number (0: any). */
  protocol: number;
}

export interface ShowShun {
  shuns: ShunEntry[];
  /** Lines that were neither a shun, nor noise a terminal adds: kept so nothing is silently lost. */
  unread: string[];
}

/** The lines of an answer without what a terminal adds: CRLF, trailing spaces, pager lines, the prompt. */
export function answerLines(output: string): string[] {
  return output
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/^\s*<-+ More -+>\s*/, '').trimEnd())
    .filter((line) => line.trim() !== '' && !/^\S+[#>]\s*(show .*)?$/.test(line.trim()));
}

const canonical = (text: string): Address | undefined => {
  const checked = parseAddress(text);
  return checked.ok ? checked.value : undefined;
};

/** `0.0.0.0` and `::` stand for "no destination" in `show shun`; both read as the unspecified address. */
const SHUN_LINE = /^shun \(([^)]+)\) (\S+) (\S+) (\d+) (\d+) (\d+)$/i;
const PIX_SHUN_LINE = /^Shun (\S+) (\S+) (\d+) (\d+)(?: (\d+))?$/;

export function parseShowShun(output: string): ShowShun {
  const shuns: ShunEntry[] = [];
  const unread: string[] = [];
  for (const line of answerLines(output)) {
    const text = line.trim();
    const asa = SHUN_LINE.exec(text);
    const pix = asa ? undefined : PIX_SHUN_LINE.exec(text);
    const [ifc, src, dst, sport, dport, proto] = asa ? asa.slice(1) : pix ? [undefined, ...pix.slice(1)] : [];
    const source = src === undefined ? undefined : canonical(src);
    const destination = dst === undefined ? undefined : canonical(dst);
    if (source === undefined || destination === undefined) {
      unread.push(text);
      continue;
    }
    shuns.push({
      interface: ifc,
      source,
      destination,
      sourcePort: Number(sport ?? 0),
      destinationPort: Number(dport ?? 0),
      protocol: Number(proto ?? 0),
    });
  }
  return { shuns, unread };
}

/** One side of a connection: interface, address (and the mapped one the ASA shows in parentheses), port. */
export interface ConnEnd {
  interface: string;
  address: Address;
  mapped: Address | undefined;
  port: number;
}

export interface Connection {
  protocol: string;
  /** The first side the ASA prints (the lower security level's: outside), then the second. */
  first: ConnEnd;
  second: ConnEnd;
  /** `0:01:02` as seconds. */
  idleSeconds: number;
  bytes: number;
  flags: string;
}

export interface ShowConn {
  /** `54 in use, 123 most used`: every connection of the device, not only the ones listed. */
  inUse: number | undefined;
  mostUsed: number | undefined;
  connections: Connection[];
  unread: string[];
}

const COUNT_LINE = /^(\d+) in use, (\d+) most used$/;
// <PROTO> <ifc> <addr>[(<mapped>)]:<port> <ifc> <addr>[(<mapped>)]:<port>[,] idle <h:mm:ss>, bytes <n>, flags <f>
const CONN_LINE =
  /^([A-Z][A-Z0-9]*)\s+(\S+)\s+(\S+?):(\d+)\s+(\S+)\s+(\S+?):(\d+),?\s+idle\s+(\d+(?::\d+)*),\s+bytes\s+(\d+),\s+flags\s*(.*)$/;

function connEnd(ifc: string, text: string, port: string): ConnEnd | undefined {
  const match = /^([^()]+)(?:\(([^()]+)\))?$/.exec(text);
  const address = match?.[1] === undefined ? undefined : canonical(match[1]);
  const mapped = match?.[2] === undefined ? undefined : canonical(match[2]);
  if (address === undefined || (match?.[2] !== undefined && mapped === undefined)) return undefined;
  return { interface: ifc, address, mapped, port: Number(port) };
}

const seconds = (clock: string) => clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);

export function parseShowConn(output: string): ShowConn {
  const result: ShowConn = { inUse: undefined, mostUsed: undefined, connections: [], unread: [] };
  for (const line of answerLines(output)) {
    const text = line.trim();
    const count = COUNT_LINE.exec(text);
    if (count) {
      result.inUse = Number(count[1]);
      result.mostUsed = Number(count[2]);
      continue;
    }
    const conn = CONN_LINE.exec(text);
    const first = conn ? connEnd(conn[2] ?? '', conn[3] ?? '', conn[4] ?? '0') : undefined;
    const second = conn ? connEnd(conn[5] ?? '', conn[6] ?? '', conn[7] ?? '0') : undefined;
    if (!conn || !first || !second) {
      result.unread.push(text);
      continue;
    }
    result.connections.push({
      protocol: conn[1] ?? '',
      first,
      second,
      idleSeconds: seconds(conn[8] ?? '0'),
      bytes: Number(conn[9]),
      flags: (conn[10] ?? '').trim(),
    });
  }
  return result;
}

/** The connections `address` is a side of (real or mapped): what a shun of it would drop. */
export function connectionsOf(conn: ShowConn, address: Address): Connection[] {
  const touches = (end: ConnEnd) => end.address === address || end.mapped === address;
  return conn.connections.filter((c) => touches(c.first) || touches(c.second));
}
