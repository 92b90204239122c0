// packet-tracer output in the simulator's tidy shape, read into a verdict: allowed by a line with NAT, dropped
// by the implicit rule, dropped by an explicit deny, no route, traffic to the device itself; and what gives
// no verdict rather than a guess: output cut short, its beginning missing, two answers in one, the XML
// variant. Real devices' answers are read in packetTracerFixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { parsePacketTracer } from '../../src/render/packetTracer.js';

const ALLOWED_WITH_NAT = `
Phase: 1
Type: ROUTE-LOOKUP
Subtype: Resolve Egress Interface
Result: ALLOW
Config:
Additional Information:
Found next-hop 172.16.0.10 using egress ifc  dmz

Phase: 2
Type: UN-NAT
Subtype: static
Result: ALLOW
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
Config:
access-group outside_access_in in interface outside
access-list outside_access_in extended permit tcp any object WEB-01 eq https
Additional Information:

Phase: 4
Type: NAT
Subtype: per-session
Result: ALLOW
Config:
Additional Information:

Result:
input-interface: outside
input-status: up
input-line-status: up
output-interface: dmz
output-status: up
output-line-status: up
Action: allow
`;

const DROPPED_IMPLICIT = `
Phase: 1
Type: ROUTE-LOOKUP
Subtype: Resolve Egress Interface
Result: ALLOW
Config:
Additional Information:
Found next-hop 172.16.0.10 using egress ifc  dmz

Phase: 2
Type: ACCESS-LIST
Subtype:
Result: DROP
Config:
Implicit Rule
Additional Information:

Result:
input-interface: outside
input-status: up
input-line-status: up
output-interface: dmz
output-status: up
output-line-status: up
Action: drop
Drop-reason: (acl-drop) Flow is denied by configured rule, Drop-location: frame 0x00005555 flow (NA)/NA
`;

const DROPPED_EXPLICIT = `Phase: 1\r
Type: ROUTE-LOOKUP\r
Subtype: Resolve Egress Interface\r
Result: ALLOW\r
Elapsed time: 5563 ns\r
Config:\r
Additional Information:\r
Found next-hop 172.16.0.10 using egress ifc  dmz\r
\r
Phase: 2\r
Type: ACCESS-LIST\r
Subtype: log\r
Result: DROP\r
Elapsed time: 2341 ns\r
Config:\r
access-group outside_access_in in interface outside\r
access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https\r
Additional Information:\r
 Forward Flow based lookup yields rule:\r
 in  id=0x14a4b6a8a0, priority=13, domain=permit, deny=true\r
\r
Result:\r
input-interface: outside\r
output-interface: dmz\r
Action: drop\r
Time Taken: 7904 ns\r
Drop-reason: (acl-drop) Flow is denied by configured rule\r
`;

const NO_ROUTE = `
Phase: 1
Type: ROUTE-LOOKUP
Subtype: Resolve Egress Interface
Result: DROP
Config:
Additional Information:
no route to host

Result:
input-interface: inside
input-status: up
input-line-status: up
Action: drop
Drop-reason: (no-route) No route to host
`;

const XML = `<Phase>
<id>1</id>
<type>ACCESS-LIST</type>
<subtype></subtype>
<result>ALLOW</result>
<config>Implicit Rule</config>
<extra>MAC Access list</extra>
</Phase>
<result>
<input-interface>inside</input-interface>
<output-interface>outside</output-interface>
<action>allow</action>
</result>
`;

describe('packet-tracer output', () => {
  it('reads an allowed flow: the access-list line, the NAT, both interfaces', () => {
    const verdict = parsePacketTracer(ALLOWED_WITH_NAT);
    expect(verdict.action).toBe('allow');
    expect(verdict.phases.map((p) => p.type)).toEqual(['ROUTE-LOOKUP', 'UN-NAT', 'ACCESS-LIST', 'NAT']);
    const decision = verdict.decision;
    expect(decision?.kind === 'access-list' ? decision.phase.number : undefined).toBe(3);
    expect(decision).toMatchObject({
      kind: 'access-list',
      line: 'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
      acl: 'outside_access_in',
      group: 'access-group outside_access_in in interface outside',
    });
    expect(verdict.nat).toEqual(['Untranslate 203.0.113.10/443 to 172.16.0.10/443']);
    expect(verdict.inputInterface).toBe('outside');
    expect(verdict.outputInterface).toBe('dmz');
    expect(verdict.dropReason).toBeUndefined();
    expect(verdict.phases[1]?.config).toEqual([
      'object network WEB-01',
      ' nat (dmz,outside) static 203.0.113.10',
    ]);
  });

  it('reads a drop by the implicit rule, without the drop location', () => {
    const verdict = parsePacketTracer(DROPPED_IMPLICIT);
    expect(verdict.action).toBe('drop');
    expect(verdict.decision).toMatchObject({ kind: 'implicit-deny', phase: { number: 2, subtype: '' } });
    expect(verdict.dropReason).toBe('(acl-drop) Flow is denied by configured rule');
    expect(verdict.nat).toEqual([]);
  });

  it('reads a drop by an explicit deny line (CRLF, elapsed times and flow ids as newer releases print)', () => {
    const verdict = parsePacketTracer(DROPPED_EXPLICIT);
    expect(verdict.action).toBe('drop');
    expect(verdict.decision).toMatchObject({
      kind: 'access-list',
      phase: { number: 2 },
      line: 'access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    });
    expect(verdict.dropReason).toBe('(acl-drop) Flow is denied by configured rule');
    expect(verdict.outputInterface).toBe('dmz');
  });

  it('reads a drop for want of a route: no access-list line, no output interface', () => {
    const verdict = parsePacketTracer(NO_ROUTE);
    expect(verdict.action).toBe('drop');
    expect(verdict.decision).toMatchObject({ kind: 'no-route', phase: { type: 'ROUTE-LOOKUP' } });
    expect(verdict.outputInterface).toBeUndefined();
    expect(verdict.dropReason).toBe('(no-route) No route to host');
  });

  it('gives no action for output cut short, rather than a wrong one', () => {
    const cut = ALLOWED_WITH_NAT.slice(0, ALLOWED_WITH_NAT.indexOf('Result:\ninput'));
    const verdict = parsePacketTracer(cut);
    expect(verdict.action).toBeUndefined();
    expect(verdict.unreadable).toBe('partial');
    expect(verdict.decision).toBeUndefined();
    expect(parsePacketTracer('ERROR: % Invalid input detected').unreadable).toBe('not-packet-tracer');
  });

  it('gives no action for an answer whose beginning is missing, rather than a guess', () => {
    // Without phases 1 and 2 the deciding access-list phase could be among those missing.
    const tail = ALLOWED_WITH_NAT.slice(ALLOWED_WITH_NAT.indexOf('Phase: 4'));
    expect(parsePacketTracer(tail)).toMatchObject({ unreadable: 'partial', nat: [] });
    expect(parsePacketTracer(tail).action).toBeUndefined();
  });

  it('gives no action for two answers pasted one after the other', () => {
    expect(parsePacketTracer(`${DROPPED_IMPLICIT}\n${ALLOWED_WITH_NAT}`).unreadable).toBe('partial');
  });

  it('gives no action for the XML variant: fwbot reads the text form', () => {
    const verdict = parsePacketTracer(XML);
    expect(verdict).toEqual({ phases: [], nat: [], unreadable: 'xml' });
  });

  it('reads a Result block without an input interface (traffic to the device itself)', () => {
    const toTheBox = ALLOWED_WITH_NAT.replace('input-interface: outside\n', '').replace(
      'output-interface: dmz',
      'output-interface: NP Identity Ifc',
    );
    const verdict = parsePacketTracer(toTheBox);
    expect(verdict.action).toBe('allow');
    expect(verdict.inputInterface).toBeUndefined();
    expect(verdict.outputInterface).toBe('NP Identity Ifc');
  });
});
