// The environment variables: each one's good and bad values, defaults, and the region and loopback rules.
import { describe, expect, it } from 'vitest';
import { loadConfig, sccRegions } from '../../src/config.js';
import { fake, issueAbout, issuesOf } from './support.js';

const withToken = { SCC_API_TOKEN: fake.sccToken };

function defaultProfile(env: Record<string, string>) {
  const profile = loadConfig({ ...withToken, ...env }).profiles.get('default');
  if (profile === undefined) expect.fail('no default profile');
  return profile;
}

describe('SCC_API_TOKEN', () => {
  it('defines the profile named default, keeping the token wrapped', () => {
    const profile = defaultProfile({});
    expect(profile).toMatchObject({ name: 'default', source: 'env', tokenVariable: 'SCC_API_TOKEN' });
    expect(profile.token.reveal()).toBe(fake.sccToken);
  });

  it('drops white space around the token (a newline from a secret file is common)', () => {
    expect(defaultProfile({ SCC_API_TOKEN: `  ${fake.sccToken}\n` }).token.reveal()).toBe(fake.sccToken);
  });

  it('refuses a token given with its "Bearer " scheme', () => {
    const issue = issueAbout(issuesOf({ SCC_API_TOKEN: `Bearer ${fake.sccToken}` }), 'SCC_API_TOKEN');
    expect(issue.problem).toMatch(/starts with "Bearer "/);
    expect(issue.example).toBe('SCC_API_TOKEN=eyJhbGciOi…');
  });

  it('refuses white space inside the token', () => {
    expect(issueAbout(issuesOf({ SCC_API_TOKEN: 'abc def' }), 'SCC_API_TOKEN').problem).toMatch(
      /white space/,
    );
  });

  it('refuses a Slack token and says where it belongs', () => {
    const issue = issueAbout(issuesOf({ SCC_API_TOKEN: fake.botToken }), 'SCC_API_TOKEN');
    expect(issue.problem).toMatch(/Slack bot token.*SLACK_BOT_TOKEN/);
  });

  it('is optional when SCC is not needed: no default profile then', () => {
    expect(loadConfig({}).profiles.size).toBe(0);
  });
});

describe('SCC_REGION', () => {
  it.each(sccRegions)('maps %s to its API host', (region) => {
    const profile = defaultProfile({ SCC_REGION: region });
    expect(profile.baseUrl).toBe(`https://api.${region}.security.cisco.com/firewall`);
    expect(profile.region).toBe(region);
  });

  it('defaults to us', () => {
    expect(defaultProfile({}).baseUrl).toBe('https://api.us.security.cisco.com/firewall');
  });

  it('ignores case', () => {
    expect(defaultProfile({ SCC_REGION: 'UAE' }).region).toBe('uae');
  });

  it('treats an empty value as unset', () => {
    expect(defaultProfile({ SCC_REGION: '' }).region).toBe('us');
  });

  it('refuses an unknown region, listing the known ones with an example', () => {
    const issue = issueAbout(issuesOf({ ...withToken, SCC_REGION: 'europe' }), 'SCC_REGION');
    expect(issue.problem).toBe('is not an SCC region; use one of us, eu, apj, au, in, uae');
    expect(issue.example).toBe('SCC_REGION=eu');
  });
});

describe('SCC_BASE_URL', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://127.8.9.10:4010', 'http://127.8.9.10:4010'],
    ['http://[::1]:4010', 'http://[::1]:4010'],
    ['http://localhost:4010', 'http://localhost:4010'],
    ['http://LocalHost:4010', 'http://localhost:4010'],
  ])('allows plain http to the loopback address %s', (given, baseUrl) => {
    expect(defaultProfile({ SCC_BASE_URL: given }).baseUrl).toBe(baseUrl);
  });

  it.each([
    'http://10.0.0.1:4010',
    'http://192.168.1.20',
    'http://localhost.example.com',
    'http://[::2]:4010',
  ])('refuses plain http to %s, which is not a loopback address', (given) => {
    const issue = issueAbout(issuesOf({ ...withToken, SCC_BASE_URL: given }), 'SCC_BASE_URL');
    expect(issue.problem).toMatch(/plain http:\/\/ to a host that is not a loopback address/);
    expect(issue.example).toBe('SCC_BASE_URL=http://127.0.0.1:4010');
  });

  it.each([
    ['https://10.0.0.1:8443/firewall', 'https://10.0.0.1:8443/firewall'],
    ['https://scc-proxy.example.net', 'https://scc-proxy.example.net'],
    ['https://api.eu.security.cisco.com/firewall', 'https://api.eu.security.cisco.com/firewall'],
  ])('allows https anywhere: %s', (given, baseUrl) => {
    expect(defaultProfile({ SCC_BASE_URL: given }).baseUrl).toBe(baseUrl);
  });

  it.each([
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
    ['https://proxy.example.net/firewall/', 'https://proxy.example.net/firewall'],
    ['https://proxy.example.net/firewall///', 'https://proxy.example.net/firewall'],
  ])('drops trailing slashes: %s', (given, baseUrl) => {
    expect(defaultProfile({ SCC_BASE_URL: given }).baseUrl).toBe(baseUrl);
  });

  it('overrides the region, and the profile then has no region', () => {
    const profile = defaultProfile({ SCC_REGION: 'eu', SCC_BASE_URL: 'http://127.0.0.1:4010' });
    expect(profile.baseUrl).toBe('http://127.0.0.1:4010');
    expect(profile.region).toBeUndefined();
  });

  it.each([
    ['not a url', /is not a URL/],
    ['ftp://files.example.net', /must start with https:\/\//],
    ['https://user:pw@proxy.example.net', /user name or password/],
    ['https://proxy.example.net/firewall?token=x', /query/],
    ['https://api.eu.security.cisco.com', /without the \/firewall path/],
  ])('refuses %s', (given, problem) => {
    expect(issueAbout(issuesOf({ ...withToken, SCC_BASE_URL: given }), 'SCC_BASE_URL').problem).toMatch(
      problem,
    );
  });
});

describe('SCC_TIMEOUT_MS', () => {
  it('defaults to 30 seconds', () => {
    expect(loadConfig({}).scc.timeoutMs).toBe(30_000);
  });

  it('accepts a whole number of milliseconds up to ten minutes', () => {
    expect(loadConfig({ SCC_TIMEOUT_MS: '75000' }).scc.timeoutMs).toBe(75_000);
    expect(loadConfig({ SCC_TIMEOUT_MS: '600000' }).scc.timeoutMs).toBe(600_000);
  });

  it.each(['0', '-1', '1.5', '30s', '600001'])('refuses %s', (given) => {
    const issue = issueAbout(issuesOf({ SCC_TIMEOUT_MS: given }), 'SCC_TIMEOUT_MS');
    expect(issue.problem).toMatch(/1 to 600000/);
    expect(issue.example).toBe('SCC_TIMEOUT_MS=75000');
  });
});

describe('PORT', () => {
  it('defaults to 3000', () => {
    expect(loadConfig({}).http.port).toBe(3000);
  });

  it.each([
    ['1', 1],
    ['8080', 8080],
    ['65535', 65_535],
  ])('accepts %s', (given, port) => {
    expect(loadConfig({ PORT: given }).http.port).toBe(port);
  });

  it.each(['0', '65536', '80a', 'http'])('refuses %s', (given) => {
    expect(issueAbout(issuesOf({ PORT: given }), 'PORT').problem).toMatch(/1 to 65535/);
  });
});

describe('LOG_LEVEL', () => {
  it('defaults to info', () => {
    expect(loadConfig({}).logLevel).toBe('info');
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts %s', (level) => {
    expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it('ignores case', () => {
    expect(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
  });

  it('refuses an unknown level, listing the known ones', () => {
    const issue = issueAbout(issuesOf({ LOG_LEVEL: 'verbose' }), 'LOG_LEVEL');
    expect(issue.problem).toBe('must be one of fatal, error, warn, info, debug, trace, silent');
  });
});

describe('REDIS_URL', () => {
  it('defaults to the local Redis', () => {
    const { redis } = loadConfig({});
    expect(redis.deployment.kind === 'single' && redis.deployment.url.reveal()).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(redis.display).toBe('redis://127.0.0.1:6379');
  });

  it('accepts TLS and a password, masking the password in the display form', () => {
    const { redis } = loadConfig({ REDIS_URL: `rediss://:${fake.redisPassword}@redis.internal:6380/2` });
    expect(redis.deployment.kind === 'single' && redis.deployment.url.reveal()).toBe(
      `rediss://:${fake.redisPassword}@redis.internal:6380/2`,
    );
    expect(redis.display).toBe('rediss://:***@redis.internal:6380/2');
  });

  it.each([
    ['http://redis.internal:6379', /redis:\/\//],
    ['localhost:6379', /redis:\/\//],
    ['redis://', /no host/],
    ['redis://redis.internal:6379/queue', /database number/],
    ['not a url', /not a URL/],
  ])('refuses %s', (given, problem) => {
    expect(issueAbout(issuesOf({ REDIS_URL: given }), 'REDIS_URL').problem).toMatch(problem);
  });
});

describe('SLACK_API_URL', () => {
  it("defaults to Slack's own", () => {
    expect(loadConfig({}).slack.apiUrl).toBe('https://slack.com/api/');
  });

  it.each([
    ['http://127.0.0.1:5005', 'http://127.0.0.1:5005/api/'],
    ['http://127.0.0.1:5005/', 'http://127.0.0.1:5005/api/'],
    ['http://127.0.0.1:5005/api', 'http://127.0.0.1:5005/api/'],
    ['http://localhost:5005/api/', 'http://localhost:5005/api/'],
    ['https://slack-fake.example.net/custom/api//', 'https://slack-fake.example.net/custom/api/'],
  ])('normalises %s to a base that method names can be appended to', (given, apiUrl) => {
    expect(loadConfig({ SLACK_API_URL: given }).slack.apiUrl).toBe(apiUrl);
  });

  it('refuses plain http to a host that is not a loopback address', () => {
    const issue = issueAbout(issuesOf({ SLACK_API_URL: 'http://10.1.2.3/api/' }), 'SLACK_API_URL');
    expect(issue.problem).toMatch(/not a loopback address/);
  });
});

describe('Slack tokens', () => {
  it.each([
    ['SLACK_BOT_TOKEN', fake.appToken, /app-level token.*belongs in SLACK_APP_TOKEN/],
    ['SLACK_BOT_TOKEN', 'xoxp-1234-5678-userToken', /not a bot token/],
    ['SLACK_BOT_TOKEN', 'bot-token', /must start with xoxb-/],
    ['SLACK_APP_TOKEN', fake.botToken, /bot token.*belongs in SLACK_BOT_TOKEN/],
    ['SLACK_APP_TOKEN', 'app-token', /must start with xapp-/],
    ['SLACK_SIGNING_SECRET', fake.botToken, /is a token, not the signing secret/],
    ['SLACK_SIGNING_SECRET', 'abc def', /white space/],
  ])('refuses %s set to a wrong kind of value', (name, value, problem) => {
    const env = { SLACK_BOT_TOKEN: fake.botToken, SLACK_APP_TOKEN: fake.appToken, [name]: value };
    expect(issueAbout(issuesOf(env), name).problem).toMatch(problem);
  });
});
