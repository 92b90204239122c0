// Comparing fwbot's rule line (ports and ICMP types always as numbers) with the device's, which prints the
// names the ASA knows. The device lines are in the form Cisco's ASA configuration guide prints them
// (https://www.cisco.com/c/en/us/td/docs/security/asa/asa916/configuration/firewall/asa-916-firewall-config/access-acls.html:
// "access-list ACL_IN extended permit tcp any host 209.165.201.29 eq www").
import { describe, expect, it } from 'vitest';
import { sameRuleText } from '../../src/catalogue/accessDesign.js';

describe('sameRuleText', () => {
  it('reads a port the device prints by name as its number', () => {
    expect(
      sameRuleText(
        'access-list ACL_IN line 3 extended permit tcp any host 209.165.201.29 eq www',
        'access-list ACL_IN extended permit tcp any host 209.165.201.29 eq 80',
      ),
    ).toBe(true);
    expect(
      sameRuleText(
        'access-list outside_in extended permit tcp object fwbot-h-10.1.2.3 host 10.9.9.9 eq https',
        'access-list outside_in  extended permit tcp object fwbot-h-10.1.2.3 host 10.9.9.9 eq 443',
      ),
    ).toBe(true);
    expect(
      sameRuleText(
        'access-list outside_in extended permit udp any any range bootps tftp',
        'access-list outside_in extended permit udp any any range 67 69',
      ),
    ).toBe(true);
  });

  it('reads an ICMP type by name as its number, only in an icmp rule', () => {
    expect(
      sameRuleText(
        'access-list outside_in extended permit icmp any host 10.1.1.1 echo',
        'access-list outside_in extended permit icmp any host 10.1.1.1 8',
      ),
    ).toBe(true);
    expect(
      sameRuleText(
        'access-list outside_in extended permit tcp any host 10.1.1.1 echo',
        'access-list outside_in extended permit tcp any host 10.1.1.1 8',
      ),
    ).toBe(false);
  });

  it('still tells different rules apart', () => {
    expect(
      sameRuleText(
        'access-list outside_in extended permit tcp any host 10.1.1.1 eq https',
        'access-list outside_in extended permit tcp any host 10.1.1.1 eq 8443',
      ),
    ).toBe(false);
    expect(
      sameRuleText(
        'access-list outside_in extended permit tcp any host 10.1.1.1 eq 443',
        'access-list outside_in extended deny tcp any host 10.1.1.1 eq 443',
      ),
    ).toBe(false);
  });

  it('never reads an object named like a service as a port', () => {
    expect(
      sameRuleText(
        'access-list outside_in extended permit tcp any object https eq 443',
        'access-list outside_in extended permit tcp any object 443 eq 443',
      ),
    ).toBe(false);
  });

  it('compares a remark as written', () => {
    expect(
      sameRuleText(
        'access-list outside_in remark allow https for the portal',
        'access-list outside_in remark allow 443 for the portal',
      ),
    ).toBe(false);
  });
});
