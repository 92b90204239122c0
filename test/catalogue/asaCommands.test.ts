// The ASA command-line templates: every value parsed against its grammar and written back canonically,
// every built line matched against its template, nothing typed ever reaching a line as typed.
import { describe, expect, it } from 'vitest';
import {
  type AsaCommand,
  type InterfaceName,
  parseAddress,
  parseIcmpType,
  parsePort,
  parseProtocol,
  pickInterface,
  scriptOf,
  TEMPLATES,
} from '../../src/catalogue/asaCommands.js';

function value<T>(checked: { ok: true; value: T } | { ok: false; reason: string }): T {
  if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
  return checked.value;
}

describe('ASA command templates', () => {
  it('writes addresses back canonically: IPv4 as four octets, IPv6 compressed and lower-case', () => {
    expect(value(parseAddress('10.1.100.25'))).toBe('10.1.100.25');
    expect(value(parseAddress('2001:DB8:0:0:0:0:0:10'))).toBe('2001:db8::10');
    expect(value(parseAddress('2001:db8:0000::0001'))).toBe('2001:db8::1');
  });

  it.each([
    '10.1.100',
    '010.1.100.25',
    '10.1.100.256',
    'fe80::1%eth0',
    '10.1.100.0/24',
    'host',
    '１０.1.100.25',
    '10.1.100.25\n',
    ' 10.1.100.25',
    '10.1.100.25;',
    '1'.repeat(65),
  ])('refuses %j as an address', (typed) => {
    expect(parseAddress(typed).ok).toBe(false);
  });

  it('takes ports 1–65535 or a fixed name, as numbers', () => {
    expect(value(parsePort('443'))).toBe(443);
    expect(value(parsePort('https'))).toBe(443);
    expect(value(parsePort('WWW'))).toBe(80);
    expect(value(parsePort('65535'))).toBe(65535);
  });

  it.each([
    '0',
    '65536',
    '-1',
    '1e3',
    '0x50',
    '+80',
    '80.0',
    '４４３',
    'toString',
    '__proto__',
    'constructor',
    '',
  ])('refuses %j as a port', (typed) => {
    expect(parsePort(typed).ok).toBe(false);
  });

  it('takes ICMP types 0–255 or a fixed name, as numbers', () => {
    expect(value(parseIcmpType('echo'))).toBe(8);
    expect(value(parseIcmpType('0'))).toBe(0);
    expect(parseIcmpType('256').ok).toBe(false);
    expect(parseIcmpType('echo\r').ok).toBe(false);
  });

  it('takes the protocol from its list only', () => {
    expect(value(parseProtocol('TCP'))).toBe('tcp');
    expect(parseProtocol('ip').ok).toBe(false);
    expect(parseProtocol('tсp').ok).toBe(false); // Cyrillic "с"
  });

  it('picks an interface only from the device’s own list, in the device’s spelling', () => {
    const names = ['outside', 'inside', 'GigabitEthernet1/2', 'bad name'];
    expect(pickInterface('outside', names)).toBe('outside');
    expect(pickInterface('OUTSIDE', names)).toBe('outside');
    expect(pickInterface('gigabitethernet1/2', names)).toBe('GigabitEthernet1/2');
    expect(pickInterface('dmz', names)).toBeUndefined();
    // A name the device itself spells outside the grammar is never sent.
    expect(pickInterface('bad name', names)).toBeUndefined();
  });

  it('builds each template exactly', () => {
    const src = value(parseAddress('198.51.100.7'));
    const dst = value(parseAddress('203.0.113.10'));
    const outside = 'outside' as InterfaceName;
    const cases: [AsaCommand, string][] = [
      [
        {
          kind: 'packet-tracer',
          input: outside,
          protocol: 'tcp',
          source: src,
          sourcePort: value(parsePort('49152')),
          destination: dst,
          destinationPort: value(parsePort('https')),
        },
        'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443',
      ],
      [
        {
          kind: 'packet-tracer',
          input: outside,
          protocol: 'icmp',
          source: src,
          icmpType: value(parseIcmpType('echo')),
          destination: dst,
        },
        'packet-tracer input outside icmp 198.51.100.7 8 0 203.0.113.10',
      ],
      [{ kind: 'show', topic: 'route', address: dst }, 'show route 203.0.113.10'],
      [{ kind: 'show', topic: 'conn', address: src }, 'show conn address 198.51.100.7'],
      [{ kind: 'show', topic: 'xlate', address: src }, 'show xlate local 198.51.100.7'],
      [{ kind: 'show', topic: 'failover' }, 'show failover'],
      [{ kind: 'show', topic: 'version' }, 'show version'],
      [
        { kind: 'show', topic: 'interface', name: 'GigabitEthernet1/2' as InterfaceName },
        'show interface GigabitEthernet1/2',
      ],
    ];
    for (const [command, line] of cases) expect(scriptOf(command)).toBe(line);
  });

  it('refuses to build a line that escapes its template, whatever the types were told', () => {
    // Only a bug could get here (the values' types come from the parsers); the check still holds.
    const forged = {
      kind: 'show',
      topic: 'interface',
      name: 'outside\nconfigure terminal' as InterfaceName,
    } as const;
    expect(() => scriptOf(forged)).toThrow(/does not match its template/);
    const spaced = { kind: 'show', topic: 'interface', name: 'outside shutdown' as InterfaceName } as const;
    expect(() => scriptOf(spaced)).toThrow(/does not match its template/);
  });

  it('has no template that could change configuration', () => {
    for (const template of Object.values(TEMPLATES)) {
      expect(template.source).toMatch(/^\^(?:packet-tracer input|show )/);
      expect(template.source.endsWith('$')).toBe(true);
    }
  });
});
