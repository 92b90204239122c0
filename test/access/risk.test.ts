// The access risk check (issue 36, item 4): the `access:` section as the profiles file writes it, read by
// the configuration's own reader, and applied to a table of requests; each violation is one sentence that
// names its rule, refuse wins over extra-approval, and an extra approval names who and why.
import { afterAll, describe, expect, it } from 'vitest';
import { type AccessRequestFacts, assessAccessRisk } from '../../src/access/risk.js';
import type { AccessRequestPolicy } from '../../src/config/sections/access.js';
import { loadConfig } from '../../src/config.js';
import { UserError } from '../../src/model/errors.js';
import { fake, issueAbout, issuesOf, ProfilesFiles } from '../config/support.js';

const files = new ProfilesFiles();
afterAll(() => files.cleanup());
const env = { ACME_SCC_TOKEN: fake.acmeToken };

async function policyOf(yaml: string): Promise<AccessRequestPolicy> {
  return loadConfig({ ...env, FWBOT_PROFILES: await files.write(yaml) }).accessRequests;
}

const POLICY = `access:
  organisation_networks: [10.0.0.0/8, 192.168.0.0/16, 2001:db8::/32]
  forbidden_services:
    - { name: telnet, protocol: tcp, ports: [23], action: refuse }
    - { name: SMB, protocol: tcp, ports: [445, 139], from: outside, action: refuse }
    - { name: tftp, protocol: udp, ports: 69, action: extra-approval, approvers: [U0NETSEC001] }
  min_source_prefix: { ipv4: 16, ipv6: 48, action: refuse }
  min_destination_prefix: { ipv4: 24, action: extra-approval, approvers: [S0NETSEC01], min_approvers: 2 }
  protected_destinations:
    - { name: pci, networks: [10.20.0.0/16], approvers: [S0PCIOWNER1] }
    - { name: scada, networks: [10.99.0.0/24, 10.99.1.7], action: refuse }
  any_source_to_protected: refuse
  outside_sources: { at_most: 90d, action: refuse }
`;

const NOW = Date.parse('2026-12-07T12:00:00Z');
const DAY = 86_400_000;

function request(overrides: Partial<AccessRequestFacts>): AccessRequestFacts {
  return {
    protocol: 'tcp',
    source: '10.1.1.0/24',
    destination: '10.2.2.10',
    port: 443,
    now: NOW,
    ...overrides,
  };
}

describe('the access section', () => {
  it('reads every rule with its key, action and approvers', async () => {
    const policy = await policyOf(POLICY);
    expect(policy.organisationNetworks).toHaveLength(3);
    expect(policy.forbiddenServices.map((s) => [s.key, s.name, s.ports, s.from, s.action])).toEqual([
      ['access.forbidden_services[0]', 'telnet', [23], 'anywhere', 'refuse'],
      ['access.forbidden_services[1]', 'SMB', [445, 139], 'outside', 'refuse'],
      ['access.forbidden_services[2]', 'tftp', [69], 'anywhere', 'extra-approval'],
    ]);
    expect(policy.forbiddenServices[2]?.approvers).toEqual({
      key: 'access.forbidden_services[2]',
      approvers: ['U0NETSEC001'],
      minApprovers: 1,
    });
    expect(policy.minDestinationPrefix).toMatchObject({ ipv4: 24, action: 'extra-approval' });
    expect(policy.minDestinationPrefix?.approvers?.minApprovers).toBe(2);
    expect(policy.protectedDestinations.map((d) => [d.key, d.action])).toEqual([
      ['access.protected_destinations[0]', 'extra-approval'],
      ['access.protected_destinations[1]', 'refuse'],
    ]);
    expect(policy.outsideSources).toMatchObject({ atMostMs: 90 * DAY, action: 'refuse' });
  });

  it('reads the recertification of permanent rules, the grace 7 days unless given', async () => {
    expect((await policyOf('access: { recertify_every: 90d }\n')).recertification).toEqual({
      everyMs: 90 * DAY,
      graceMs: 7 * DAY,
    });
    expect(
      (await policyOf('access: { recertify_every: 90d, recertify_grace: 14d }\n')).recertification,
    ).toEqual({ everyMs: 90 * DAY, graceMs: 14 * DAY });
    expect((await policyOf(POLICY)).recertification).toBeUndefined();
  });

  it('reads time_range_for_expiry: off unless the section says true', async () => {
    expect((await policyOf('access: { time_range_for_expiry: true }\n')).timeRangeForExpiry).toBe(true);
    expect((await policyOf('access: { time_range_for_expiry: false }\n')).timeRangeForExpiry).toBeUndefined();
    expect((await policyOf(POLICY)).timeRangeForExpiry).toBeUndefined();
  });

  it('is empty without the section: every request is allowed', async () => {
    const policy = await policyOf('approvals: { expiry_minutes: 30 }\n');
    expect(policy.forbiddenServices).toEqual([]);
    expect(assessAccessRisk(policy, request({ protocol: 'ip', source: 'any', destination: 'any' }))).toEqual({
      outcome: 'allowed',
      findings: [],
    });
  });

  it.each([
    [
      'access: { forbidden_services: [{ name: telnet, protocol: tcp, ports: [23], action: deny }] }',
      'access.forbidden_services[0].action',
      'must be refuse or extra-approval',
    ],
    [
      'access: { forbidden_services: [{ name: telnet, protocol: tcp, ports: [70000], action: refuse }] }',
      'access.forbidden_services[0].ports[0]',
      'must be at most 65535',
    ],
    [
      'access: { forbidden_services: [{ name: ping, protocol: icmp, ports: [8], action: refuse }] }',
      'access.forbidden_services[0].ports',
      'is given for a protocol without ports (tcp or udp have them)',
    ],
    [
      'access: { forbidden_services: [{ name: SMB, protocol: tcp, ports: [445], from: outside, action: refuse }] }',
      'access.forbidden_services[0].from',
      'is outside, but access.organisation_networks is not given: list the organisation’s networks',
    ],
    [
      'access: { forbidden_services: [{ name: tftp, protocol: udp, ports: [69], action: extra-approval }] }',
      'access.forbidden_services[0].approvers',
      'is missing: an extra-approval rule names who approves (Slack user ids or user-group ids)',
    ],
    [
      'access: { min_source_prefix: { ipv4: 16, action: refuse, approvers: [U0NETSEC001] } }',
      'access.min_source_prefix.approvers',
      'is given to a rule that refuses; approvers belong to extra-approval rules',
    ],
    [
      'access: { min_source_prefix: { ipv4: 33, action: refuse } }',
      'access.min_source_prefix.ipv4',
      'must be at most 32',
    ],
    [
      'access: { organisation_networks: [10.0.0.0/33] }',
      'access.organisation_networks[0]',
      'must be a host or a CIDR such as 10.0.0.0/8 or 2001:db8::/32',
    ],
    [
      'access: { organisation_networks: [any] }',
      'access.organisation_networks[0]',
      'must be a host or a CIDR such as 10.0.0.0/8 or 2001:db8::/32',
    ],
    [
      'access: { protected_destinations: [{ name: pci, networks: [10.20.0.0/16] }] }',
      'access.protected_destinations[0].approvers',
      'is missing: an extra-approval rule names who approves (Slack user ids or user-group ids)',
    ],
    [
      'access: { protected_destinations: [{ name: pci, networks: [], approvers: [U0PCI000001] }] }',
      'access.protected_destinations[0].networks',
      'is empty; list hosts or CIDRs',
    ],
    [
      'access: { outside_sources: { action: refuse } }',
      'access.outside_sources',
      'needs access.organisation_networks: list the organisation’s networks',
    ],
    [
      'access: { organisation_networks: [10.0.0.0/8], outside_sources: { at_most: 2w, action: refuse } }',
      'access.outside_sources.at_most',
      'must be a number of days such as 30d or 90d (at most 1095d)',
    ],
    [
      'access: { recertify: 90d }',
      'access.recertify',
      'is not a known key Keys allowed here: organisation_networks, forbidden_services, min_source_prefix, min_destination_prefix, any_source_to_protected, protected_destinations, outside_sources, recertify_every, recertify_grace, time_range_for_expiry',
    ],
    [
      'access: { recertify_every: 3m }',
      'access.recertify_every',
      'must be a number of days such as 30d or 90d (at most 1095d)',
    ],
    [
      'access: { recertify_grace: 7d }',
      'access.recertify_grace',
      'needs access.recertify_every: say how often permanent rules are recertified',
    ],
    [
      'access: { recertify_every: 30d, recertify_grace: 30d }',
      'access.recertify_grace',
      'must be shorter than access.recertify_every, or the next question comes before this one is late',
    ],
  ])('refuses %s, naming the key', async (yaml, key, problem) => {
    const path = await files.write(`${yaml}\n`);
    const issue = issueAbout(issuesOf({ ...env, FWBOT_PROFILES: path }), path, key);
    expect(issue.problem).toBe(problem);
  });
});

describe('assessAccessRisk', () => {
  type Case = [string, Partial<AccessRequestFacts>, 'allowed' | 'refused' | 'extra-approval', string[]];
  const cases: Case[] = [
    ['an inside host to a plain server on 443', {}, 'allowed', []],
    [
      'telnet anywhere',
      { port: 23 },
      'refused',
      ['Refused by access.forbidden_services[0] (telnet): tcp port 23 may not be opened.'],
    ],
    [
      'ip opens telnet too',
      { protocol: 'ip', port: undefined },
      'refused',
      [
        'Refused by access.forbidden_services[0] (telnet): tcp port 23 may not be opened, and ip (every protocol and port) opens it.',
        'Needs an extra approval by access.forbidden_services[2] (tftp): udp port 69 may not be opened, and ip (every protocol and port) opens it.',
      ],
    ],
    [
      'tcp without a port opens telnet',
      { port: undefined },
      'refused',
      [
        'Refused by access.forbidden_services[0] (telnet): tcp port 23 may not be opened, and tcp without a port opens every port.',
      ],
    ],
    ['udp 23 is not telnet', { protocol: 'udp', port: 23 }, 'allowed', []],
    ['SMB from inside is fine', { port: 445 }, 'allowed', []],
    [
      'SMB from outside',
      { source: '198.51.100.0/24', port: 139, expiresAt: NOW + 10 * DAY },
      'refused',
      [
        'Refused by access.forbidden_services[1] (SMB): tcp ports 445, 139 may not be opened from outside the organisation’s networks, and the source 198.51.100.0/24 is outside them.',
      ],
    ],
    [
      'SMB from an object that holds one outside address',
      { source: 'partners', sourceNetworks: ['10.5.0.0/16', '203.0.113.9'], port: 445, expiresAt: NOW + DAY },
      'refused',
      [
        'Refused by access.forbidden_services[1] (SMB): tcp ports 445, 139 may not be opened from outside the organisation’s networks, and the source partners is outside them.',
      ],
    ],
    [
      'tftp needs the network security team',
      { protocol: 'udp', port: 69 },
      'extra-approval',
      ['Needs an extra approval by access.forbidden_services[2] (tftp): udp port 69 may not be opened.'],
    ],
    [
      'a /8 source is too broad',
      { source: '10.0.0.0/8' },
      'refused',
      [
        'Refused by access.min_source_prefix: the source 10.0.0.0/8 is a /8, broader than the /16 the rule allows for IPv4.',
      ],
    ],
    [
      'an IPv6 /32 source is too broad',
      { source: '2001:db8::/32', destination: '2001:db8:1::10' },
      'refused',
      [
        'Refused by access.min_source_prefix: the source 2001:db8::/32 is a /32, broader than the /48 the rule allows for IPv6.',
      ],
    ],
    [
      'a /20 destination needs an extra approval',
      { destination: '10.2.0.0/20' },
      'extra-approval',
      [
        'Needs an extra approval by access.min_destination_prefix: the destination 10.2.0.0/20 is a /20, broader than the /24 the rule allows for IPv4.',
      ],
    ],
    [
      'a host in pci',
      { destination: '10.20.4.4' },
      'extra-approval',
      [
        'Needs an extra approval by access.protected_destinations[0] (pci): the destination 10.20.4.4 reaches into pci (10.20.0.0/16).',
      ],
    ],
    [
      'scada takes no requests, a single host of it included',
      { destination: '10.99.1.7' },
      'refused',
      [
        'Refused by access.protected_destinations[1] (scada): the destination 10.99.1.7 reaches into scada (10.99.0.0/24, 10.99.1.7/32), which takes no requests.',
      ],
    ],
    [
      'any to pci: refused, the broad source and the protected destination both named',
      { source: 'any', destination: '10.20.4.0/24', expiresAt: NOW + DAY },
      'refused',
      [
        'Refused by access.min_source_prefix: the source any is every address, broader than the /16 the rule allows for IPv4.',
        'Refused by access.any_source_to_protected: the source any may not reach the protected pci.',
        'Needs an extra approval by access.protected_destinations[0] (pci): the destination 10.20.4.0/24 reaches into pci (10.20.0.0/16).',
      ],
    ],
    [
      'a permanent access from outside',
      { source: '198.51.100.7' },
      'refused',
      [
        'Refused by access.outside_sources: the source 198.51.100.7 is outside the organisation’s networks, so the access must expire within 90 days (--expires).',
      ],
    ],
    [
      'an access from outside for too long',
      { source: '198.51.100.7', expiresAt: NOW + 120 * DAY },
      'refused',
      [
        'Refused by access.outside_sources: the source 198.51.100.7 is outside the organisation’s networks, so the access must expire within 90 days, and this one lasts 120 days.',
      ],
    ],
    [
      'an access from outside for 30 days',
      { source: '198.51.100.7', expiresAt: NOW + 30 * DAY },
      'allowed',
      [],
    ],
    ['192.168 is inside too', { source: '192.168.7.0/24' }, 'allowed', []],
  ];

  it.each(cases)('%s', async (_name, facts, outcome, sentences) => {
    const policy = await policyOf(POLICY);
    const verdict = assessAccessRisk(policy, request(facts));
    expect(verdict.outcome).toBe(outcome);
    expect(verdict.findings.map((finding) => finding.sentence)).toEqual(sentences);
    for (const finding of verdict.findings) expect(finding.sentence).toContain(finding.rule);
  });

  it('says who approves an extra approval and why, one entry per rule', async () => {
    const policy = await policyOf(POLICY);
    const verdict = assessAccessRisk(
      policy,
      request({ protocol: 'udp', port: 69, destination: '10.20.0.0/22' }),
    );
    expect(verdict.outcome).toBe('extra-approval');
    expect(verdict.approvers).toEqual([
      {
        rule: { key: 'access.forbidden_services[2]', approvers: ['U0NETSEC001'], minApprovers: 1 },
        reason:
          'Needs an extra approval by access.forbidden_services[2] (tftp): udp port 69 may not be opened.',
      },
      {
        rule: { key: 'access.min_destination_prefix', approvers: ['S0NETSEC01'], minApprovers: 2 },
        reason:
          'Needs an extra approval by access.min_destination_prefix: the destination 10.20.0.0/22 is a /22, broader than the /24 the rule allows for IPv4.',
      },
      {
        rule: { key: 'access.protected_destinations[0]', approvers: ['S0PCIOWNER1'], minApprovers: 1 },
        reason:
          'Needs an extra approval by access.protected_destinations[0] (pci): the destination 10.20.0.0/22 reaches into pci (10.20.0.0/16).',
      },
    ]);
  });

  it('lets any to a protected destination through with its approvers where the policy says extra-approval', async () => {
    const policy = await policyOf(
      'access:\n  protected_destinations: [{ name: pci, networks: [10.20.0.0/16], approvers: [S0PCIOWNER1] }]\n  any_source_to_protected: extra-approval\n',
    );
    const verdict = assessAccessRisk(policy, request({ source: 'any', destination: '10.20.1.1' }));
    expect(verdict.outcome).toBe('extra-approval');
    expect(verdict.approvers?.map((entry) => entry.rule.key)).toEqual([
      'access.protected_destinations[0]',
      'access.any_source_to_protected',
    ]);
    expect(verdict.approvers?.[1]?.rule.approvers).toEqual(['S0PCIOWNER1']);
  });

  it.each([
    [
      { source: 'web-servers' },
      'The source web-servers is not a host, a CIDR or any; name an object by what it holds.',
    ],
    [
      { destination: 'db', destinationNetworks: ['10.1.1.1', 'db.example'] },
      'The destination db holds db.example, which is not a host or a CIDR.',
    ],
    [{ source: 'empty-group', sourceNetworks: [] }, 'The source empty-group holds no addresses to check.'],
  ])('refuses a request whose addresses cannot be read: %o', async (facts, message) => {
    const policy = await policyOf(POLICY);
    expect(() => assessAccessRisk(policy, request(facts))).toThrow(new UserError(message));
  });
});
