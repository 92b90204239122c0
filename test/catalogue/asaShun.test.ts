// The shun templates and what fwbot reads of `show shun` and `show conn address`: lines built only from a
// validated address (hostile input refused before any line exists), kept apart from the read-only
// templates, and parsers held to real devices' answers from Cisco's public documents (test/fixtures/show/,
// each with its source), untidy ones included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Address,
  parseAddress,
  previewLines,
  SHUN_TEMPLATES,
  scriptOf,
  shunScriptOf,
  TEMPLATES,
} from '../../src/catalogue/asaCommands.js';
import { connectionsOf, parseShowConn, parseShowShun } from '../../src/catalogue/asaShunOutput.js';

/** A real device's answer kept in test/fixtures/show/, without its `# ` header. */
function answer(name: string): string {
  const text = readFileSync(join(import.meta.dirname, '../fixtures/show', name), 'utf8');
  return text.slice(text.indexOf('# ---\n') + 6);
}

function address(raw: string): Address {
  const checked = parseAddress(raw);
  if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
  return checked.value;
}

describe('shun templates', () => {
  it('writes shun and no shun of a canonical address, IPv4 and IPv6', () => {
    expect(shunScriptOf({ kind: 'shun', address: address('198.51.100.7') })).toBe('shun 198.51.100.7');
    expect(shunScriptOf({ kind: 'no-shun', address: address('2001:DB8:0:0::66') })).toBe(
      'no shun 2001:db8::66',
    );
    expect(scriptOf({ kind: 'show', topic: 'shun' })).toBe('show shun');
    expect(scriptOf({ kind: 'show', topic: 'conn', address: address('10.1.100.25') })).toBe(
      'show conn address 10.1.100.25',
    );
  });

  it.each([
    '1.2.3.4\nreload',
    '1.2.3.4; write erase',
    '1.2.3.4 reload',
    '1.2.3.4\r\nclear configure all',
    '1.2.3.4|include',
    '10.0.0.0/8',
    'fe80::1%outside',
    'attacker.example',
    '１.2.3.4',
    '999.1.1.1',
    '',
  ])('refuses %j before any line is built', (raw) => {
    expect(parseAddress(raw).ok).toBe(false);
  });

  it('throws rather than send a line that does not fit its template, whatever the value claims to be', () => {
    const forged = '1.2.3.4\nreload' as Address;
    expect(() => shunScriptOf({ kind: 'shun', address: forged })).toThrow(/does not match its template/);
    expect(() => shunScriptOf({ kind: 'no-shun', address: '1.2.3.4 ' as Address })).toThrow();
    expect(() => scriptOf({ kind: 'show', topic: 'conn', address: forged })).toThrow(/does not match/);
  });

  it('keeps the shun lines out of the read-only templates, and reads out of the shun ones', () => {
    const reads = Object.values(TEMPLATES);
    expect(reads.some((t) => t.test('shun 1.2.3.4'))).toBe(false);
    expect(reads.some((t) => t.test('no shun 1.2.3.4'))).toBe(false);
    expect(reads.some((t) => t.test('clear shun'))).toBe(false);
    expect(Object.values(SHUN_TEMPLATES).some((t) => t.test('show shun'))).toBe(false);
    expect(Object.values(SHUN_TEMPLATES).some((t) => t.test('shun 1.2.3.4 5.6.7.8 1 2 6'))).toBe(false);
  });
});

describe('show shun', () => {
  it('reads the command reference sample: interface, source, the connection it was scoped to', () => {
    const { shuns, unread } = parseShowShun(answer('show-shun-asa-command-reference.txt'));
    expect(unread).toEqual([]);
    expect(shuns).toEqual([
      {
        interface: 'outside',
        source: '10.1.1.27',
        destination: '10.2.2.89',
        sourcePort: 555,
        destinationPort: 666,
        protocol: 6,
      },
      {
        interface: 'inside1',
        source: '10.1.1.27',
        destination: '10.2.2.89',
        sourcePort: 555,
        destinationPort: 666,
        protocol: 6,
      },
    ]);
  });

  it('reads the older PIX format, which names no interface', () => {
    expect(parseShowShun(answer('show-shun-pix6-ccsp.txt'))).toEqual({
      shuns: [
        {
          interface: undefined,
          source: '192.168.1.10',
          destination: '0.0.0.0',
          sourcePort: 0,
          destinationPort: 0,
          protocol: 0,
        },
      ],
      unread: [],
    });
  });

  it('reads through CRLF, trailing spaces, a pager line and the echoed prompt', () => {
    const { shuns, unread } = parseShowShun(answer('show-shun-untidy-terminal.txt'));
    expect(unread).toEqual([]);
    expect(shuns.map((s) => `${s.interface} ${s.source} ${s.destination}`)).toEqual([
      'outside 10.1.1.27 0.0.0.0',
      'inside1 10.1.1.27 10.2.2.89',
      'outside 2001:db8::66 ::',
    ]);
    expect(previewLines('shun', answer('show-shun-untidy-terminal.txt'))).toHaveLength(3);
  });

  it('keeps what it cannot read instead of guessing, and reads an empty answer as no shun', () => {
    expect(parseShowShun('')).toEqual({ shuns: [], unread: [] });
    expect(parseShowShun('shun (outside) not-an-address 0.0.0.0 0 0 0\n').unread).toEqual([
      'shun (outside) not-an-address 0.0.0.0 0 0 0',
    ]);
  });
});

describe('show conn address', () => {
  it('reads the tech note sample: counts, both sides, idle time, bytes and flags', () => {
    const conn = parseShowConn(answer('show-conn-asa84-tcp-flags-technote.txt'));
    expect(conn.unread).toEqual([]);
    expect([conn.inUse, conn.mostUsed, conn.connections.length]).toEqual([101, 5589, 4]);
    expect(conn.connections[1]).toEqual({
      protocol: 'TCP',
      first: { interface: 'outside', address: '192.168.3.5', mapped: undefined, port: 80 },
      second: { interface: 'dmz', address: '172.16.103.221', mapped: undefined, port: 57646 },
      idleSeconds: 29,
      bytes: 2176,
      flags: 'UIO',
    });
    expect(connectionsOf(conn, address('10.23.232.217'))).toHaveLength(2);
  });

  it('reads the command reference sample: no comma before idle, a D- flag, a mapped address', () => {
    const conn = parseShowConn(answer('show-conn-command-reference.txt'));
    expect(conn.unread).toEqual([]);
    expect(conn.connections.map((c) => `${c.protocol} ${c.first.interface} ${c.flags}`)).toEqual([
      'TCP out UIO',
      'UDP out D-',
      'TCP dmz UTIOB',
      'TCP outside Ti',
    ]);
    expect(conn.connections[3]?.first).toEqual({
      interface: 'outside',
      address: '192.168.1.10',
      mapped: '20.20.20.24',
      port: 49736,
    });
    expect(connectionsOf(conn, address('20.20.20.24'))).toHaveLength(1);
    expect(connectionsOf(conn, address('10.1.1.15'))).toHaveLength(2);
  });

  it('reads through CRLF, pager lines and trailing spaces, and keeps a line it cannot read', () => {
    const untidy = [
      'ciscoasa# show conn address 10.1.1.15',
      '54 in use, 123 most used   ',
      'TCP out 10.10.49.10:23 in 10.1.1.15:1026 idle 0:00:22, bytes 1774, flags UIO ',
      '<--- More --->',
      '              UDP out 10.10.49.10:31649 in 10.1.1.15:1028 idle 0:00:14, bytes 0, flags D-',
      'TCP out 10.10.49.10:23 in 10.1.1.15:1026 (truncated',
      '',
    ].join('\r\n');
    const conn = parseShowConn(untidy);
    expect(conn.inUse).toBe(54);
    expect(conn.connections).toHaveLength(2);
    expect(conn.unread).toEqual(['TCP out 10.10.49.10:23 in 10.1.1.15:1026 (truncated']);
  });
});
