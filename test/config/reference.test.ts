// The configuration reference: every variable fwbot reads and every key the profiles file accepts is
// documented, the documented defaults and examples are what the parser does with them, and the README
// section generated from it is complete.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keyPattern, ProfilesFileSchema } from '../../src/config/profilesFileSchema.js';
import {
  profilesFileExample,
  renderConfigurationSection,
  renderVariablesTable,
} from '../../src/config/reference.js';
import { configVariables, EnvSchema, loadConfig, profilesFileKeys } from '../../src/config.js';
import { fake, issuesOf } from './support.js';

const documented = configVariables.map((variable) => variable.name);

/** An environment that records every name read from it. */
function recordingEnv(values: Record<string, string>): {
  env: Record<string, string | undefined>;
  read: Set<string>;
} {
  const read = new Set<string>();
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.has(target, name);
    },
    ownKeys() {
      expect.fail('loadConfig listed the whole environment; it should read only the variables it documents');
    },
  });
  return { env, read };
}

describe('the environment variables table', () => {
  it('documents every variable the schema reads, and the schema reads every one it documents', () => {
    expect(Object.keys(EnvSchema.shape)).toEqual(documented);
  });

  it('matches what loadConfig actually reads (besides the variables the profiles file names)', () => {
    const { env, read } = recordingEnv({
      ...fake,
      ACME_SCC_TOKEN: fake.acmeToken,
      LAB_SCC_TOKEN: fake.labToken,
    });
    loadConfig(env, { readFile: () => profilesFileExample });
    expect([...read].sort()).toEqual([...documented].sort());

    const withFile = recordingEnv({
      FWBOT_PROFILES: '/p.yaml',
      ACME_SCC_TOKEN: fake.acmeToken,
      LAB_SCC_TOKEN: fake.labToken,
    });
    loadConfig(withFile.env, { readFile: () => profilesFileExample });
    expect([...withFile.read].filter((name) => !documented.includes(name)).sort()).toEqual([
      'ACME_SCC_TOKEN',
      'LAB_SCC_TOKEN',
    ]);
  });

  it('describes each variable with an example, and marks the secret ones', () => {
    for (const variable of configVariables) {
      expect(variable.description.length, variable.name).toBeGreaterThan(10);
      expect(variable.example.length, variable.name).toBeGreaterThan(0);
      expect(variable.requiredWhen.length, variable.name).toBeGreaterThan(0);
    }
    expect(configVariables.filter((variable) => variable.secret).map((variable) => variable.name)).toEqual([
      'SCC_API_TOKEN',
      'SLACK_BOT_TOKEN',
      'SLACK_APP_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_CLIENT_SECRET',
      'FWBOT_INSTALL_KEY',
      'REDIS_URL',
      'REDIS_SENTINEL_PASSWORD',
      'REDIS_PASSWORD',
    ]);
  });

  it('gives examples that the parser accepts', () => {
    // One Redis deployment at a time: the Sentinel and Cluster examples are checked in redisDeployments.test.ts.
    const alternatives = new Set([
      'REDIS_SENTINELS',
      'REDIS_SENTINEL_MASTER',
      'REDIS_SENTINEL_PASSWORD',
      'REDIS_CLUSTER_NODES',
      'REDIS_PASSWORD',
      'REDIS_TLS',
      // OAuth mode goes with no bot or app token: its examples are checked together below.
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_SECRET',
      'FWBOT_INSTALL_KEY',
    ]);
    const examples = Object.fromEntries(
      configVariables.filter((v) => !alternatives.has(v.name)).map((v) => [v.name, v.example]),
    );
    // The Slack examples would start Socket Mode; the signing secret's example is then unused but still checked.
    const config = loadConfig(
      { ...examples, ACME_SCC_TOKEN: fake.acmeToken, LAB_SCC_TOKEN: fake.labToken },
      { require: { slack: true, scc: true }, readFile: () => profilesFileExample },
    );
    expect(config.profiles.get('default')?.baseUrl).toBe('http://127.0.0.1:4010');
    const example = (name: string) => configVariables.find((v) => v.name === name)?.example ?? '';
    const oauth = Object.fromEntries(
      [
        'SLACK_CLIENT_ID',
        'SLACK_CLIENT_SECRET',
        'FWBOT_INSTALL_KEY',
        'SLACK_SIGNING_SECRET',
        'SLACK_TEAM_ID',
        'SCC_API_TOKEN',
      ].map((name) => [name, example(name)]),
    );
    expect(loadConfig(oauth, { require: { slack: true, scc: true } }).slack.mode).toBe('oauth');
  });

  it('gives the defaults that the parser applies', () => {
    const config = loadConfig({ SCC_API_TOKEN: fake.sccToken });
    const applied: Record<string, string> = {
      SCC_REGION: config.profiles.get('default')?.region ?? '',
      SCC_TIMEOUT_MS: String(config.scc.timeoutMs),
      SLACK_API_URL: config.slack.apiUrl,
      REDIS_URL: config.redis.display,
      REDIS_ALLOW_PLAINTEXT: config.redis.allowPlaintext ? 'on' : 'off',
      REDIS_WAIT_TIMEOUT_MS: String(config.redis.waitTimeoutMs),
      PORT: String(config.http.port),
      BOT_WORKERS: config.botWorkers ? 'on' : 'off',
      STAGED_REMINDER_MINUTES: String(config.stagedReminderMinutes),
      LOG_LEVEL: config.logLevel,
    };
    const defaults = configVariables.filter((variable) => variable.default !== undefined);
    expect(Object.fromEntries(defaults.map((variable) => [variable.name, variable.default]))).toEqual(
      applied,
    );
  });

  it('renders as a Markdown table with one row per variable', () => {
    const rows = renderVariablesTable().split('\n');
    expect(rows[0]).toBe('| Variable | Required | Default | Example | Description |');
    expect(rows.slice(2).map((row) => /^\| `(\w+)` \|/.exec(row)?.[1])).toEqual(documented);
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length, row).toBe(7);
  });

  it('is printed by scripts/print-config-reference.ts', () => {
    const table = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/print-config-reference.ts'], {
      encoding: 'utf8',
    });
    expect(table).toBe(`${renderVariablesTable()}\n`);
    const section = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/print-config-reference.ts', '--section'],
      {
        encoding: 'utf8',
      },
    );
    expect(section).toBe(`${renderConfigurationSection()}\n`);
  });
});

/** Every leaf key the schema accepts, as a documentation pattern (profiles.<name>.region). */
function schemaKeys(schema: z.ZodType, path: string[] = []): string[] {
  // A workspace's policy has the top-level policy's keys, documented there once.
  if (keyPattern(path) === 'workspaces.<team>.policy') return [keyPattern(path)];
  if (schema instanceof z.ZodOptional) return schemaKeys(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodPipe) return schemaKeys(schema.out as z.ZodType, path);
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape).flatMap(([key, value]) =>
      schemaKeys(value as z.ZodType, [...path, key]),
    );
  }
  if (schema instanceof z.ZodRecord) return schemaKeys(schema.valueType as z.ZodType, [...path, 'any']);
  return [keyPattern(path)];
}

describe('the profiles file reference', () => {
  it('documents exactly the keys the schema accepts', () => {
    expect(profilesFileKeys.map((row) => row.key).sort()).toEqual(schemaKeys(ProfilesFileSchema).sort());
  });

  it('gives defaults that the parser applies', () => {
    const config = loadConfig({});
    const row = (key: string) => profilesFileKeys.find((candidate) => candidate.key === key)?.default;
    expect(row('approvals.expiry_minutes')).toBe(String(config.approvals.expiryMinutes));
    expect(row('approvals.allow_self_approval')).toBe(String(config.approvals.allowSelfApproval));
    expect(row('approvals.require_for_vpn_upgrades')).toBe(String(config.approvals.requireForVpnUpgrades));
    expect(row('audit.retention_days')).toBe(String(config.audit.retentionDays));
  });

  it('uses examples that are valid YAML lines the parser accepts in their place', () => {
    const yaml = [
      'profiles:',
      '  acme:',
      '    region: eu',
      '    token_env: ACME_SCC_TOKEN',
      'channels:',
      `  ${profilesFileKeys.find((row) => row.key === 'channels.<channel>')?.example}`,
      'approvals:',
      ...profilesFileKeys.filter((row) => row.key.startsWith('approvals.')).map((row) => `  ${row.example}`),
      'audit:',
      ...profilesFileKeys.filter((row) => row.key.startsWith('audit.')).map((row) => `  ${row.example}`),
      'policy:',
      '  workspace:',
      ...profilesFileKeys
        .filter((row) => row.key.startsWith('policy.workspace.'))
        .map((row) => `    ${row.example}`),
      '  channels:',
      '    C0123ABCD:',
      ...profilesFileKeys
        .filter((row) => row.key.startsWith('policy.channels.') && !row.key.includes('.external.'))
        .map((row) => `      ${row.example}`),
      '      external:',
      ...profilesFileKeys
        .filter((row) => row.key.startsWith('policy.channels.<channel>.external.'))
        .map((row) => `        ${row.example}`),
    ].join('\n');
    expect(() =>
      loadConfig({ FWBOT_PROFILES: '/p.yaml', ACME_SCC_TOKEN: fake.acmeToken }, { readFile: () => yaml }),
    ).not.toThrow();
  });

  it('shows the example file in the README section, and that example loads', () => {
    expect(renderConfigurationSection()).toContain(profilesFileExample.trimEnd());
    expect(
      issuesOf({ FWBOT_PROFILES: '/p.yaml' }, { readFile: () => profilesFileExample }).map((i) => i.key),
    ).toEqual(['profiles.acme.token_env', 'profiles.lab.token_env']);
  });
});
