// OAuth mode (fwbot installed in many workspaces, issue 29): SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and
// FWBOT_INSTALL_KEY together, in HTTP mode, with the home workspace named; each missing part, Socket Mode,
// a single bot token beside it and a key that is not 32 bytes are refused in one sentence naming the
// variable, and no sentence quotes a secret.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { fake, issueAbout, issuesOf } from './support.js';

const bot = { require: { slack: true, scc: true } };
const KEY = Buffer.alloc(32, 7).toString('base64');
const CLIENT_SECRET = '5ec4e7c11e47a7d1f0e2d3c4b5a69788';

const oauthEnv = {
  SCC_API_TOKEN: fake.sccToken,
  SLACK_CLIENT_ID: '1111111111.2222222222',
  SLACK_CLIENT_SECRET: CLIENT_SECRET,
  FWBOT_INSTALL_KEY: KEY,
  SLACK_SIGNING_SECRET: fake.signingSecret,
  SLACK_TEAM_ID: 'T0MSPHOME1',
};

describe('OAuth mode', () => {
  it('is the Slack mode when its settings are complete, with the home workspace and no bot token', () => {
    const { slack } = loadConfig(oauthEnv, bot);
    expect(slack.mode).toBe('oauth');
    if (slack.mode !== 'oauth') return;
    expect(slack.clientId).toBe('1111111111.2222222222');
    expect(slack.workspace.teamId).toBe('T0MSPHOME1');
    expect(Buffer.from(slack.installKey.reveal(), 'base64')).toHaveLength(32);
    // Secrets print as [redacted] wherever the configuration is shown.
    expect(JSON.stringify(slack)).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(slack)).not.toContain(KEY);
  });

  it('needs all three settings, the signing secret and the home workspace', () => {
    const {
      SLACK_CLIENT_SECRET: _s,
      FWBOT_INSTALL_KEY: _k,
      SLACK_SIGNING_SECRET: _g,
      SLACK_TEAM_ID: _t,
      ...partial
    } = oauthEnv;
    const issues = issuesOf(partial, bot);
    expect(issues.map((issue) => issue.source).sort()).toEqual(
      ['FWBOT_INSTALL_KEY', 'SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET', 'SLACK_TEAM_ID'].sort(),
    );
    expect(issueAbout(issues, 'SLACK_TEAM_ID').problem).toMatch(/home workspace/);
  });

  it('refuses Socket Mode beside it: Socket Mode serves one workspace', () => {
    const issue = issueAbout(
      issuesOf({ ...oauthEnv, SLACK_APP_TOKEN: fake.appToken }, bot),
      'SLACK_APP_TOKEN',
    );
    expect(issue.problem).toMatch(/Socket Mode serves one workspace/);
    expect(issue.problem).not.toContain(fake.appToken);
  });

  it('refuses a single bot token beside it: every workspace’s token comes from its install', () => {
    const issue = issueAbout(
      issuesOf({ ...oauthEnv, SLACK_BOT_TOKEN: fake.botToken }, bot),
      'SLACK_BOT_TOKEN',
    );
    expect(issue.problem).toMatch(/\/slack\/install/);
    expect(issue.problem).not.toContain(fake.botToken);
  });

  it.each([
    ['not base64', 'not base64 at all!'],
    ['16 bytes', Buffer.alloc(16, 1).toString('base64')],
    ['33 bytes', Buffer.alloc(33, 1).toString('base64')],
  ])('refuses an install key that is %s, without quoting it', (_what, value) => {
    const issue = issueAbout(issuesOf({ ...oauthEnv, FWBOT_INSTALL_KEY: value }, bot), 'FWBOT_INSTALL_KEY');
    expect(issue.problem).toMatch(/base64|32 bytes/);
    expect(issue.problem).not.toContain(value);
  });
});
