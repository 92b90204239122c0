// The one flow an existing rule matched (src/catalogue/ruleTrace.ts), read against the seeded simulator: a
// host, an address and mask, a network object (its first host) and a named port become a packet-tracer
// line on the interface the access list is bound to; what is not one flow is said, never guessed.
import { describe, expect, it } from 'vitest';
import { prefixOfMask, ruleTrace } from '../../src/catalogue/ruleTrace.js';
import type { AccessGroup } from '../../src/scc/generated/models.js';
import { useSimulator } from './harness.js';

describe('ruleTrace: the flow a rule matched', () => {
  const h = useSimulator();
  const hq = () => h.sim.deviceUid('asa-hq-01');
  const group = async (name: string): Promise<AccessGroup | undefined> =>
    (await h.client().lookups.accessGroups({ q: `entityUid:${hq()}` })).items?.find((g) => g.name === name);
  const trace = async (acl: string, rest: string) =>
    ruleTrace(h.context(), hq(), await group(acl), `access-list ${acl} extended ${rest}`);

  it('reads masks as prefix lengths, and refuses a mask that is not one', () => {
    expect(prefixOfMask('255.255.255.0')).toBe(24);
    expect(prefixOfMask('255.255.255.255')).toBe(32);
    expect(prefixOfMask('255.0.255.0')).toBeUndefined();
    expect(prefixOfMask('host')).toBeUndefined();
  });

  it('builds the line from a host, a network object and a named port, on the bound interface', async () => {
    expect(
      await trace('outside_access_in', 'deny tcp host 198.51.100.66 object WEB-01 eq https log'),
    ).toEqual({
      script: 'packet-tracer input outside tcp 198.51.100.66 49152 172.16.0.10 443',
    });
    // An address and mask is traced with its first host; icmp without a type as echo.
    expect(await trace('outside_access_in', 'permit icmp 198.51.100.0 255.255.255.0 object APP-01')).toEqual({
      script: 'packet-tracer input outside icmp 198.51.100.1 8 0 172.16.0.20',
    });
  });

  it('picks, for a list bound to several interfaces, the one whose subnet holds the source', async () => {
    const found = await trace('inside_access_in', 'permit udp object HQ-USERS host 10.9.9.9 eq domain');
    expect(found).toEqual({ script: 'packet-tracer input users udp 10.1.100.1 49152 10.9.9.9 53' });
  });

  it.each([
    ['permit ip object HQ-USERS any', 'it matches the protocol ip'],
    ['permit tcp any object WEB-01 eq https', 'its source is any'],
    [
      'permit tcp object-group DMZ-SERVERS object APP-01 eq 443',
      'its source is the object-group DMZ-SERVERS',
    ],
    ['permit object HTTPS host 10.1.1.1 any', 'it matches the services of object HTTPS'],
    ['permit tcp host 10.1.1.1 object WEB-01 range 80 90', 'it matches the ports range 80, not one port'],
    ['permit tcp host 10.1.1.1 object WEB-01', 'it matches every tcp port, not one port'],
    ['permit tcp host 10.1.1.1 eq 1000 object WEB-01 eq 80', 'it names a source port'],
    ['permit tcp host 10.1.1.1 object NO-SUCH eq 80', 'SCC has no network object named NO-SUCH'],
    [
      'permit tcp host 10.1.1.1 object-group DMZ-SERVERS eq 80',
      'its destination is the object-group DMZ-SERVERS',
    ],
  ])('says %s has no single flow: %s', async (rest, why) => {
    const found = await trace('outside_access_in', rest);
    expect(found).toHaveProperty('untraceable');
    expect('untraceable' in found ? found.untraceable : '').toContain(why);
  });
});
