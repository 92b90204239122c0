// Ports as the simulated ASA's configuration writes them: the port names it accepts and the port operators
// of an access-list line or a service object (`eq`, `lt`, `gt`, `neq`, `range`). Shared by the objects'
// parse (asaObjects.ts) and the access lists' (asaAccessLists.ts). Pure functions.
import type { PortRange } from './asaPolicyModel.js';

/** ASA port names (`eq https`) and their numbers. */
const PORT_NAMES: Readonly<Record<string, number>> = {
  echo: 7,
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  domain: 53,
  bootps: 67,
  bootpc: 68,
  tftp: 69,
  www: 80,
  http: 80,
  pop3: 110,
  ntp: 123,
  imap4: 143,
  snmp: 161,
  ldap: 389,
  https: 443,
  isakmp: 500,
  syslog: 514,
  ldaps: 636,
  sqlnet: 1521,
  h323: 1720,
  sip: 5060,
};

/**
 * The name a real ASA writes for a port in its configuration, where it knows one: `access-list … eq 443` is
 * shown as `eq https` (and 80 as `www`, never `http`). Numbers it has no name for stay numbers.
 */
export function asaPortWord(port: string): string {
  if (!/^\d{1,5}$/.test(port)) return port;
  const n = Number(port);
  if (n === 80) return 'www';
  return Object.entries(PORT_NAMES).find(([, number]) => number === n)?.[0] ?? port;
}

function portNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return PORT_NAMES[text.toLowerCase()];
}

/** `eq X`, `lt X`, `gt X`, `neq X`, `range A B` at tokens[i]; the ranges and how many tokens were used. */
export function portMatch(
  tokens: readonly string[],
  i: number,
): { ports: PortRange[]; used: number } | undefined {
  const op = tokens[i];
  const a = portNumber(tokens[i + 1]);
  if (a === undefined) return undefined;
  switch (op) {
    case 'eq':
      return { ports: [{ low: a, high: a }], used: 2 };
    case 'lt':
      return { ports: [{ low: 0, high: a - 1 }], used: 2 };
    case 'gt':
      return { ports: [{ low: a + 1, high: 65535 }], used: 2 };
    case 'neq':
      return {
        ports: [
          { low: 0, high: a - 1 },
          { low: a + 1, high: 65535 },
        ],
        used: 2,
      };
    case 'range': {
      const b = portNumber(tokens[i + 2]);
      return b === undefined ? undefined : { ports: [{ low: a, high: b }], used: 3 };
    }
    default:
      return undefined;
  }
}
