// What can reach an ASA's command line. SCC applies what `executeCliCommand` is sent to the device at once,
// unstaged and without a deploy, so `/fw trace` and `/fw show` send only lines built from fixed read-only
// templates (src/catalogue/asaCommands.ts). Here every argument of both commands is fed hostile input —
// line breaks, `;`, `conf t`, carriage returns, tabs, Unicode look-alikes (fullwidth digits, Cyrillic
// letters, U+2028), overlong values, a whole `access-list …` command, ports out of range or in other
// notations, interfaces the device does not have — typed and as raw arguments (as a button or a form could
// send them), and the simulator's own record shows that no script reached SCC. For accepted input, the
// script SCC received is exactly its template with the values written back canonically.
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalogue/asaCommands.js';
import type { RawArgs } from '../../src/catalogue/operation.js';
import { UserError } from '../../src/model/errors.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { catalogue, useSimulator } from '../catalogue/harness.js';
import { driveClock } from '../support/driveClock.js';

/** Values no argument may pass on: each must be refused, whatever argument it is given as. */
const HOSTILE = [
  '443\nconfigure terminal',
  '10.1.100.25\nwrite erase',
  'outside\nno access-list outside_access_in',
  '443;conf t',
  '10.1.100.25;reload',
  'conf t',
  'configure terminal',
  '443\r',
  '10.1.100.25\r\nreload',
  '\t443',
  'outside\t',
  ' 443',
  '８.８.８.８', // fullwidth digits
  '４４３',
  '10.1.100.２５',
  'оutside', // Cyrillic о
  'tсp', // Cyrillic с
  '443\u2028reload',
  '10.1.100.25\u2029',
  'outside\u00a0',
  '\u200b443',
  '1'.repeat(65),
  'a'.repeat(200),
  '8'.repeat(10_000),
  'access-list outside_access_in line 1 extended permit ip any any',
  'access-list',
  'show running-config',
  '$(reboot)',
  '`reload`',
  '0',
  '65536',
  '-1',
  '1e3',
  '0x50',
  '+80',
  '80.0',
  '',
];

/** Interface names that are well-formed but not on asa-hq-01. */
const FOREIGN_INTERFACES = [
  'nowhere',
  'outside2',
  'GigabitEthernet9/9',
  'Vlan999',
  'inside.100',
  'management0/0',
];

const TRACE: RawArgs = {
  device: 'asa-hq-01',
  protocol: 'tcp',
  source: '10.1.100.25',
  destination: '8.8.8.8',
  port: '443',
};
/** With a source port, the grammar binds the four values to source, destination, port and final-port. */
const TRACE_WITH_SOURCE_PORT: RawArgs = {
  ...TRACE,
  destination: '51000',
  port: '8.8.8.8',
  'final-port': '443',
};
const ICMP: RawArgs = { ...TRACE, protocol: 'icmp', port: 'echo' };

/** Every argument of trace and show, each with every hostile value in its place. */
function hostileCalls(): { id: string; arg: string; raw: RawArgs }[] {
  const calls: { id: string; arg: string; raw: RawArgs }[] = [];
  const each = (id: string, arg: string, base: RawArgs, key: string, values: readonly string[]) => {
    for (const value of values) calls.push({ id, arg, raw: { ...base, [key]: value } });
  };
  each('trace', 'device', TRACE, 'device', HOSTILE);
  each('trace', 'protocol', TRACE, 'protocol', HOSTILE);
  each('trace', 'source', TRACE, 'source', HOSTILE);
  // Left empty, an optional value is not given (the source port, --in): that call is a fine one.
  const given = HOSTILE.filter((v) => v !== '');
  each('trace', 'source-port', TRACE_WITH_SOURCE_PORT, 'destination', given);
  each('trace', 'destination', TRACE, 'destination', HOSTILE);
  each('trace', 'destination (after a source port)', TRACE_WITH_SOURCE_PORT, 'port', HOSTILE);
  each('trace', 'port', TRACE, 'port', HOSTILE);
  each('trace', 'port (after a source port)', TRACE_WITH_SOURCE_PORT, 'final-port', HOSTILE);
  // 0 is an ICMP type (echo-reply), not a port.
  const icmpHostile = HOSTILE.filter((v) => v !== '0');
  each('trace', 'icmp-type', ICMP, 'port', [...icmpHostile, '256', '8.0', 'echo-request']);
  each('trace', 'in', TRACE, 'in', [...given, ...FOREIGN_INTERFACES]);
  each('show', 'device', { topic: 'version' }, 'device', HOSTILE);
  each('show', 'topic', { device: 'asa-hq-01' }, 'topic', [
    ...HOSTILE,
    'running-config',
    'run',
    'tech-support',
  ]);
  for (const topic of ['route', 'conn', 'xlate'])
    each('show', `${topic} target`, { device: 'asa-hq-01', topic }, 'target', HOSTILE);
  each('show', 'interface target', { device: 'asa-hq-01', topic: 'interface' }, 'target', [
    ...HOSTILE,
    ...FOREIGN_INTERFACES,
  ]);
  for (const topic of ['failover', 'version'])
    each(
      'show',
      `${topic} target`,
      { device: 'asa-hq-01', topic },
      'target',
      HOSTILE.filter((v) => v !== ''),
    );
  return calls;
}

/** Typed command lines: quoted values keep their line breaks and `;` inside one argument. */
const TYPED = [
  'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 "443\nconfigure terminal"',
  'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 "443; conf t"',
  'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 443 conf t',
  'trace asa-hq-01 tcp "10.1.100.25 8.8.8.8" 443 80',
  'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 443 --in "outside\nreload"',
  'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 443 --in "outside reload"',
  'trace asa-hq-01 ip 10.1.100.25 8.8.8.8 443',
  'trace asa-hq-01 tcp 10.1.100.25 2001:db8::1 443',
  'trace asa-hq-01 icmp 10.1.100.25 40000 8.8.8.8 echo',
  'trace asa-hq-01 icmp 2001:db8::25 2001:db8::1 128',
  'show asa-hq-01 running-config',
  'show asa-hq-01 version; reload',
  'show asa-hq-01 version "\nreload"',
  'show asa-hq-01 failover now',
  'show asa-hq-01 route "8.8.8.8\nconf t"',
  'show asa-hq-01 interface "outside\nshutdown"',
  'show asa-hq-01 interface',
  'show asa-hq-01 route',
];

describe('hostile input to the ASA command line', () => {
  const h = useSimulator();
  const sent = () => ({
    scripts: receivedCliScripts(h.sim.state).map((s) => s.script),
    calls: h.sim.requestLog.list({ operationId: 'executeCliCommand' }).length,
  });

  it('refuses every hostile value of every argument of trace and show, and sends nothing', async () => {
    const calls = hostileCalls();
    expect(calls.length).toBeGreaterThan(500);
    const accepted: string[] = [];
    for (const { id, arg, raw } of calls) {
      const op = catalogue.get(id);
      if (!op) throw new Error(`no operation ${id}`);
      const outcome = await Promise.race([
        op.execute(h.context(), raw),
        // A refusal takes a few reads at most; an accepted value would wait on the simulator's clock.
        new Promise((_, reject) => setTimeout(() => reject(new Error('still running: accepted?')), 20_000)),
      ]).then(
        () => 'accepted',
        (error: unknown) => (error instanceof UserError ? 'refused' : `failed: ${String(error)}`),
      );
      if (outcome !== 'refused') accepted.push(`${id} ${arg} ${JSON.stringify(raw)}: ${outcome}`);
    }
    expect(accepted).toEqual([]);
    expect(sent()).toEqual({ scripts: [], calls: 0 });
  }, 180_000);

  it('refuses hostile typed command lines, and sends nothing', async () => {
    const accepted: string[] = [];
    for (const text of TYPED) {
      const outcome = await (async () => {
        const { op, raw } = catalogue.parse(text);
        await op.execute(h.context(), raw);
      })().then(
        () => 'accepted',
        (error: unknown) => (error instanceof UserError ? 'refused' : `failed: ${String(error)}`),
      );
      if (outcome !== 'refused') accepted.push(`${text}: ${outcome}`);
    }
    expect(accepted).toEqual([]);
    expect(sent()).toEqual({ scripts: [], calls: 0 });
  });

  it('names the argument in one sentence, before SCC is asked anything', async () => {
    const before = h.sim.requestLog.total;
    const { op, raw } = catalogue.parse('trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 "443;conf t"');
    await expect(op.execute(h.context(), raw)).rejects.toThrow(
      /^`port` has characters outside its grammar .*; it must be a port number from 1 to 65535/,
    );
    const overlong = catalogue.parse(`show asa-hq-01 route ${'1'.repeat(65)}`);
    await expect(overlong.op.execute(h.context(), overlong.raw)).rejects.toThrow(
      /^`target` is longer than 64 characters; it must be an IPv4 or IPv6 address/,
    );
    expect(h.sim.requestLog.total).toBe(before);
  });

  it('sends accepted input as its template exactly, the values written back canonically', async () => {
    const run = (text: string) => {
      const { op, raw } = catalogue.parse(text);
      return driveClock(h.sim.clock, op.execute(h.context(), raw), { pauseMs: 10 });
    };
    await run('trace asa-hq-01 TCP 10.1.100.25 8.8.8.8 HTTPS');
    await run('trace asa-hq-01 udp 10.1.100.25 00053 8.8.8.8 domain --in USERS');
    await run('trace asa-hq-01 icmp 10.1.100.25 8.8.8.8 Echo');
    await run('trace asa-hq-01 tcp 2001:DB8:0:0::25 2001:0db8::0001 ssh --in outside');
    await run('show asa-hq-01 conn 2001:DB8:0000::10');
    await run('show asa-hq-01 interface Outside');
    const { scripts } = sent();
    expect(scripts).toEqual([
      'packet-tracer input users tcp 10.1.100.25 49152 8.8.8.8 443',
      'packet-tracer input users udp 10.1.100.25 53 8.8.8.8 53',
      'packet-tracer input users icmp 10.1.100.25 8 0 8.8.8.8',
      'packet-tracer input outside tcp 2001:db8::25 49152 2001:db8::1 22',
      'show conn address 2001:db8::10',
      'show interface outside',
    ]);
    for (const script of scripts) {
      expect(
        Object.values(TEMPLATES).some((template) => template.test(script)),
        script,
      ).toBe(true);
      expect(script).not.toMatch(/[\r\n\t\u2028\u2029]/);
    }
  });
});
