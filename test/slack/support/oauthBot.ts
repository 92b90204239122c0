// The bot `npm start` assembles, in OAuth mode (installed in many workspaces, HTTP mode): its configuration
// written as an operator writes it (the environment and a profiles file whose one SCC profile, `msp`, is
// the simulator's portal), on the run's Redis under a prefix of its own, Slack's Web API being the fake.
// Installations are kept encrypted under `installKey`, which tests use to store the ones they need.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type RunningBot, startBot } from '../../../src/app/bot.js';
import { loadConfig } from '../../../src/config.js';
import type { SimulatorHandle } from '../../../src/simulator/index.js';
import type { FakeSlack } from '../../support/fakeSlack.js';
import { freePort } from '../../support/redisServer.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';

export const OAUTH_CLIENT_ID = '1111111111.2222222222';
export const OAUTH_CLIENT_SECRET = 'c0ffee0123456789c0ffee0123456789';

export interface OAuthBot {
  bot: RunningBot;
  /** http://127.0.0.1:<port>, where /slack/events, /slack/install and /slack/oauth_redirect are. */
  base: string;
  /** The deployment's Redis key prefix, without its trailing colon. */
  prefix: string;
  /** FWBOT_INSTALL_KEY. */
  installKey: Buffer;
}

export async function startOAuthBot(options: {
  slack: FakeSlack;
  sim: SimulatorHandle;
  /** The home workspace (SLACK_TEAM_ID). */
  home: string;
  signingSecret: string;
  /** The profiles file after its `profiles:` section (channels, policy, workspaces), line by line. */
  profiles: readonly string[];
  log: Logger;
  name: string;
}): Promise<OAuthBot> {
  const port = await freePort();
  const prefix = uniquePrefix(options.name).slice(0, -1);
  const file = join(mkdtempSync(join(tmpdir(), `fwbot-${options.name}-`)), 'profiles.yaml');
  writeFileSync(
    file,
    [
      'profiles:',
      `  msp: { base_url: "${options.sim.url}", token_env: MSP_SCC_TOKEN }`,
      ...options.profiles,
      '',
    ].join('\n'),
  );
  const installKey = randomBytes(32);
  const config = loadConfig(
    {
      SLACK_CLIENT_ID: OAUTH_CLIENT_ID,
      SLACK_CLIENT_SECRET: OAUTH_CLIENT_SECRET,
      FWBOT_INSTALL_KEY: installKey.toString('base64'),
      SLACK_SIGNING_SECRET: options.signingSecret,
      SLACK_TEAM_ID: options.home,
      SLACK_API_URL: options.slack.apiUrl,
      FWBOT_PROFILES: file,
      MSP_SCC_TOKEN: options.sim.tokens.superAdmin,
      REDIS_URL: redisUrl(),
      PORT: String(port),
    },
    { require: { slack: true, scc: true } },
  );
  const bot = await startBot(config, options.log, { redisPrefix: prefix });
  return { bot, base: `http://127.0.0.1:${port}`, prefix, installKey };
}
