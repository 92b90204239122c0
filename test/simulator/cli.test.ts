// The simulated ASA's command line and SCC's CLI operations: packet-tracer evaluated from the policy
// (routes, un-NAT, first-match access lists, implicit rules, source NAT) in the ASA's phase format, the
// fixed show commands, every other command refused as the ASA refuses invalid input (so the CLI never
// changes configuration), and executeCliCommand / getCliResults / getCliResult over HTTP on the manual
// clock, with the design note's three traces on the seeded asa-hq-01.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CLI_CONNECT_TIMEOUT_MS,
  CLI_PENDING_MS,
  CLI_RUNNING_MS,
  receivedCliScripts,
  UNREACHABLE_ERROR,
} from '../../src/simulator/api/cli.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';
import { type AsaDeviceView, INVALID_INPUT, runScript } from '../../src/simulator/state/asaCommandLine.js';
import { configOnDevice } from '../../src/simulator/state/asaConfig.js';
import { runPacketTracer } from '../../src/simulator/state/asaPacketTracer.js';
import { parsePolicy } from '../../src/simulator/state/asaPolicy.js';
import { runShow } from '../../src/simulator/state/asaShow.js';
import type { DeviceRecord, InterfaceRecord } from '../../src/simulator/state/model.js';
import { type CallOptions, items, obj, type RawResponse, simulator, str } from './support.js';

// --- a hand-built ASA: the design note's asa-hq-01 policy on a few interfaces -----------------------

const DEVICE: DeviceRecord = {
  tenantUid: 'tenant',
  kind: 'ASA',
  device: {
    uid: 'asa-test',
    name: 'asa-test-01',
    deviceType: 'ASA',
    softwareVersion: '9.20.2',
    asdmVersion: '7.20(1)',
    modelNumber: 'ASA5516',
    serial: 'JAD2400TEST',
    connectivityState: 'ONLINE',
    asaFailoverMode: 'OFF',
  },
};

const port = (
  hardwareName: string,
  name: string,
  securityLevel: number,
  ip: string,
  extra: Partial<InterfaceRecord> = {},
): InterfaceRecord => ({
  uid: `uid-${hardwareName}`,
  deviceUid: 'asa-test',
  interfaceType: 'PHYSICAL_INTERFACE',
  hardwareName,
  name,
  securityLevel,
  enabled: true,
  mtu: 1500,
  macAddress: '0050.56a1.0001',
  runtimeData: { linkState: 'UP', speedType: 'THOUSAND' },
  ipv4: { ipType: 'STATIC', ipAddress: { ipAddress: ip, netmask: '255.255.255.0' } },
  ...extra,
});

const INTERFACES: InterfaceRecord[] = [
  port('GigabitEthernet1/1', 'outside', 0, '203.0.113.2'),
  port('GigabitEthernet1/2', 'inside', 100, '10.1.0.1'),
  port('GigabitEthernet1/3', 'dmz', 50, '172.16.0.1'),
  port('GigabitEthernet1/2.100', 'users', 60, '10.1.100.1', {
    interfaceType: 'SUB_INTERFACE',
    macAddress: null,
    runtimeData: null,
    parentInterfaceUid: 'uid-GigabitEthernet1/2',
    vlanPrimaryId: 100,
  }),
  port('GigabitEthernet1/6', 'guest', 40, '10.10.0.1', { enabled: false }),
];

const OBJECTS = [
  'object network WEB-01',
  ' host 172.16.0.10',
  ' nat (dmz,outside) static 203.0.113.10',
  'object network APP-01',
  ' host 172.16.0.20',
  'object network HQ-USERS',
  ' subnet 10.1.100.0 255.255.255.0',
  'object service HTTPS',
  ' service tcp destination eq https',
  'object-group network DMZ-SERVERS',
  ' network-object object WEB-01',
  ' network-object object APP-01',
  'object-group service WEB-PORTS tcp',
  ' port-object eq www',
  ' port-object eq https',
];
const OUTSIDE = [
  'access-list outside_access_in remark Published web server WEB-01',
  'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
  'access-list outside_access_in extended permit tcp any object WEB-01 eq www',
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log',
  'access-list outside_access_in extended permit icmp any any echo-reply',
];
const HQ = [
  ...OBJECTS,
  ...OUTSIDE,
  'access-list inside_access_in extended permit ip object HQ-USERS any',
  'access-list inside_access_in extended deny tcp any any eq telnet',
  'access-list inside_access_in extended permit ip 10.1.0.0 255.255.0.0 any',
  'access-list dmz_access_in extended permit tcp object-group DMZ-SERVERS object APP-01 object-group WEB-PORTS',
  'access-list dmz_access_in extended permit object HTTPS object-group DMZ-SERVERS any inactive',
  'access-list dmz_access_in extended deny ip any any log',
  'access-group outside_access_in in interface outside',
  'access-group inside_access_in in interface inside',
  'access-group inside_access_in in interface users',
  'access-group dmz_access_in in interface dmz',
  'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
];

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 2, 9, 0, 0);

function view(lines: readonly string[], device: DeviceRecord = DEVICE): AsaDeviceView {
  return {
    device,
    interfaces: INTERFACES,
    policy: parsePolicy('asa-test', lines.join('\n'), lines),
    shuns: [],
    hits: new Map(),
    now: NOW,
    bootTime: NOW - 41 * DAY - 3 * 3_600_000,
  };
}

const run = (script: string, lines: readonly string[] = HQ, device?: DeviceRecord) =>
  runScript(script, view(lines, device), [runPacketTracer, runShow]);

/** The Result block's field, and the phases as `TYPE RESULT` (what a verdict is read from). */
const field = (output: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(output)?.[1];
const phases = (output: string) =>
  [...output.matchAll(/^Type: (\S+)\nSubtype:.*\nResult: (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
/** The configuration of the access-list phase that is not the layer-2 MAC list every frame passes. */
const accessConfig = (output: string) =>
  output
    .split('\n\n')
    .filter((block) => /^Type: ACCESS-LIST$/m.test(block) && !/^MAC Access list$/m.test(block))
    .map((block) => /\nConfig:\n([\s\S]*?)Additional Information:/.exec(block)?.[1])[0];
const ACL_DROP =
  /^\(acl-drop\) Flow is denied by configured rule, Drop-location: frame 0x[0-9a-f]{16} flow \(NA\)\/NA$/;

const ALLOWED = `Phase: 1
Type: ACCESS-LIST
Subtype:
Result: ALLOW
Elapsed time: 21328 ns
Config:
Implicit Rule
Additional Information:
MAC Access list

Phase: 2
Type: UN-NAT
Subtype: static
Result: ALLOW
Elapsed time: 30574 ns
Config:
object network WEB-01
 nat (dmz,outside) static 203.0.113.10
Additional Information:
NAT divert to egress interface dmz
Untranslate 203.0.113.10/443 to 172.16.0.10/443

Phase: 3
Type: ACCESS-LIST
Subtype: log
Result: ALLOW
Elapsed time: 20879 ns
Config:
access-group outside_access_in in interface outside
access-list outside_access_in extended permit tcp any object WEB-01 eq https
Additional Information:

Phase: 4
Type: NAT
Subtype: per-session
Result: ALLOW
Elapsed time: 46350 ns
Config:
Additional Information:

Phase: 5
Type: IP-OPTIONS
Subtype:
Result: ALLOW
Elapsed time: 30201 ns
Config:
Additional Information:

Phase: 6
Type: NAT
Subtype: rpf-check
Result: ALLOW
Elapsed time: 32271 ns
Config:
object network WEB-01
 nat (dmz,outside) static 203.0.113.10
Additional Information:

Phase: 7
Type: NAT
Subtype: per-session
Result: ALLOW
Elapsed time: 56561 ns
Config:
Additional Information:

Phase: 8
Type: IP-OPTIONS
Subtype:
Result: ALLOW
Elapsed time: 29976 ns
Config:
Additional Information:

Phase: 9
Type: FLOW-CREATION
Subtype:
Result: ALLOW
Elapsed time: 27516 ns
Config:
Additional Information:
New flow created with id 7267327, packet dispatched to next module

Result:
input-interface: outside
input-status: up
input-line-status: up
output-interface: dmz
output-status: up
output-line-status: up
Action: allow
Time Taken: 306146 ns
`;

describe('packet-tracer', () => {
  it('allows the published web server through its static NAT, in the ASA phase format, exactly', () => {
    const out = run('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443');
    expect(out).toEqual({ output: ALLOWED });
  });

  it('drops a port no line permits by the implicit rule, and the answer ends at the phase that dropped', () => {
    const { output, error } = run('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 22');
    expect(error).toBeUndefined();
    expect(phases(output)).toEqual(['ACCESS-LIST ALLOW', 'UN-NAT ALLOW', 'ACCESS-LIST DROP']);
    expect(accessConfig(output)).toBe('Implicit Rule\n');
    expect(field(output, 'Action')).toBe('drop');
    expect(field(output, 'Drop-reason')).toMatch(ACL_DROP);
    expect(field(output, 'output-interface')).toBe('dmz');
  });

  it('takes the first matching line: a deny inserted above the permit decides', () => {
    const deny = 'access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https';
    const lines = [...OBJECTS, OUTSIDE[0] ?? '', deny, ...HQ.slice(OBJECTS.length + 1)];
    const { output } = run('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443', lines);
    expect(accessConfig(output)).toBe(`access-group outside_access_in in interface outside\n${deny}\n`);
    expect(field(output, 'Action')).toBe('drop');
    // Another source still reaches the permit below it.
    const other = run('packet-tracer input outside tcp 198.51.100.8 49152 203.0.113.10 443', lines).output;
    expect(field(other, 'Action')).toBe('allow');
  });

  it('matches the real address after un-NAT, so the shadowed deny of the mapped host is never hit', () => {
    const { output } = run('packet-tracer input outside tcp 198.51.100.66 49152 203.0.113.10 443');
    expect(accessConfig(output)).toContain('permit tcp any object WEB-01 eq https');
    expect(field(output, 'Action')).toBe('allow');
  });

  it('expands objects and groups, and skips inactive lines', () => {
    const web = run('packet-tracer input dmz tcp 172.16.0.10 49152 172.16.0.20 80').output;
    expect(accessConfig(web)).toContain('object-group DMZ-SERVERS object APP-01 object-group WEB-PORTS');
    expect(field(web, 'Action')).toBe('allow');
    // The inactive `permit object HTTPS … any` would allow this; it is skipped, the deny below decides.
    const https = run('packet-tracer input dmz tcp 172.16.0.20 49152 198.51.100.9 443').output;
    expect(accessConfig(https)).toContain('access-list dmz_access_in extended deny ip any any log');
    const active = HQ.map((l) => l.replace(' inactive', ''));
    const allowed = run('packet-tracer input dmz tcp 172.16.0.20 49152 198.51.100.9 443', active).output;
    expect(accessConfig(allowed)).toContain('permit object HTTPS object-group DMZ-SERVERS any');
  });

  it('lets traffic from a higher to a lower security level when no access list applies, with no access-list phase, and no further', () => {
    const noBindings = HQ.filter((l) => !l.startsWith('access-group'));
    const down = run('packet-tracer input inside tcp 10.1.0.50 49152 198.51.100.9 443', noBindings).output;
    // Only the layer-2 list: a real ASA prints no access-list phase for a security-level permit.
    expect(phases(down).filter((p) => p.startsWith('ACCESS-LIST'))).toEqual(['ACCESS-LIST ALLOW']);
    expect(accessConfig(down)).toBeUndefined();
    expect(field(down, 'Action')).toBe('allow');
    const up = run('packet-tracer input outside tcp 198.51.100.9 49152 10.1.0.50 443', noBindings).output;
    expect(phases(up)).toEqual(['ACCESS-LIST ALLOW', 'ROUTE-LOOKUP ALLOW', 'ACCESS-LIST DROP']);
    expect(accessConfig(up)).toBe('Implicit Rule\n');
    expect(field(up, 'Action')).toBe('drop');
  });

  it('consults the global access list after the interface list, before the implicit deny', () => {
    const lines = [
      ...HQ,
      'access-list global_access extended permit tcp any host 172.16.0.20 eq 8443',
      'access-group global_access global',
    ];
    const { output } = run('packet-tracer input outside tcp 198.51.100.7 49152 172.16.0.20 8443', lines);
    expect(accessConfig(output)).toBe(
      'access-group global_access global\naccess-list global_access extended permit tcp any host 172.16.0.20 eq 8443\n',
    );
    expect(field(output, 'Action')).toBe('allow');
  });

  it('picks the egress by longest prefix, connected before static, and drops when there is no route', () => {
    const lines = [...HQ, 'route inside 10.9.0.0 255.255.0.0 10.1.0.254 1'];
    const routed = run('packet-tracer input users tcp 10.1.100.25 49152 10.9.1.1 443', lines).output;
    expect(routed).toContain('found next-hop 10.1.0.254 using egress ifc  inside');
    const noDefault = HQ.filter((l) => !l.startsWith('route '));
    const lost = run('packet-tracer input users tcp 10.1.100.25 49152 8.8.8.8 443', noDefault).output;
    // As real devices answer: no phase at all, the Result block alone.
    expect(lost).not.toContain('Phase:');
    expect(lost.startsWith('Result:\ninput-interface: users\n')).toBe(true);
    expect(field(lost, 'Drop-reason')).toMatch(/^\(no-route\) No route to host, Drop-location: /);
    expect(field(lost, 'output-interface')).toBeUndefined();
  });

  it('translates a source with a static NAT toward the egress, as `Static translate`', () => {
    const lines = [...HQ.filter((l) => !l.includes('dmz_access_in'))];
    const { output } = run('packet-tracer input dmz tcp 172.16.0.10 49152 8.8.8.8 443', lines);
    expect(phases(output)).toEqual([
      'ACCESS-LIST ALLOW',
      'ROUTE-LOOKUP ALLOW',
      'NAT ALLOW',
      'NAT ALLOW',
      'IP-OPTIONS ALLOW',
      'NAT ALLOW',
      'IP-OPTIONS ALLOW',
      'FLOW-CREATION ALLOW',
    ]);
    expect(output).toContain(
      'Config:\nobject network WEB-01\n nat (dmz,outside) static 203.0.113.10\nAdditional Information:\nStatic translate 172.16.0.10/49152 to 203.0.113.10/49152\n',
    );
  });

  /** The inside network leaves through PAT to the outside interface's address. */
  const PAT = [
    ...OBJECTS,
    'object network INSIDE-NET',
    ' subnet 10.1.0.0 255.255.0.0',
    ' nat (inside,outside) dynamic interface',
    'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
  ];

  it('translates a source with dynamic PAT to the egress interface, as `Dynamic translate`', () => {
    const { output } = run('packet-tracer input inside tcp 10.1.0.50 51000 8.8.8.8 443', PAT);
    expect(output).toContain('Dynamic translate 10.1.0.50/51000 to 203.0.113.2/51000');
    expect(field(output, 'Action')).toBe('allow');
  });

  it('drops a failed translation after the phases, with no phase that drops (PAT to an interface without an address)', () => {
    const interfaces = INTERFACES.map((i) => (i.name === 'outside' ? { ...i, ipv4: null } : i));
    const { output } = runScript(
      'packet-tracer input inside tcp 10.1.0.50 51000 8.8.8.8 443',
      { ...view(PAT), interfaces },
      [runPacketTracer],
    );
    expect(output).not.toContain('Result: DROP');
    expect(phases(output)).toEqual([
      'ACCESS-LIST ALLOW',
      'ROUTE-LOOKUP ALLOW',
      'NAT ALLOW',
      'NAT ALLOW',
      'IP-OPTIONS ALLOW',
    ]);
    expect(field(output, 'Drop-reason')).toMatch(/^\(nat-xlate-failed\) NAT failed, Drop-location: /);
  });

  it('drops a source translated onto its own destination in the slow path, with no phase that drops', () => {
    const lines = [...HQ.filter((l) => !l.includes('dmz_access_in'))];
    const { output } = run('packet-tracer input dmz tcp 172.16.0.10 49152 203.0.113.10 443', lines);
    expect(output).toContain('Static translate 172.16.0.10/49152 to 203.0.113.10/49152');
    expect(output).not.toContain('Result: DROP');
    expect(field(output, 'Drop-reason')).toMatch(/^\(sp-security-failed\) Slowpath security checks failed/);
  });

  it('prints the failover phase on a pair, and no elapsed times or drop location before 9.12', () => {
    const pair: DeviceRecord = { ...DEVICE, device: { ...DEVICE.device, asaFailoverMode: 'ACTIVE_STANDBY' } };
    expect(
      phases(run('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443', HQ, pair).output),
    ).toContain('FOVER ALLOW');
    const old: DeviceRecord = { ...DEVICE, device: { ...DEVICE.device, softwareVersion: '9.8.4' } };
    const answer = run('packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 22', HQ, old).output;
    expect(answer).not.toMatch(/Elapsed time|Time Taken|Drop-location/);
    expect(field(answer, 'Drop-reason')).toBe('(acl-drop) Flow is denied by configured rule');
  });

  it('evaluates ICMP by type', () => {
    const reply = run('packet-tracer input outside icmp 198.51.100.7 0 0 10.1.0.50').output;
    expect(accessConfig(reply)).toContain('permit icmp any any echo-reply');
    const echo = run('packet-tracer input outside icmp 198.51.100.7 8 0 10.1.0.50').output;
    expect(field(echo, 'Action')).toBe('drop');
  });

  it("traces IPv6 by the interfaces' IPv6 prefixes, and answers in canonical IPv6 text", () => {
    const interfaces = INTERFACES.map((i) =>
      i.name === 'inside'
        ? { ...i, ipv6: { ipAddresses: [{ ipAddress: '2001:DB8:1:0::1', netmask: '64' }] } }
        : i,
    );
    const v6 = { ...view(HQ), interfaces };
    const { output } = runScript(
      'packet-tracer input inside tcp 2001:db8:1::25 49152 2001:db8:1:0:0:0:0:99 443',
      v6,
      [runPacketTracer],
    );
    expect(output).toContain('found next-hop 2001:db8:1::99 using egress ifc  inside');
    // inside_access_in's `permit ip 10.1.0.0 255.255.0.0 any` is IPv4: the IPv6 flow meets the implicit deny.
    expect(field(output, 'Action')).toBe('drop');
  });

  it('refuses what the ASA refuses, with the marker under the wrong word', () => {
    const cases: [string, number][] = [
      ['packet-tracer input nowhere tcp 198.51.100.7 49152 203.0.113.10 443', 20],
      ['packet-tracer input outside gre 198.51.100.7 49152 203.0.113.10 443', 28],
      ['packet-tracer input outside tcp 198.51.100.7 49152 2001:db8::1 443', 51],
      ['packet-tracer input outside tcp 198.51.100.7 70000 203.0.113.10 443', 45],
      ['packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443 extra', 68],
      ['packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10', 64],
    ];
    for (const [line, at] of cases) {
      expect(run(line)).toEqual({
        output: `${line}\n${' '.repeat(at)}^\n${INVALID_INPUT}\n`,
        error: INVALID_INPUT,
      });
    }
  });
});

describe('show commands', () => {
  it('show route: the matching entry, connected or static, or not in the table', () => {
    expect(run('show route 10.1.100.25').output).toBe(
      [
        'Routing entry for 10.1.100.0 255.255.255.0',
        '  Known via "connected", distance 0, metric 0 (connected, via interface)',
        '  Routing Descriptor Blocks:',
        '  * directly connected, via users',
        '      Route metric is 0, traffic share count is 1',
        '',
      ].join('\n'),
    );
    const viaDefault = run('show route 8.8.8.8').output;
    expect(viaDefault).toContain('Routing entry for 0.0.0.0 0.0.0.0, supernet');
    expect(viaDefault).toContain('  * 203.0.113.1, via outside');
    const noDefault = HQ.filter((l) => !l.startsWith('route '));
    expect(run('show route 8.8.8.8', noDefault).output).toBe('% Network not in table\n');
    expect(run('show route 2001:db8::1').error).toBe(INVALID_INPUT);
  });

  it('show conn address: connections the policy lets through, or none', () => {
    const web = run('show conn address 172.16.0.10').output;
    expect(web).toMatch(/^2 in use, \d+ most used\n\n/);
    expect(web).toMatch(
      /^TCP dmz {2}172\.16\.0\.10:443 outside {2}198\.51\.100\.7:\d+, idle 0:00:\d\d, bytes \d+, flags UIO$/m,
    );
    expect(web).toMatch(/^TCP dmz {2}172\.16\.0\.10:80 outside /m);
    const user = run('show conn address 10.1.100.25').output;
    // Arrives on users (its subnet), once per flow, however many lines permit it.
    expect(user).toMatch(/^1 in use/);
    expect(user).toMatch(/ users {2}10\.1\.100\.25:\d+,/);
    expect(run('show conn address 192.0.2.1').output).toMatch(/^0 in use, \d+ most used\n$/);
  });

  it('show xlate local: the static NAT of the address', () => {
    expect(run('show xlate local 172.16.0.10').output).toMatch(
      /^1 in use, 1 most used\nFlags: .*\n {7}s - static.*\nNAT from dmz:172\.16\.0\.10 to outside:203\.0\.113\.10\n {4}flags s idle \d+:\d\d:\d\d timeout 0:00:00\n$/,
    );
    expect(run('show xlate local 172.16.0.20').output).not.toContain('NAT from');
  });

  it('show failover: off, or the pair from the device record', () => {
    expect(run('show failover').output).toMatch(/^Failover Off\nFailover unit Primary\n/);
    const pair: DeviceRecord = {
      ...DEVICE,
      device: {
        ...DEVICE.device,
        asaFailoverMode: 'ACTIVE_STANDBY',
        asaFailoverState: 'Primary - Active',
        asaFailoverMate: { failoverState: 'Secondary - Standby Ready', softwareVersion: '9.20.2' },
      },
    };
    const out = run('show failover', HQ, pair).output;
    expect(out).toMatch(/^Failover On\n/);
    expect(out).toContain('\tThis host: Primary - Active');
    expect(out).toContain('\tOther host: Secondary - Standby Ready');
    expect(out).toContain('Version: Ours 9.20(2), Mate 9.20(2)');
    expect(out).toContain('Serial Number: Ours JAD2400TEST, Mate ');
    // The stateful link's statistics come after the hosts, as on a real pair: what makes the answer long.
    expect(out.indexOf('Stateful Failover Logical Update Statistics')).toBeGreaterThan(
      out.indexOf('Other host:'),
    );
  });

  it('show interface: by hardware name or nameif, from the interface record', () => {
    const byName = run('show interface users').output;
    expect(byName).toBe(run('show interface GigabitEthernet1/2.100').output);
    expect(byName).toMatch(/^Interface GigabitEthernet1\/2\.100 "users", is up, line protocol is up\n/);
    expect(byName).toContain('\tVLAN identifier 100');
    expect(byName).toContain('\tMAC address 0050.56a1.0001, MTU 1500'); // the parent's
    expect(byName).toContain('\tIP address 10.1.100.1, subnet mask 255.255.255.0');
    expect(run('show interface guest').output).toContain(
      '"guest", is administratively down, line protocol is down',
    );
    expect(run('show interface nowhere').error).toBe(INVALID_INPUT);
  });

  it('show version: the software, model, hostname and the uptime on the clock', () => {
    const out = run('show version').output;
    expect(out).toMatch(/^Cisco Adaptive Security Appliance Software Version 9\.20\(2\)\n/);
    expect(out).toContain('\nasa-test-01 up 41 days 3 hours\n');
    expect(out).toContain('Hardware:   ASA5516,');
    expect(out).toContain('Serial Number: JAD2400TEST');
    // As a classic licence prints it: five words, derived from the device (never a real key).
    expect(out).toMatch(/\nRunning Permanent Activation Key: (?:0x[0-9a-f]{8} ){4}0x[0-9a-f]{8}\n/);
    expect(out).toContain('Licensed features for this platform:');
    expect(out).toContain(' 1: Ext: GigabitEthernet1/1');
  });
});

describe('refused commands', () => {
  const refused = [
    'conf t',
    'configure terminal',
    'write memory',
    'copy running-config startup-config',
    'clear conn all',
    'reload noconfirm',
    'no access-list outside_access_in',
    'access-list outside_access_in line 1 extended permit ip any any',
    'show running-config',
    'show version; conf t',
    'show route 10.1.0.1 | include x',
    'ｓhow version',
    'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443\u2028conf t',
  ];
  for (const script of refused) {
    it(`answers "${script.replaceAll('\u2028', '\\u2028')}" with the ASA's invalid-input error`, () => {
      const out = run(script);
      expect(out.error).toBe(INVALID_INPUT);
      expect(out.output).toContain(`^\n${INVALID_INPUT}\n`);
    });
  }

  it('runs a script line by line and stops at the first refused line', () => {
    const out = run('show version\nconf t\nshow failover');
    expect(out.error).toBe(INVALID_INPUT);
    expect(out.output).toMatch(/^Cisco Adaptive Security Appliance/);
    expect(out.output).toMatch(/\nconf t\n\^\nERROR: % Invalid input detected at '\^' marker\.\n$/);
    expect(out.output).not.toContain('Failover unit');
  });
});

// --- over HTTP, on the seeded world -----------------------------------------------------------------

let sim: SimulatorHandle;
let api: (method: string, path: string, options?: CallOptions) => Promise<RawResponse>;

describe('executeCliCommand, getCliResults, getCliResult', () => {
  beforeEach(async () => {
    ({ sim, api } = await simulator());
  });
  afterEach(async () => {
    await sim.stop();
  });

  const execute = (deviceUids: string[], script: string, token?: string) =>
    api('POST', '/v1/inventory/devices/asas/cli/execute', {
      body: { deviceUids, script },
      ...(token === undefined ? {} : { token }),
    });
  const poll = (tx: Record<string, unknown>) => api('GET', `/v1/transactions/${str(tx.transactionUid)}`);
  const resultsOf = (tx: Record<string, unknown>, token?: string) =>
    api('GET', str(tx.entityUrl).slice(sim.url.length), token === undefined ? {} : { token });

  /** Runs a script on one device, lets the device answer, and returns its one result. */
  async function runOn(device: string, script: string): Promise<Record<string, unknown>> {
    const tx = obj(await execute([sim.deviceUid(device)], script));
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const results = items(await resultsOf(tx));
    expect(results).toHaveLength(1);
    return results[0] ?? {};
  }

  it('answers 202 with an EXECUTE_ASA_COMMAND transaction that finishes on the clock, then one result per device', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const branch = sim.deviceUid('asa-branch-02');
    const started = await execute([hq, branch], 'show version');
    expect(started.status).toBe(202);
    const tx = obj(started);
    const executionUid = str(tx.entityUid);
    expect(tx).toMatchObject({ transactionType: 'EXECUTE_ASA_COMMAND', cdoTransactionStatus: 'PENDING' });
    expect(tx.entityUrl).toBe(`${sim.url}/v1/cli/results?q=executionUid:${executionUid}`);

    sim.clock.advance(CLI_PENDING_MS);
    expect(obj(await poll(tx)).cdoTransactionStatus).toBe('IN_PROGRESS');
    expect(items(await resultsOf(tx))).toEqual([]);

    sim.clock.advance(CLI_RUNNING_MS);
    const done = await poll(tx);
    expect(done.status).toBe(200);
    expect(obj(done).cdoTransactionStatus).toBe('DONE');
    const results = items(await resultsOf(tx));
    expect(results.map((r) => r.deviceUid).sort()).toEqual([hq, branch].sort());
    for (const r of results) {
      expect(r).toMatchObject({ executionUid, script: 'show version' });
      expect(r.errorMsg).toBeUndefined();
      expect(r.startTime).toBe(tx.submissionTime);
    }
    const ofHq = results.find((r) => r.deviceUid === hq) ?? {};
    expect(str(ofHq.result)).toContain('asa-hq-01 up ');
    const one = await api('GET', `/v1/cli/results/${str(ofHq.uid)}`);
    expect(one.status).toBe(200);
    expect(obj(one)).toEqual(ofHq);

    const byDevice = items(await api('GET', '/v1/cli/results', { query: { q: `deviceUid:${branch}` } }));
    expect(byDevice.map((r) => r.deviceUid)).toEqual([branch]);
  });

  it('lists results newest first, or by the sort asked', async () => {
    await runOn('asa-hq-01', 'show failover');
    sim.clock.advance(60_000);
    await runOn('asa-hq-01', 'show version');
    const newest = items(await api('GET', '/v1/cli/results'));
    expect(newest.map((r) => r.script)).toEqual(['show version', 'show failover']);
    const oldest = items(await api('GET', '/v1/cli/results', { query: { sort: 'startTime:ASC' } }));
    expect(oldest.map((r) => r.script)).toEqual(['show failover', 'show version']);
  });

  it('runs the design note traces on the seeded asa-hq-01: allowed at line 2, dropped for port 22, dropped by a line 1 added above', async () => {
    const trace = 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443';
    const allowed = str((await runOn('asa-hq-01', trace)).result);
    expect(accessConfig(allowed)).toBe(
      'access-group outside_access_in in interface outside\naccess-list outside_access_in extended permit tcp any object WEB-01 eq https\n',
    );
    expect(field(allowed, 'Action')).toBe('allow');
    expect(field(allowed, 'output-interface')).toBe('dmz');

    const ssh = str((await runOn('asa-hq-01', trace.replace(/ 443$/, ' 22'))).result);
    expect(accessConfig(ssh)).toBe('Implicit Rule\n');
    expect(field(ssh, 'Action')).toBe('drop');

    // The line an admin adds in SCC's UI, deployed at once (the simulator's admin route).
    const deny =
      'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https';
    const added = await api('POST', '/_sim/devices/asa-hq-01/access-list', {
      token: null,
      body: { text: deny },
    });
    expect(added.status).toBeLessThan(300);
    const denied = str((await runOn('asa-hq-01', trace)).result);
    expect(accessConfig(denied)).toBe(
      'access-group outside_access_in in interface outside\naccess-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https\n',
    );
    expect(field(denied, 'Action')).toBe('drop');
  });

  it('answers a refused command with a result carrying the error, and changes nothing', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const device = sim.state.devices.get(hq);
    if (device === undefined) throw new Error('no asa-hq-01');
    const before = configOnDevice(sim.state, device);
    const script = 'conf t\naccess-list outside_access_in line 1 extended permit ip any any\nwrite memory';
    const result = await runOn('asa-hq-01', script);
    expect(result.errorMsg).toBe(INVALID_INPUT);
    expect(str(result.result)).toBe(`conf t\n^\n${INVALID_INPUT}\n`);
    expect(configOnDevice(sim.state, device)).toBe(before);
  });

  it('gives an unreachable device a result with the connection error after the connection timeout', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const device = sim.state.devices.get(hq);
    if (device === undefined) throw new Error('no asa-hq-01');
    device.device.connectivityState = 'UNREACHABLE';
    const tx = obj(await execute([hq], 'show version'));
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    expect(obj(await poll(tx)).cdoTransactionStatus).toBe('IN_PROGRESS');
    sim.clock.advance(CLI_CONNECT_TIMEOUT_MS);
    expect(obj(await poll(tx)).cdoTransactionStatus).toBe('DONE');
    const [result] = items(await resultsOf(tx));
    expect(result).toMatchObject({ deviceUid: hq, errorMsg: UNREACHABLE_ERROR });
    expect(result?.result).toBeUndefined();
  });

  it('refuses devices that are not ASAs of the caller, unknown ones and malformed UIDs with 400, naming each', async () => {
    const cases = [
      sim.deviceUid('ftd-edge-01'),
      sim.deviceUid('nw-asa-hq'),
      '00000000-0000-4000-8000-000000000000',
      'asa-hq-01',
    ];
    for (const uid of cases) {
      const refused = await execute([sim.deviceUid('asa-hq-01'), uid], 'show version');
      expect(refused.status).toBe(400);
      expect(obj(refused)).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(Object.keys(obj(refused).details as object)).toEqual([uid]);
    }
    const noScript = await api('POST', '/v1/inventory/devices/asas/cli/execute', {
      body: { deviceUids: [sim.deviceUid('asa-hq-01')] },
    });
    expect(noScript.status).toBe(400);
    const badPolling = await api('POST', '/v1/inventory/devices/asas/cli/execute', {
      body: { deviceUids: [sim.deviceUid('asa-hq-01')], script: 'show version', pollingTimeout: 'PT5S' },
    });
    expect(badPolling.status).toBe(400);
    expect(sim.state.transactions.size).toBe(0);
  });

  it('refuses a script for a device with undeployed changes (NOT_SYNCED) with 400 INVALID_INPUT, running it nowhere', async () => {
    const hq = sim.deviceUid('asa-hq-01');
    const branch = sim.deviceUid('asa-branch-02');
    const vlan = [...sim.state.interfaces.values()].find(
      (i) => i.deviceUid === hq && i.hardwareName === 'Vlan20',
    );
    const deleted = await api('DELETE', `/v1/inventory/devices/asas/${hq}/vlaninterfaces/${str(vlan?.uid)}`);
    expect(deleted.status).toBeLessThan(300);
    expect(obj(await api('GET', `/v1/inventory/devices/${hq}`)).configState).toBe('NOT_SYNCED');

    const refused = await execute([branch, hq], 'show version');
    expect(refused.status).toBe(400);
    expect(obj(refused)).toEqual({
      errorCode: 'INVALID_INPUT',
      errorMsg: 'Cannot run CLI commands on a device whose configuration is NOT_SYNCED (undeployed changes)',
      details: {
        [hq]: {
          name: 'asa-hq-01',
          configState: 'NOT_SYNCED',
          message: 'has changes that are not deployed: deploy or discard them first',
        },
      },
    });
    expect(sim.state.transactions.size).toBe(0);
    // packet-tracer is a script like any other.
    expect(
      (await execute([hq], 'packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443')).status,
    ).toBe(400);
    // The synced device alone runs it.
    expect((await execute([branch], 'show version')).status).toBe(202);
  });

  it('keeps every script it received, refused requests included, for tests to read', async () => {
    await execute([sim.deviceUid('asa-hq-01')], 'show failover');
    await execute([sim.deviceUid('ftd-edge-01')], 'conf t\nwrite');
    expect(receivedCliScripts(sim.state).map((s) => s.script)).toEqual(['show failover', 'conf t\nwrite']);
    expect(receivedCliScripts(sim.state)[0]).toMatchObject({
      deviceUids: [sim.deviceUid('asa-hq-01')],
      username: expect.any(String),
      tenantUid: sim.state.portalUid,
    });
  });

  it('shows results only to their tenant, 404 for an unknown result, and lets read-only users run commands', async () => {
    const tx = obj(await execute([sim.deviceUid('asa-hq-01')], 'show version', 'sim-read-only'));
    sim.clock.advance(CLI_PENDING_MS + CLI_RUNNING_MS);
    const [result] = items(await resultsOf(tx));
    const other = sim.mintTenantToken(sim.tenantUid('northwind-us'));
    expect(items(await resultsOf(tx, other))).toEqual([]);
    expect((await api('GET', `/v1/cli/results/${str(result?.uid)}`, { token: other })).status).toBe(404);
    const unknown = await api('GET', '/v1/cli/results/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(obj(unknown)).toMatchObject({ errorCode: 'NOT_FOUND' });
  });
});
