// The ASA command-line templates: every value parsed against its grammar and written back canonically,
// every built line matched against its template, nothing typed ever reaching a line as typed. And what each
// show command's preview picks from real devices' answers (test/fixtures/show/).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AsaCommand,
  type InterfaceName,
  parseAddress,
  parseIcmpType,
  parsePort,
  parseProtocol,
  pickInterface,
  previewLines,
  SHOW_COMMANDS,
  SHOW_TOPICS,
  scriptOf,
  TEMPLATES,
} from '../../src/catalogue/asaCommands.js';

/** A real device's answer kept in test/fixtures/show/, without its `# ` header. */
function answer(name: string): string {
  const text = readFileSync(join(import.meta.dirname, '../fixtures/show', name), 'utf8');
  return text.slice(text.indexOf('# ---\n') + 6);
}

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

describe('show previews', () => {
  it('declares a template and a preview for every show topic', () => {
    for (const topic of SHOW_TOPICS) {
      expect(TEMPLATES[`show ${topic}`]).toBe(SHOW_COMMANDS[topic].template);
      expect(SHOW_COMMANDS[topic].preview.lines.length).toBeGreaterThan(0);
    }
  });

  it('shows both units’ state of show failover, which the first 12 lines leave out', () => {
    for (const name of ['show-failover-asa5516-active-standby.txt', 'show-failover-asa5585-flat.txt']) {
      const output = answer(name);
      const lines = previewLines('failover', output);
      expect(
        lines.some((l) => /This host: \S+ - Active/.test(l)),
        name,
      ).toBe(true);
      expect(
        lines.some((l) => /Other host: \S+ - Standby Ready/.test(l)),
        name,
      ).toBe(true);
      expect(
        lines.some((l) => l.trim().startsWith('Interface inside')),
        name,
      ).toBe(true);
      expect(lines.join('\n')).not.toContain('Stateful');
      expect(lines.length).toBeLessThanOrEqual(16);
      // What a preview showed before: the configuration lines at the top, no host.
      expect(output.split('\n').slice(0, 12).join('\n')).not.toContain('This host');
    }
    expect(previewLines('failover', answer('show-failover-off.txt'))).toEqual([
      'Failover Off',
      'Failover unit Secondary',
      'Failover LAN Interface: not Configured',
    ]);
  });

  it('shows the software, uptime, hardware and serial number of show version, not the licence table', () => {
    expect(previewLines('version', answer('show-version-asa5516-992.txt'))).toEqual([
      'Cisco Adaptive Security Appliance Software Version 9.9(2)32',
      'Firepower Extensible Operating System Version 2.3(1.121)',
      'Device Manager Version 7.9(1)151',
      'asa1 up 51 days 9 hours',
      'failover cluster up 83 days 15 hours',
      'Hardware:   ASA5516, 8192 MB RAM, CPU Atom C2000 series 2416 MHz, 1 CPU (8 cores)',
      'Serial Number: JAD222605K8',
      'Configuration last modified by ntc at 17:20:37.576 CDT Thu Aug 8 2019',
    ]);
    expect(previewLines('version', answer('show-version-isa3000-916-activation-key.txt'))).toContain(
      'This platform has a Base license.',
    );
  });

  it('shows the state, addresses and error counters of show interface', () => {
    const lines = previewLines('interface', answer('show-interface-asav-outside.txt')).map((l) => l.trim());
    expect(lines).toEqual([
      'Interface GigabitEthernet0/0 "outside", is up, line protocol is up',
      'Hardware is i82540EM rev03, BW 1000 Mbps, DLY 10 usec',
      'Full-Duplex(Full-duplex), Auto-Speed(1000 Mbps)',
      'Description: to iosv-1',
      'MAC address fa16.3eb0.c3d3, MTU 1500',
      'IP address 10.0.0.5, subnet mask 255.255.255.252',
      '0 input errors, 0 CRC, 0 frame, 0 overrun, 0 ignored, 0 abort',
      '0 output errors, 0 collisions, 2 interface resets',
      '2 packets dropped',
    ]);
  });

  it('picks at most 16 lines, from an answer listing thousands of connections', () => {
    const conns = Array.from(
      { length: 5000 },
      (_, i) =>
        `TCP outside  8.8.8.8:443 inside  10.1.0.${i % 250}:${40000 + i}, idle 0:00:01, bytes 1, flags UIO`,
    );
    const lines = previewLines('conn', ['5000 in use, 6000 most used', '', ...conns].join('\n'));
    expect(lines).toHaveLength(16);
    expect(lines[0]).toBe('5000 in use, 6000 most used');
  });
});
