// packet-tracer output as the ASA prints it, read into a verdict: allowed by a line with NAT, dropped by the
// implicit rule, dropped by an explicit deny, no route, and output cut short.
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

describe('packet-tracer output', () => {
  it('reads an allowed flow: the access-list line, the NAT, both interfaces', () => {
    const verdict = parsePacketTracer(ALLOWED_WITH_NAT);
    expect(verdict.action).toBe('allow');
    expect(verdict.phases.map((p) => p.type)).toEqual(['ROUTE-LOOKUP', 'UN-NAT', 'ACCESS-LIST', 'NAT']);
    expect(verdict.deciding?.number).toBe(3);
    expect(verdict.accessList).toEqual({
      line: 'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
      acl: 'outside_access_in',
      group: 'access-group outside_access_in in interface outside',
      implicit: false,
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
    expect(verdict.deciding?.type).toBe('ACCESS-LIST');
    expect(verdict.deciding?.subtype).toBe('');
    expect(verdict.accessList).toEqual({ implicit: true });
    expect(verdict.dropReason).toBe('(acl-drop) Flow is denied by configured rule');
    expect(verdict.nat).toEqual([]);
  });

  it('reads a drop by an explicit deny line (CRLF, elapsed times and flow ids as newer releases print)', () => {
    const verdict = parsePacketTracer(DROPPED_EXPLICIT);
    expect(verdict.action).toBe('drop');
    expect(verdict.deciding?.number).toBe(2);
    expect(verdict.accessList?.line).toBe(
      'access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    );
    expect(verdict.accessList?.implicit).toBe(false);
    expect(verdict.dropReason).toBe('(acl-drop) Flow is denied by configured rule');
    expect(verdict.outputInterface).toBe('dmz');
  });

  it('reads a drop for want of a route: no access-list line, no output interface', () => {
    const verdict = parsePacketTracer(NO_ROUTE);
    expect(verdict.action).toBe('drop');
    expect(verdict.deciding?.type).toBe('ROUTE-LOOKUP');
    expect(verdict.accessList).toBeUndefined();
    expect(verdict.outputInterface).toBeUndefined();
    expect(verdict.dropReason).toBe('(no-route) No route to host');
  });

  it('gives no action for output cut short, rather than a wrong one', () => {
    const cut = ALLOWED_WITH_NAT.slice(0, ALLOWED_WITH_NAT.indexOf('Result:\ninput'));
    const verdict = parsePacketTracer(cut);
    expect(verdict.action).toBeUndefined();
    expect(verdict.deciding).toBeUndefined();
    expect(parsePacketTracer('ERROR: % Invalid input detected').action).toBeUndefined();
  });
});
