// The profiles file's `upgrades.smoke_traces`: packet-traces per device query, written as /fw trace takes its
// words after the device, validated when the file loads (each refusal names the key and the line), and read
// into settings with every value in the canonical form packet-tracer's template takes.
import { afterAll, describe, expect, it } from 'vitest';
import { parseSmokeTrace } from '../../src/config/sections/upgrades.js';
import { type Environment, loadConfig } from '../../src/config.js';
import { fake, issueAbout, issuesOf, ProfilesFiles } from './support.js';

const files = new ProfilesFiles();
afterAll(() => files.cleanup());

const env: Environment = { ACME_SCC_TOKEN: fake.acmeToken };
const acme = 'profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN }\n';

describe('upgrades.smoke_traces', () => {
  it('loads traces per device query, values canonical', async () => {
    const config = loadConfig({
      ...env,
      FWBOT_PROFILES: await files.write(
        `${acme}upgrades:\n  smoke_traces:\n    - devices: "name:asa-dc-*"\n      traces:\n        - "tcp 10.1.100.25 198.51.100.10 https"\n        - "udp 10.1.100.25 51000 8.8.8.8 53 --in inside"\n        - icmp 10.1.100.25 8.8.8.8 echo\n`,
      ),
    });
    const [rule] = config.upgrades.smokeTraces;
    expect(rule?.devices).toBe('name:asa-dc-*');
    expect(rule?.traces.map((t) => t.text)).toEqual([
      'tcp 10.1.100.25 198.51.100.10 https',
      'udp 10.1.100.25 51000 8.8.8.8 53 --in inside',
      'icmp 10.1.100.25 8.8.8.8 echo',
    ]);
    expect(rule?.traces.map((t) => t.flow)).toEqual([
      { protocol: 'tcp', source: '10.1.100.25', destination: '198.51.100.10', port: 443 },
      {
        protocol: 'udp',
        source: '10.1.100.25',
        destination: '8.8.8.8',
        sourcePort: 51000,
        port: 53,
        in: 'inside',
      },
      { protocol: 'icmp', source: '10.1.100.25', destination: '8.8.8.8', icmpType: 8 },
    ]);
  });

  it('is empty without the section', async () => {
    const config = loadConfig({ ...env, FWBOT_PROFILES: await files.write(acme) });
    expect(config.upgrades.smokeTraces).toEqual([]);
  });

  it('refuses a trace that is not one, naming the key and the line', async () => {
    const path = await files.write(
      `${acme}upgrades:\n  smoke_traces:\n    - devices: "name:asa-dc-*"\n      traces:\n        - "tcp 10.1.100.25 198.51.100.10 443"\n        - "tcp 10.1.100.25; reload 198.51.100.10 443"\n`,
    );
    const issue = issueAbout(issuesOf({ ...env, FWBOT_PROFILES: path }), path);
    expect(issue.key).toBe('upgrades.smoke_traces[0].traces[1]');
    expect(issue.line).toBe(8);
    expect(issue.problem).toMatch(/^is not a trace: source must be an IPv4 or IPv6 address/);
  });

  it('refuses an empty device query, a missing traces list and an unknown key', async () => {
    const path = await files.write(
      `${acme}upgrades:\n  smoke_traces:\n    - devices: ""\n      traces: ["tcp 10.1.100.25 8.8.8.8 443"]\n    - devices: name:asa-hq-01\n  smoke_trace: []\n`,
    );
    const issues = issuesOf({ ...env, FWBOT_PROFILES: path });
    expect(issueAbout(issues, path, 'upgrades.smoke_traces[0].devices').problem).toMatch(/is empty/);
    expect(issueAbout(issues, path, 'upgrades.smoke_traces[1].traces').problem).toMatch(/is missing/);
    expect(issueAbout(issues, path, 'upgrades.smoke_trace').problem).toMatch(/is not a known key/);
  });
});

describe('a smoke trace’s grammar (that of /fw trace after the device)', () => {
  it.each([
    ['tcp 10.1.100.25 8.8.8.8 70000', /^port must be a port number from 1 to 65535/],
    ['tcp 10.1.100.25 2001:db8::1 443', /same family/],
    ['icmp 10.1.100.25 1000 8.8.8.8 echo', /ICMP has no ports/],
    ['gre 10.1.100.25 8.8.8.8 443', /^protocol must be one of tcp, udp, icmp/],
    ['tcp 10.1.100.25 8.8.8.8 443 --in', /--in takes one interface name/],
    ['tcp 10.1.100.25 8.8.8.8 443 --in in$ide', /--in must be an interface name/],
    ['tcp host 8.8.8.8 443', /^source must be an IPv4 or IPv6 address/],
    ['tcp 10.1.100.25 8.8.8.8', /must be `<protocol> <source>/],
    ['tcp 10.1.100.25 8.8.8.8 443 --out outside', /must be `<protocol> <source>/],
  ])('refuses %s', (text, reason) => {
    const parsed = parseSmokeTrace(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('writes IPv6 canonically and keeps --in', () => {
    expect(parseSmokeTrace('tcp 2001:DB8:0:0::5 2001:db8::10 443 --in outside')).toEqual({
      ok: true,
      value: {
        protocol: 'tcp',
        source: '2001:db8::5',
        destination: '2001:db8::10',
        port: 443,
        in: 'outside',
      },
    });
  });
});
