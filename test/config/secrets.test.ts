// No secret ever leaves fwbot through its configuration: not in the Config when logged, and not in a
// ConfigError, even when tokens are put where they do not belong.
import { format, inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type Environment, loadConfig, REDACTED, Secret } from '../../src/config.js';
import { completeEnv, errorOf, expectNoSecretIn, fake, ProfilesFiles } from './support.js';

const secrets = Object.values(fake);
const files = new ProfilesFiles();
afterAll(() => files.cleanup());

/** Every way a ConfigError may end up in a log or a terminal. */
function renderings(env: Environment): string {
  const error = errorOf(env, { require: { slack: true, scc: true } });
  return [
    String(error),
    error.message,
    error.stack ?? '',
    inspect(error, { depth: 10 }),
    JSON.stringify(error.issues),
    format('%o', error),
  ].join('\n');
}

describe('Secret', () => {
  const secret = new Secret(fake.sccToken);

  it('reveals its value only when asked', () => {
    expect(secret.reveal()).toBe(fake.sccToken);
  });

  it('prints as [redacted] however it is printed', () => {
    expect(String(secret)).toBe(REDACTED);
    expect(`${secret}`).toBe(REDACTED);
    expect(JSON.stringify({ secret })).toBe('{"secret":"[redacted]"}');
    expect(inspect(secret)).toBe(REDACTED);
    expect(inspect({ nested: { secret } }, { depth: 10, showHidden: true })).not.toContain(fake.sccToken);
    expect(format('%s %o %O %j', secret, secret, secret, secret)).not.toContain(fake.sccToken);
  });

  it('does not copy its value into clones', () => {
    expect(JSON.stringify(structuredClone(secret))).not.toContain(fake.sccToken);
    expect(Object.keys(secret)).toEqual([]);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(secret)).toBe(true);
  });
});

describe('a loaded Config', () => {
  it('contains no secret when logged, with every secret set', async () => {
    const path = await files.write(
      'profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN }\n  lab: { base_url: http://127.0.0.1:4010, token_env: LAB_SCC_TOKEN }\n',
    );
    const config = loadConfig(
      {
        ...completeEnv,
        SLACK_SIGNING_SECRET: fake.signingSecret,
        REDIS_URL: `rediss://:${fake.redisPassword}@redis.internal:6380/0`,
        FWBOT_PROFILES: path,
        ACME_SCC_TOKEN: fake.acmeToken,
        LAB_SCC_TOKEN: fake.labToken,
      },
      { require: { slack: true, scc: true } },
    );
    const json = JSON.stringify(config);
    const inspected = inspect(config, { depth: 10 });
    expectNoSecretIn(json, secrets);
    expectNoSecretIn(inspected, secrets);
    expectNoSecretIn(format('%o %O %s', config, config, config), secrets);
    // And the log forms are still useful: they show what is configured.
    expect(JSON.parse(json)).toMatchObject({
      profiles: {
        default: { token: REDACTED },
        acme: { baseUrl: 'https://api.eu.security.cisco.com/firewall' },
      },
      slack: { mode: 'socket', botToken: REDACTED },
      redis: {
        deployment: { kind: 'single', url: REDACTED },
        display: 'rediss://:***@redis.internal:6380/0',
      },
    });
    expect(inspected).toContain("'acme' =>");
  });
});

describe('a ConfigError, with tokens in the wrong places', () => {
  it.each([
    'SCC_REGION',
    'SCC_BASE_URL',
    'SCC_TIMEOUT_MS',
    'SLACK_API_URL',
    'REDIS_URL',
    'PORT',
    'LOG_LEVEL',
  ])('does not repeat an SCC token put in %s', (name) => {
    expectNoSecretIn(renderings({ ...completeEnv, [name]: fake.sccToken }), secrets);
  });

  it.each([
    ['a Slack bot token in SCC_API_TOKEN', { SCC_API_TOKEN: fake.botToken }],
    ['the app token in SLACK_BOT_TOKEN', { SLACK_BOT_TOKEN: fake.appToken }],
    ['the bot token in SLACK_APP_TOKEN', { SLACK_APP_TOKEN: fake.botToken }],
    ['an SCC token in SLACK_SIGNING_SECRET', { SLACK_APP_TOKEN: '', SLACK_SIGNING_SECRET: fake.sccToken }],
    ['a token with its Bearer scheme', { SCC_API_TOKEN: `Bearer ${fake.sccToken}` }],
    [
      'a token broken by white space',
      { SCC_API_TOKEN: `${fake.sccToken.slice(0, 30)} ${fake.sccToken.slice(30)}` },
    ],
    [
      'a Redis URL with a password and a bad path',
      { REDIS_URL: `redis://:${fake.redisPassword}@h:6379/x/y` },
    ],
    ['a base URL with credentials', { SCC_BASE_URL: `https://user:${fake.redisPassword}@proxy.example.net` }],
    ['a token as the profiles file path', { FWBOT_PROFILES: fake.sccToken }],
  ])('does not repeat %s', (_what, env) => {
    expectNoSecretIn(renderings({ ...completeEnv, ...env }), secrets);
  });

  it.each([
    ['as a region', `profiles:\n  acme: { region: ${fake.acmeToken}, token_env: ACME_SCC_TOKEN }\n`],
    ['as a base URL', `profiles:\n  acme: { base_url: ${fake.labToken}, token_env: ACME_SCC_TOKEN }\n`],
    ['as token_env', `profiles:\n  acme: { region: eu, token_env: ${fake.acmeToken} }\n`],
    [
      'under token',
      `profiles:\n  acme: { region: eu, token: ${fake.labToken}, token_env: ACME_SCC_TOKEN }\n`,
    ],
    ['as a key', `profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN, ${fake.labToken}: x }\n`],
    ['as a profile name', `profiles:\n  ${fake.signingSecret}: { region: eu, token_env: ACME_SCC_TOKEN }\n`],
    ['as a channel id', `channels:\n  ${fake.botToken}: acme\n`],
    ['as a binding', `channels:\n  C0123ABCD: ${fake.signingSecret}\n`],
    ['as a grantee', `policy:\n  workspace:\n    admin: [${fake.appToken}]\n`],
    ['as a role', `policy:\n  workspace:\n    ${fake.labToken}: [U0123ABCD]\n`],
    ['in a YAML syntax error', `profiles:\n  acme:\n    token_env: "${fake.acmeToken}\n`],
    ['in a bad escape', `profiles:\n  acme: { region: "\\q${fake.labToken}", token_env: ACME_SCC_TOKEN }\n`],
    ['as an unknown tag', `profiles: !${fake.labToken} {}\n`],
  ])('does not repeat a token written in the profiles file %s', async (_what, yaml) => {
    const path = await files.write(yaml);
    const text = renderings({ ...completeEnv, FWBOT_PROFILES: path, ACME_SCC_TOKEN: fake.acmeToken });
    expect(text).toContain(path);
    expectNoSecretIn(text, secrets);
  });

  it('does not repeat the token of a token_env variable that holds a wrong value', async () => {
    const path = await files.write('profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN }\n');
    const text = renderings({
      ...completeEnv,
      FWBOT_PROFILES: path,
      ACME_SCC_TOKEN: `Bearer ${fake.acmeToken}`,
    });
    expect(text).toMatch(/ACME_SCC_TOKEN starts with "Bearer "/);
    expectNoSecretIn(text, secrets);
  });
});
