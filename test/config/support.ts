// Helpers for the configuration tests: realistic fake credentials, profiles files in a temp folder,
// and a way to get at the issues of a ConfigError.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  ConfigError,
  type ConfigIssue,
  type Environment,
  type LoadConfigOptions,
  loadConfig,
} from '../../src/config.js';

/** Fake credentials shaped like real ones, each with a distinctive body so a leaked fragment is findable. */
export const fake = {
  sccToken:
    'eyJ0eXAiOiJKV1QiLCJraWQiOiJ0ZXN0In0.eyJzdWIiOiJTRUNSRVRfU0NDX1BBWUxPQUQifQ.U0VDUkVUX1NJR05BVFVSRQ',
  acmeToken:
    'eyJ0eXAiOiJKV1QiLCJraWQiOiJhY21lIn0.eyJzdWIiOiJBQ01FX1NFQ1JFVF9QQVlMT0FEIn0.QUNNRV9TSUdOQVRVUkU',
  labToken: 'lab-simulator-token-7Hq2Zp9XwR4m',
  botToken: 'xoxb-1234567890-9876543210123-QzXwVuTsRqPoNmLkJiHgFeDc',
  appToken: 'xapp-1-A7QX9KD2M-4444444444444-f00dfacecafebabe9876543210fedcba',
  signingSecret: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  redisPassword: 'Redis-Pa55word-Hidden',
} as const;

/** Everything the bot needs, in Socket Mode. */
export const completeEnv: Environment = {
  SCC_API_TOKEN: fake.sccToken,
  SLACK_BOT_TOKEN: fake.botToken,
  SLACK_APP_TOKEN: fake.appToken,
};

/** The issues loadConfig reports, failing the test if it does not throw a ConfigError. */
export function issuesOf(env: Environment, options: LoadConfigOptions = {}): readonly ConfigIssue[] {
  return errorOf(env, options).issues;
}

export function errorOf(env: Environment, options: LoadConfigOptions = {}): ConfigError {
  try {
    loadConfig(env, options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  expect.fail('loadConfig accepted a configuration it should have refused');
}

/** The one issue about `source` (a variable name or a file path), failing if there is not exactly one. */
export function issueAbout(issues: readonly ConfigIssue[], source: string, key?: string): ConfigIssue {
  const matching = issues.filter(
    (issue) => issue.source === source && (key === undefined || issue.key === key),
  );
  expect(
    matching,
    `issues about ${source}${key ? ` ${key}` : ''} in ${JSON.stringify(issues, null, 2)}`,
  ).toHaveLength(1);
  const [issue] = matching;
  if (issue === undefined) expect.fail('unreachable: length checked above');
  return issue;
}

/** Asserts that no 8-character piece of any secret appears in the text. */
export function expectNoSecretIn(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (let start = 0; start + 8 <= secret.length; start++) {
      const piece = secret.slice(start, start + 8);
      if (text.includes(piece)) expect.fail(`output contains "${piece}", a piece of a secret:\n${text}`);
    }
  }
}

/** A temp folder for profiles files, removed by cleanup(). */
export class ProfilesFiles {
  private dir: string | undefined;
  private count = 0;

  async write(yaml: string, name?: string): Promise<string> {
    this.dir ??= await mkdtemp(join(tmpdir(), 'fwbot-config-test-'));
    this.count += 1;
    const path = join(this.dir, name ?? `profiles-${this.count}.yaml`);
    await writeFile(path, yaml, 'utf8');
    return path;
  }

  async cleanup(): Promise<void> {
    if (this.dir !== undefined) await rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
