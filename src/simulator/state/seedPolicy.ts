// The seeded access policies of the portal's three ASAs, as configuration lines (objects, object-groups,
// access lists, access-group bindings, routes, object NAT), and the plain policy every other ASA (the MSP
// tenants' and the large worlds') starts with. The values of asa-hq-01 are the ones the issue-27 design
// note fixes: the demo, the packet tracer and the ops tests rely on them. Some rules are seeded shadowed,
// duplicate and inactive on purpose. asa-dc-03 carries what placing a new rule needs (issue 36): a deny
// of the partner's network above the catch-all deny, which would shadow a permit for the partner put
// below it, and the partner's network as an object to reuse (PARTNER-NET).

import type { SimState } from './model.js';
import { DEVICE_NAMES } from './seedInventory.js';

const HQ: readonly string[] = [
  'object network WEB-01',
  ' host 172.16.0.10',
  ' description Public web server',
  ' nat (dmz,outside) static 203.0.113.10',
  'object network APP-01',
  ' host 172.16.0.20',
  ' description Application server',
  'object network HQ-USERS',
  ' subnet 10.1.100.0 255.255.255.0',
  'object service HTTPS',
  ' service tcp destination eq https',
  'object-group network DMZ-SERVERS',
  ' description Servers in the DMZ',
  ' network-object object WEB-01',
  ' network-object object APP-01',
  'object-group service WEB-PORTS tcp',
  ' port-object eq www',
  ' port-object eq https',
  'access-list outside_access_in remark Published web server WEB-01 (static NAT 203.0.113.10)',
  'access-list outside_access_in extended permit tcp any object WEB-01 eq https',
  'access-list outside_access_in extended permit tcp any object WEB-01 eq www',
  // Shadowed: the permit of line 2 already matches all of it, so this deny is never hit.
  'access-list outside_access_in extended deny tcp host 198.51.100.66 object WEB-01 eq https log',
  'access-list outside_access_in extended permit icmp any any echo-reply',
  'access-list inside_access_in extended permit ip object HQ-USERS any',
  // Duplicate: the same traffic as line 1, written as an address and mask.
  'access-list inside_access_in extended permit ip 10.1.100.0 255.255.255.0 any',
  'access-list inside_access_in extended deny tcp any any eq telnet',
  'access-list inside_access_in extended permit ip 10.1.0.0 255.255.0.0 any',
  'access-list dmz_access_in remark DMZ servers reach the application tier',
  'access-list dmz_access_in extended permit tcp object-group DMZ-SERVERS object APP-01 object-group WEB-PORTS',
  'access-list dmz_access_in extended permit object HTTPS object-group DMZ-SERVERS any inactive',
  'access-list dmz_access_in extended deny ip any any log informational interval 300',
  'access-group outside_access_in in interface outside',
  'access-group inside_access_in in interface inside',
  'access-group inside_access_in in interface users',
  'access-group dmz_access_in in interface dmz',
  'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
];

const BRANCH: readonly string[] = [
  'object network BRANCH-STAFF',
  ' subnet 10.50.10.0 255.255.255.0',
  // The staff reach the internet through the outside interface's address (port address translation).
  ' nat (staff,outside) dynamic interface',
  'object network HQ-NETWORKS',
  ' subnet 10.1.0.0 255.255.0.0',
  ' description Reached over the tunnel to HQ',
  'access-list outside_access_in remark Nothing is published at the branch',
  'access-list outside_access_in extended permit icmp any any echo-reply',
  'access-list outside_access_in extended deny ip any any log',
  'access-list staff_access_in extended permit tcp object BRANCH-STAFF object HQ-NETWORKS eq https',
  'access-list staff_access_in extended permit ip object BRANCH-STAFF any',
  'access-group outside_access_in in interface outside',
  'access-group staff_access_in in interface staff',
  'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
  'route vti-hq 10.1.0.0 255.255.0.0 169.254.30.2 1',
];

const DC: readonly string[] = [
  'object network DC-WEB',
  ' host 172.20.40.10',
  ' nat (web,outside) static 203.0.113.40',
  'object network DC-APP',
  ' subnet 172.20.41.0 255.255.255.0',
  // A partner's network, to be reused by an access request whose source is 198.51.100.0/24.
  'object network PARTNER-NET',
  ' subnet 198.51.100.0 255.255.255.0',
  ' description Partner network',
  'object-group network DC-APP-TIER',
  ' network-object object DC-APP',
  'object-group network DC-TIERS',
  ' description Web and application tiers (nested)',
  ' network-object object DC-WEB',
  ' group-object DC-APP-TIER',
  'access-list outside_access_in extended permit tcp any object DC-WEB eq https',
  // The partner is denied everything else: a permit for it appended below this line would be shadowed, so
  // access for the partner goes above it (line 2).
  'access-list outside_access_in extended deny ip object PARTNER-NET any log',
  'access-list outside_access_in extended deny ip any any log',
  'access-list web_access_in extended permit tcp object DC-WEB object-group DC-APP-TIER eq 8443',
  'access-list web_access_in extended permit tcp object-group DC-TIERS object-group DC-TIERS eq 8443',
  'access-group outside_access_in in interface outside',
  'access-group web_access_in in interface web',
  'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
];

const SEEDED: Readonly<Record<string, readonly string[]>> = {
  [DEVICE_NAMES.asaHq]: HQ,
  [DEVICE_NAMES.asaBranch]: BRANCH,
  [DEVICE_NAMES.asaDc]: DC,
};

/**
 * The policy of an ASA the seed gives no policy of its own (the MSP tenants' ASAs, the large worlds', one
 * added later): an outside access list that lets only return ICMP in, and a default route, so a
 * packet-tracer has something to evaluate on every ASA. Derived from nothing random.
 */
export function defaultPolicyLines(deviceName = 'this ASA'): string[] {
  return [
    `access-list outside_access_in remark ${deviceName} publishes nothing`,
    'access-list outside_access_in extended permit icmp any any echo-reply',
    'access-list outside_access_in extended deny ip any any log',
    'access-group outside_access_in in interface outside',
    'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
  ];
}

/** The policy lines of every ASA of a freshly seeded world (before the large-world extension). */
export function seedAsaPolicies(state: SimState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const record of state.devices.values()) {
    if (record.kind !== 'ASA') continue;
    out.set(record.device.uid, [...(SEEDED[record.device.name] ?? defaultPolicyLines(record.device.name))]);
  }
  return out;
}
