// The rules over several environment variables at once, which no one variable's parser can check: what must
// be set for the parts of fwbot a process runs (Slack, SCC), OAuth mode's settings that go together and those
// it cannot go with, one Redis deployment at a time, and settings that are each valid but clash.
import type { EnvSnapshot, EnvValues } from './environment.js';
import { exampleFor, isSet } from './environment.js';
import type { ConfigIssue } from './issues.js';
import { nodesTransport } from './redisDeployment.js';

/** Which parts of fwbot this process runs; each one it runs must be fully configured. */
export interface Requirements {
  /** The Slack surface (the bot). */
  readonly slack: boolean;
  /** At least one SCC profile (the bot, the CLI). */
  readonly scc: boolean;
}

const SLACK_CREDENTIALS = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET'] as const;

/** Slack is on when the process needs it, or when any Slack credential is set: half a setup is a mistake. */
export function slackEnabled(snapshot: EnvSnapshot, require: Requirements): boolean {
  return require.slack || SLACK_CREDENTIALS.some((name) => isSet(snapshot, name)) || oauthMode(snapshot);
}

const OAUTH_SETTINGS = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'FWBOT_INSTALL_KEY'] as const;

/** OAuth mode (installed in many workspaces): any of its settings is set; the others must be too. */
export function oauthMode(snapshot: EnvSnapshot): boolean {
  return OAUTH_SETTINGS.some((name) => isSet(snapshot, name));
}

/** What OAuth mode needs and what it cannot go with: the home workspace, HTTP mode, no single bot token. */
function oauthIssues(snapshot: EnvSnapshot): ConfigIssue[] {
  const issues: ConfigIssue[] = OAUTH_SETTINGS.filter((name) => !isSet(snapshot, name)).map((name) => ({
    source: name,
    problem: `is not set; OAuth mode needs ${OAUTH_SETTINGS.join(', ')} together`,
    example: exampleFor(name),
  }));
  if (!isSet(snapshot, 'SLACK_TEAM_ID'))
    issues.push({
      source: 'SLACK_TEAM_ID',
      problem:
        "is not set; in OAuth mode it names the home workspace (your own), whose people the profiles file's top-level policy grants roles to",
      example: exampleFor('SLACK_TEAM_ID'),
    });
  if (isSet(snapshot, 'SLACK_APP_TOKEN'))
    issues.push({
      source: 'SLACK_APP_TOKEN',
      problem:
        "is set together with SLACK_CLIENT_ID: Socket Mode serves one workspace (Slack's rule), so installing fwbot in many needs HTTP mode; unset SLACK_APP_TOKEN and set SLACK_SIGNING_SECRET",
      example: exampleFor('SLACK_SIGNING_SECRET'),
    });
  else if (!isSet(snapshot, 'SLACK_SIGNING_SECRET'))
    issues.push({
      source: 'SLACK_SIGNING_SECRET',
      problem:
        'is not set; OAuth mode runs in HTTP mode (installs come back to /slack/oauth_redirect), which needs it',
      example: exampleFor('SLACK_SIGNING_SECRET'),
    });
  if (isSet(snapshot, 'SLACK_BOT_TOKEN'))
    issues.push({
      source: 'SLACK_BOT_TOKEN',
      problem:
        "is set together with SLACK_CLIENT_ID: in OAuth mode each workspace's bot token comes from its install, the home workspace's too; install fwbot there at /slack/install and unset SLACK_BOT_TOKEN",
      example: exampleFor('SLACK_CLIENT_ID'),
    });
  return issues;
}

/** Settings that are each valid but cannot go together: two servers cannot listen on one port. */
export function conflictingSettings(values: EnvValues): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT === values.PORT)
    issues.push({
      source: 'METRICS_PORT',
      problem: `is PORT's port (${values.PORT}); /metrics needs a port of its own, or leave METRICS_PORT unset`,
      example: exampleFor('METRICS_PORT'),
    });
  if (values.REDIS_URL.transport === 'public' && !values.REDIS_ALLOW_PLAINTEXT)
    issues.push({
      source: 'REDIS_URL',
      problem:
        "is redis:// (clear text) to an address that is not loopback or private: fwbot's state and the password " +
        'would cross that network unencrypted; use rediss://, or set REDIS_ALLOW_PLAINTEXT=on if the network is yours',
      example: exampleFor('REDIS_URL'),
    });
  return issues;
}

const SENTINEL_ONLY = ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'] as const;
const NODE_LIST_ONLY = ['REDIS_PASSWORD', 'REDIS_TLS'] as const;

/**
 * One Redis deployment at a time: REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES, and the settings that
 * belong to another form refused rather than silently ignored. Clear text to a public address is refused
 * for a node list as for REDIS_URL.
 */
export function redisDeploymentIssues(snapshot: EnvSnapshot, values: EnvValues): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const sentinels = isSet(snapshot, 'REDIS_SENTINELS');
  const cluster = isSet(snapshot, 'REDIS_CLUSTER_NODES');
  if (sentinels && cluster)
    issues.push({
      source: 'REDIS_CLUSTER_NODES',
      problem: 'is set together with REDIS_SENTINELS; fwbot uses one Redis deployment: keep one of the two',
      example: exampleFor('REDIS_CLUSTER_NODES'),
    });
  const list = sentinels ? 'REDIS_SENTINELS' : cluster ? 'REDIS_CLUSTER_NODES' : undefined;
  if (list !== undefined && isSet(snapshot, 'REDIS_URL'))
    issues.push({
      source: 'REDIS_URL',
      problem: `is set together with ${list}; the nodes come from ${list}: unset REDIS_URL (the password goes in REDIS_PASSWORD, TLS in REDIS_TLS)`,
      example: exampleFor(list),
    });
  if (!sentinels)
    for (const name of SENTINEL_ONLY.filter((n) => isSet(snapshot, n)))
      issues.push({
        source: name,
        problem: 'is set but REDIS_SENTINELS is not; it only applies to Redis behind Sentinel',
        example: exampleFor('REDIS_SENTINELS'),
      });
  if (list === undefined)
    for (const name of NODE_LIST_ONLY.filter((n) => isSet(snapshot, n)))
      issues.push({
        source: name,
        problem:
          'is set but neither REDIS_SENTINELS nor REDIS_CLUSTER_NODES is; with REDIS_URL put the password in the URL and use rediss:// for TLS',
        example: exampleFor('REDIS_URL'),
      });
  const nodes = values.REDIS_SENTINELS ?? values.REDIS_CLUSTER_NODES;
  if (list !== undefined && nodes !== undefined && !values.REDIS_ALLOW_PLAINTEXT) {
    const exposed = nodesTransport(nodes, values.REDIS_TLS ?? false) === 'public';
    if (exposed)
      issues.push({
        source: list,
        problem:
          "names an address that is not loopback or private, without TLS: fwbot's state and the password " +
          'would cross that network unencrypted; set REDIS_TLS=on, or REDIS_ALLOW_PLAINTEXT=on if the network is yours',
        example: exampleFor(list),
      });
  }
  return issues;
}

/** Settings missing for what this process runs (values that are set but wrong are parseEnvironment's). */
export function missingSettings(
  snapshot: EnvSnapshot,
  require: Requirements,
  fileDefinesProfiles: boolean,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (require.scc && !isSet(snapshot, 'SCC_API_TOKEN') && !fileDefinesProfiles) {
    issues.push({
      source: 'SCC_API_TOKEN',
      problem: 'is not set, and no FWBOT_PROFILES file defines a profile; fwbot needs an SCC API token',
      example: exampleFor('SCC_API_TOKEN'),
    });
  }
  if (oauthMode(snapshot)) {
    issues.push(...oauthIssues(snapshot));
  } else if (slackEnabled(snapshot, require)) {
    const why = require.slack ? 'Slack is enabled' : 'another Slack credential is set';
    if (!isSet(snapshot, 'SLACK_BOT_TOKEN')) {
      issues.push({
        source: 'SLACK_BOT_TOKEN',
        problem: `is not set (${why})`,
        example: exampleFor('SLACK_BOT_TOKEN'),
      });
    }
    if (!isSet(snapshot, 'SLACK_APP_TOKEN') && !isSet(snapshot, 'SLACK_SIGNING_SECRET')) {
      issues.push({
        source: 'SLACK_SIGNING_SECRET',
        problem: `is not set, and neither is SLACK_APP_TOKEN (${why}); set SLACK_APP_TOKEN for Socket Mode or this for HTTP mode`,
        example: exampleFor('SLACK_SIGNING_SECRET'),
      });
    }
  }
  return issues;
}
