// The only ASA command lines fwbot sends through SCC's command line (`executeCliCommand`): a fixed set of
// read-only templates (packet-tracer, seven show commands, each with what its preview shows, and `show
// access-list <acl>` for the hit counts `/fw access list --hits` reads), the two
// shun templates (`shun <ip>`, `no shun <ip>`), and the validation of every value that goes into them. SCC
// applies what the command line is sent to the device directly, unstaged and without a deploy, so nothing a
// person typed is ever placed in a command as typed: each value is parsed against its own small grammar (an
// address with node:net, a port or ICMP type as a number or a fixed name, an interface from the device's
// own list) and written back in canonical form, and the built line is checked once more against its
// template's full-line pattern. No template changes configuration; the shun templates change what the
// device blocks (in memory, lost on reload), so they are kept apart: `scriptOf` never writes them, and only
// `shunScriptOf` does, for a governed call. The values' grammars are src/model/asaValues.ts (re-exported
// here), shared with the profiles file's smoke traces.
export * from '../model/asaValues.js';

import type { AccessListName, Address, IcmpType, InterfaceName, Port } from '../model/asaValues.js';

/** The show commands `/fw show` offers, each read-only. */
export const SHOW_TOPICS = ['route', 'conn', 'xlate', 'failover', 'interface', 'version', 'shun'] as const;
export type ShowTopic = (typeof SHOW_TOPICS)[number];

export type AsaCommand =
  | {
      kind: 'packet-tracer';
      input: InterfaceName;
      protocol: 'tcp' | 'udp';
      source: Address;
      sourcePort: Port;
      destination: Address;
      destinationPort: Port;
    }
  | {
      kind: 'packet-tracer';
      input: InterfaceName;
      protocol: 'icmp';
      source: Address;
      icmpType: IcmpType;
      destination: Address;
    }
  /** `show route` takes an IPv4 address only (the ASA's IPv6 routes are another command). */
  | { kind: 'show'; topic: 'route' | 'conn' | 'xlate'; address: Address }
  | { kind: 'show'; topic: 'failover' | 'version' | 'shun' }
  | { kind: 'show'; topic: 'interface'; name: InterfaceName }
  /** An access list's lines with their hit counts (not a `/fw show` topic: `/fw access list --hits` reads it). */
  | { kind: 'access-list'; acl: AccessListName };

/** A show command line, by topic. */
export type ShowCommand = Extract<AsaCommand, { kind: 'show' }>;

const NAME = '[A-Za-z0-9][A-Za-z0-9_./:-]{0,63}';
const IPV4 =
  '(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV6 = '[0-9a-f:.]{2,45}';
const ADDRESS = `(?:${IPV4}|${IPV6})`;
const PORT = '(?:[1-9][0-9]{0,4})';
const BYTE = '(?:[0-9]{1,3})';
const ACL = '[A-Za-z0-9][A-Za-z0-9_.-]{0,63}';

/**
 * What a show command's preview shows when its answer is too long for a message (the whole answer goes
 * with it as a file): the lines people run the command for, in the answer's order and with their
 * indentation, matched on their trimmed text. When none matches, the preview is the answer's beginning.
 */
export interface ShowPreview {
  /** Said under the preview: "Above: the failover state of both units." */
  what: string;
  lines: readonly RegExp[];
}

/** The fixed show commands: each one's whole line (the template) and what its preview picks. */
export const SHOW_COMMANDS: Readonly<Record<ShowTopic, { template: RegExp; preview: ShowPreview }>> =
  Object.freeze({
    route: {
      template: new RegExp(`^show route ${IPV4}$`),
      preview: {
        what: 'the route the address takes',
        lines: [/^Routing entry for /, /^Known via /, /^\* /, /^% /],
      },
    },
    conn: {
      template: new RegExp(`^show conn address ${ADDRESS}$`),
      preview: {
        what: 'the connection count and the first connections',
        lines: [/\bin use, .*most used$/, /^(?:TCP|UDP|ICMP|SCTP|GRE|ESP)\s/],
      },
    },
    xlate: {
      template: new RegExp(`^show xlate local ${ADDRESS}$`),
      preview: {
        what: 'the translations of the address',
        lines: [/\bin use, .*most used$/, /^(?:NAT|TCP PAT|UDP PAT|ICMP PAT) from /, /^flags /],
      },
    },
    failover: {
      template: /^show failover$/,
      // The stateful statistics after these are what makes the answer long; the state is what is asked.
      preview: {
        what: 'the failover state of both units and their monitored interfaces',
        lines: [
          /^Failover (?:On|Off)\b/,
          /^Failover unit /,
          /^Failover LAN Interface:/,
          /^Version: /,
          /^Last Failover at:/,
          /^This host: /,
          /^Other host: /,
          /^Interface \S+ \(.*\): /,
        ],
      },
    },
    interface: {
      template: new RegExp(`^show interface ${NAME}$`),
      preview: {
        what: 'its state, speed, addresses and error counters',
        lines: [
          /^Interface \S+ ".*", is /,
          /^Hardware is /,
          /Duplex\(|Auto-Speed\(/,
          /^Description: /,
          /^MAC address /,
          /^IP address /,
          /\binput errors, /,
          /\boutput errors, /,
          /^\d+ packets dropped$/,
        ],
      },
    },
    shun: {
      template: /^show shun$/,
      preview: {
        what: 'the addresses the device blocks now (shuns are lost on reload and failover)',
        lines: [/^shun \(/i, /^Shun \d/],
      },
    },
    version: {
      template: /^show version$/,
      preview: {
        what: 'the software, uptime, hardware and serial number',
        lines: [
          /Software Version /,
          /Operating System Version /,
          /^Device Manager Version /,
          /^\S+ up \d/,
          /^failover cluster up /,
          /^Hardware: /,
          /^Model Id: /,
          /^Serial Number: /,
          /^License mode: /,
          /^This platform has /,
          /^Configuration last modified /,
        ],
      },
    },
  });

/** At most this many lines are picked for a preview (an answer listing thousands of connections). */
export const PREVIEW_LINE_LIMIT = 16;

/** The lines of `output` the topic's preview picks; empty when none matches (then the beginning is shown). */
export function previewLines(topic: ShowTopic, output: string): string[] {
  const { lines } = SHOW_COMMANDS[topic].preview;
  const picked = output.split(/\r?\n/).filter((line) => {
    const trimmed = line.trim();
    return trimmed !== '' && lines.some((pattern) => pattern.test(trimmed));
  });
  return picked.slice(0, PREVIEW_LINE_LIMIT).map((line) => line.trimEnd());
}

/** Each template's whole line: a built script must match one of them exactly (defence in depth). */
export const TEMPLATES: Readonly<Record<string, RegExp>> = Object.freeze({
  'packet-tracer tcp/udp': new RegExp(
    `^packet-tracer input ${NAME} (?:tcp|udp) ${ADDRESS} ${PORT} ${ADDRESS} ${PORT}$`,
  ),
  'packet-tracer icmp': new RegExp(`^packet-tracer input ${NAME} icmp ${IPV4} ${BYTE} 0 ${IPV4}$`),
  ...Object.fromEntries(
    Object.entries(SHOW_COMMANDS).map(([topic, command]) => [`show ${topic}`, command.template]),
  ),
  'show access-list': new RegExp(`^show access-list ${ACL}$`),
});

function line(command: AsaCommand): string {
  if (command.kind === 'access-list') return `show access-list ${command.acl}`;
  if (command.kind === 'packet-tracer') {
    if (command.protocol === 'icmp') {
      const { input, source, icmpType, destination } = command;
      return `packet-tracer input ${input} icmp ${source} ${icmpType} 0 ${destination}`;
    }
    const { input, protocol, source, sourcePort, destination, destinationPort } = command;
    return `packet-tracer input ${input} ${protocol} ${source} ${sourcePort} ${destination} ${destinationPort}`;
  }
  switch (command.topic) {
    case 'route':
      return `show route ${command.address}`;
    case 'conn':
      return `show conn address ${command.address}`;
    case 'xlate':
      return `show xlate local ${command.address}`;
    case 'interface':
      return `show interface ${command.name}`;
    case 'failover':
      return 'show failover';
    case 'version':
      return 'show version';
    case 'shun':
      return 'show shun';
  }
}

/**
 * The one line sent to the device for `command`. Throws (a bug, never a user's mistake) when the line
 * does not match its template exactly or holds a line break: the values' types already promise it.
 */
export function scriptOf(command: AsaCommand): string {
  const script = line(command);
  const fits = Object.values(TEMPLATES).some((template) => template.test(script));
  if (!fits || /[\r\n\u2028\u2029]/.test(script))
    throw new Error(`an ASA command line does not match its template: ${JSON.stringify(script)}`);
  return script;
}

/**
 * A shun: blocks every packet from `address` on the device at once (`shun`), or lifts the block (`no
 * shun`). Only the source-address form: the connection-scoped form and the `vlan`/`interface` options are
 * never written.
 */
export type ShunCommand = { kind: 'shun' | 'no-shun'; address: Address };

/** The shun templates' whole lines, apart from TEMPLATES: no read writes them. */
export const SHUN_TEMPLATES: Readonly<Record<ShunCommand['kind'], RegExp>> = Object.freeze({
  shun: new RegExp(`^shun ${ADDRESS}$`),
  'no-shun': new RegExp(`^no shun ${ADDRESS}$`),
});

/**
 * The one line sent to the device for a shun or its lifting. Throws (a bug, never a user's mistake) when
 * the line does not match its template exactly or holds a line break: the address's type already promises it.
 */
export function shunScriptOf(command: ShunCommand): string {
  const script = `${command.kind === 'shun' ? 'shun' : 'no shun'} ${command.address}`;
  if (!SHUN_TEMPLATES[command.kind].test(script) || /[\r\n\u2028\u2029]/.test(script))
    throw new Error(`an ASA shun line does not match its template: ${JSON.stringify(script)}`);
  return script;
}
