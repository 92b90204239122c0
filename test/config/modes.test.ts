// What each entry point requires (the bot: Slack and SCC; the CLI: SCC; simulator and demo: neither), the
// Slack mode derived from the credentials, and every problem reported in one error.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { completeEnv, errorOf, fake, issueAbout, issuesOf, ProfilesFiles } from './support.js';

const bot = { require: { slack: true, scc: true } };
const cli = { require: { scc: true } };

describe('requirements', () => {
  it('lets the simulator and the demo start with nothing set', () => {
    const config = loadConfig({});
    expect(config.slack.mode).toBe('disabled');
    expect(config.profiles.size).toBe(0);
  });

  it('lists everything the bot is missing in one error', () => {
    const issues = issuesOf({}, bot);
    expect(issues.map((issue) => issue.source)).toEqual([
      'SCC_API_TOKEN',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
    ]);
    for (const issue of issues) expect(issue.example).toMatch(new RegExp(`^${issue.source}=`));
  });

  it('asks the CLI for SCC only', () => {
    expect(issuesOf({}, cli).map((issue) => issue.source)).toEqual(['SCC_API_TOKEN']);
    expect(loadConfig({ SCC_API_TOKEN: fake.sccToken }, cli).slack.mode).toBe('disabled');
  });

  it('accepts a profiles file with a profile instead of SCC_API_TOKEN', async () => {
    const files = new ProfilesFiles();
    try {
      const path = await files.write('profiles:\n  acme: { region: eu, token_env: ACME_SCC_TOKEN }\n');
      const config = loadConfig({ FWBOT_PROFILES: path, ACME_SCC_TOKEN: fake.acmeToken }, cli);
      expect([...config.profiles.keys()]).toEqual(['acme']);
    } finally {
      await files.cleanup();
    }
  });

  it('starts the bot when everything is set', () => {
    expect(() => loadConfig(completeEnv, bot)).not.toThrow();
  });
});

describe('Slack mode', () => {
  it('is socket when SLACK_APP_TOKEN is set', () => {
    const { slack } = loadConfig(completeEnv, bot);
    if (slack.mode !== 'socket') expect.fail(`mode is ${slack.mode}`);
    expect(slack.botToken.reveal()).toBe(fake.botToken);
    expect(slack.appToken.reveal()).toBe(fake.appToken);
  });

  it('is http when only SLACK_SIGNING_SECRET is set', () => {
    const env = {
      SCC_API_TOKEN: fake.sccToken,
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: fake.signingSecret,
    };
    const { slack } = loadConfig(env, bot);
    if (slack.mode !== 'http') expect.fail(`mode is ${slack.mode}`);
    expect(slack.signingSecret.reveal()).toBe(fake.signingSecret);
  });

  it('prefers socket when both the app token and the signing secret are set', () => {
    expect(loadConfig({ ...completeEnv, SLACK_SIGNING_SECRET: fake.signingSecret }, bot).slack.mode).toBe(
      'socket',
    );
  });

  it('is disabled when the process does not need Slack and no Slack credential is set', () => {
    expect(loadConfig({ SLACK_API_URL: 'http://127.0.0.1:5005' }).slack.mode).toBe('disabled');
  });

  it('runs for the demo when it is fully configured, though not required', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: fake.botToken, SLACK_APP_TOKEN: fake.appToken }).slack.mode).toBe(
      'socket',
    );
  });

  it('reports half a Slack setup even when Slack is not required', () => {
    const issue = issueAbout(issuesOf({ SLACK_BOT_TOKEN: fake.botToken }), 'SLACK_SIGNING_SECRET');
    expect(issue.problem).toMatch(/neither is SLACK_APP_TOKEN \(another Slack credential is set\)/);
    expect(issueAbout(issuesOf({ SLACK_APP_TOKEN: fake.appToken }), 'SLACK_BOT_TOKEN').problem).toMatch(
      /is not set/,
    );
  });
});

describe('every problem at once', () => {
  it('reports each wrong variable, in the order the README lists them, with an example each', () => {
    const error = errorOf(
      {
        SCC_API_TOKEN: `Bearer ${fake.sccToken}`,
        SCC_REGION: 'mars',
        SCC_BASE_URL: 'http://10.0.0.1',
        SCC_TIMEOUT_MS: 'soon',
        SLACK_BOT_TOKEN: fake.appToken,
        SLACK_API_URL: 'ftp://x',
        REDIS_URL: 'memcached://x',
        PORT: '99999',
        LOG_LEVEL: 'loud',
      },
      bot,
    );
    const sources = error.issues.map((issue) => issue.source);
    expect(sources).toEqual([
      'SCC_API_TOKEN',
      'SCC_REGION',
      'SCC_BASE_URL',
      'SCC_TIMEOUT_MS',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_API_URL',
      'REDIS_URL',
      'PORT',
      'LOG_LEVEL',
    ]);
    expect(error.issues.every((issue) => issue.example !== undefined)).toBe(true);
    expect(error.message).toMatch(/^The configuration is not valid \(10 problems\):\n {2}- SCC_API_TOKEN: /);
  });

  it('reports environment and file problems together', async () => {
    const files = new ProfilesFiles();
    try {
      const path = await files.write('profiles:\n  acme: { region: mars, token_env: ACME_SCC_TOKEN }\n');
      const error = errorOf({ FWBOT_PROFILES: path, PORT: 'x' }, bot);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.issues.map((issue) => issue.key ?? issue.source)).toEqual([
        'SLACK_BOT_TOKEN',
        'SLACK_SIGNING_SECRET',
        'PORT',
        'profiles.acme.region',
        'profiles.acme.token_env',
      ]);
    } finally {
      await files.cleanup();
    }
  });
});

describe('the Config object', () => {
  const config = loadConfig(completeEnv, bot);

  it('is frozen all the way down', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.slack)).toBe(true);
    expect(Object.isFrozen(config.profiles.get('default'))).toBe(true);
    expect(Object.isFrozen(config.approvals)).toBe(true);
    const profiles = config.profiles as Map<string, unknown>;
    expect(() => profiles.set('x', {})).toThrow(TypeError);
    expect(() => profiles.delete('default')).toThrow(TypeError);
    expect(() => profiles.clear()).toThrow(TypeError);
    expect(config.profiles.size).toBe(1);
  });

  it('says when no policy is configured, and carries the default approval and audit settings', () => {
    expect(config.policy).toBeNull();
    expect(config.approvals).toEqual({
      expiryMinutes: 30,
      allowSelfApproval: false,
      requireForVpnUpgrades: false,
      deployWithChange: false,
      operations: {},
      approvers: [],
    });
    expect(config.audit).toEqual({ retentionDays: 90 });
    expect(config.profilesFile).toBeUndefined();
  });

  it('treats an empty FWBOT_PROFILES as no file', () => {
    expect(loadConfig({ FWBOT_PROFILES: ' ' }).profilesFile).toBeUndefined();
  });

  it('serves every channel with the default profile when there are no bindings', () => {
    expect(config.profileForChannel('C0123ABCD')?.name).toBe('default');
  });
});
