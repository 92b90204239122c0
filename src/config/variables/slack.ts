// The variables of Slack: the app's credentials (Socket Mode or HTTP mode), the Web API's address, the
// workspace, organization and app fwbot serves, and OAuth mode's client id, client secret and the key the
// installations are encrypted with. Which of them go together is environmentRules.ts.
import { checkSigningSecret, checkSlackAppToken, checkSlackBotToken } from '../credentials.js';
import { checkSlackApiUrl } from '../endpoints.js';
import { accept, type Checked, refuse } from '../issues.js';
import { SLACK_APP_ID, SLACK_ENTERPRISE_ID, SLACK_TEAM_ID } from '../slackIds.js';
import { defaultedVariable, optionalVariable, secret, slackId } from './declare.js';

/** A Slack client secret: 32 hexadecimal characters in every app seen; only white space is refused outright. */
function checkClientSecret(raw: string): Checked<string> {
  if (/\s/.test(raw)) return refuse('contains white space; a secret is one unbroken string');
  return raw.length >= 16
    ? accept(raw)
    : refuse('is too short for a Slack client secret (Basic Information → App Credentials)');
}

/** FWBOT_INSTALL_KEY: base64 of exactly 32 bytes (AES-256). The message never quotes the value. */
export function checkInstallKey(raw: string): Checked<string> {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || raw.length % 4 !== 0)
    return refuse('must be base64 (e.g. the output of `openssl rand -base64 32`)');
  const bytes = Buffer.from(raw, 'base64').length;
  return bytes === 32
    ? accept(raw)
    : refuse(`must be 32 bytes once decoded (it is ${bytes}); make one with \`openssl rand -base64 32\``);
}

export const slackVariables = {
  SLACK_BOT_TOKEN: optionalVariable(
    {
      requiredWhen:
        'Slack is enabled: in the bot, or whenever any SLACK_*_TOKEN or SLACK_SIGNING_SECRET is set',
      example: 'xoxb-…',
      description: 'Bot User OAuth Token (OAuth & Permissions).',
      secret: true,
    },
    secret(checkSlackBotToken),
  ),
  SLACK_APP_TOKEN: optionalVariable(
    {
      requiredWhen: 'Slack is enabled and SLACK_SIGNING_SECRET is not set',
      example: 'xapp-…',
      description:
        'App-level token with `connections:write` (Basic Information). When set, fwbot uses Socket Mode.',
      secret: true,
    },
    secret(checkSlackAppToken),
  ),
  SLACK_SIGNING_SECRET: optionalVariable(
    {
      requiredWhen: 'Slack is enabled and SLACK_APP_TOKEN is not set (HTTP mode)',
      example: '8f742231b10e8888abcd99yyyzzz85a5',
      description: 'Signing Secret (Basic Information → App Credentials); verifies requests in HTTP mode.',
      secret: true,
    },
    secret(checkSigningSecret),
  ),
  SLACK_API_URL: defaultedVariable(
    {
      requiredWhen: 'never',
      example: 'http://127.0.0.1:5005/api/',
      description:
        'Base URL of the Slack Web API, for tests against a fake Slack. Normalised to end in `/`; a bare host ' +
        'means its `/api/`. Same https/loopback rule as SCC_BASE_URL.',
      secret: false,
    },
    'https://slack.com/api/',
    checkSlackApiUrl,
  ),
  SLACK_TEAM_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'T0123ABCDEF',
      description:
        'The Slack workspace fwbot serves: requests from any other team_id are refused and audited. Unset: the ' +
        "bot token's own workspace (auth.test at start-up).",
      secret: false,
    },
    slackId(SLACK_TEAM_ID, 'a Slack workspace id: T and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_ENTERPRISE_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'E0123ABCDEF',
      description:
        'The Enterprise Grid organization fwbot serves: requests from any other enterprise_id are refused and ' +
        'audited. Set alone (without SLACK_TEAM_ID) for an org-wide install: then every workspace of the ' +
        "organization is served. Unset: the bot token's own organization when it has one (auth.test).",
      secret: false,
    },
    slackId(SLACK_ENTERPRISE_ID, 'a Slack organization id: E and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_APP_ID: optionalVariable(
    {
      requiredWhen: 'never',
      example: 'A0123ABCDEF',
      description:
        'The Slack app fwbot is (Basic Information → App ID): requests with any other api_app_id are refused ' +
        'and audited. Unset, the app id is checked only if auth.test reports it, which its documented answer ' +
        'for a bot token does not (bots.info would, but needs the users:read scope fwbot does not ask for).',
      secret: false,
    },
    slackId(SLACK_APP_ID, 'a Slack app id: A and 8 to 20 upper-case letters or digits'),
  ),
  SLACK_CLIENT_ID: optionalVariable(
    {
      requiredWhen:
        'fwbot is installed in several workspaces (OAuth mode): with SLACK_CLIENT_SECRET and FWBOT_INSTALL_KEY',
      example: '1234567890.1234567890123',
      description:
        'Client ID (Basic Information → App Credentials). Setting it turns on OAuth mode: each workspace installs ' +
        'fwbot at /slack/install and its calls use its own bot token. HTTP mode only; SLACK_TEAM_ID (the home ' +
        'workspace) is required, and SLACK_BOT_TOKEN and SLACK_APP_TOKEN must be unset.',
      secret: false,
    },
    slackId(/^\d{4,20}\.\d{4,20}$/, 'a Slack client id: two groups of digits joined by a dot'),
  ),
  SLACK_CLIENT_SECRET: optionalVariable(
    {
      requiredWhen: 'SLACK_CLIENT_ID is set (OAuth mode)',
      example: '3c1f0b3a9d2e4f5a6b7c8d9e0f1a2b3c',
      description:
        'Client Secret (Basic Information → App Credentials): exchanges an install for its bot token.',
      secret: true,
    },
    secret(checkClientSecret),
  ),
  FWBOT_INSTALL_KEY: optionalVariable(
    {
      requiredWhen: 'SLACK_CLIENT_ID is set (OAuth mode)',
      example: 'q3Zy0r1m3n9YkS7wV5pQ2cL8xT4uH6dJ0aB1eF2gI3k=',
      description:
        'The key the installations are encrypted with in Redis (AES-256-GCM): 32 random bytes, base64-encoded ' +
        '(`openssl rand -base64 32`). Every fwbot process of the deployment needs the same key; without it the ' +
        'stored installations cannot be read, and each workspace must install fwbot again.',
      secret: true,
    },
    secret(checkInstallKey),
  ),
};
