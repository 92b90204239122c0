// OAuth mode's Slack clients, made the same way in every process that posts to Slack (the bot and
// `npm run worker`): the installations in the deployment's Redis (encrypted with FWBOT_INSTALL_KEY) give
// each workspace its own clients, and a record without a team is the home workspace's (SLACK_TEAM_ID).
// The installations are opened once the assembly has opened Redis, so the bot hands the same store to
// Bolt's installer; uninstalls heard from any process drop this process's cached clients too.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { connectRedis, type RedisClient } from '../redis/connection.js';
import { RedisInstallations } from '../slack/installations.js';
import { installedWorkspaceClients, type SlackClientsByTeam } from '../slackApi/clientsByTeam.js';
import { slackClientsOf } from './surface.js';

export interface InstalledWorkspaces {
  /** assemble's `slack`: each workspace's clients from its installation, over the assembly's Redis. */
  clients(opened: { redis: RedisClient; prefix: string }): SlackClientsByTeam;
  /** The installations the clients read, once the assembly opened them (the bot's installer uses them). */
  readonly installations: RedisInstallations | undefined;
  /** Stops listening for uninstalls (the removals channel's own connection). */
  close(): Promise<void>;
}

/** OAuth mode's per-workspace clients; undefined in single-workspace mode (one bot token serves all). */
export function installedWorkspaces(config: Config, log: Logger): InstalledWorkspaces | undefined {
  const slack = config.slack;
  if (slack.mode !== 'oauth') return undefined;
  let installations: RedisInstallations | undefined;
  let stopClients: (() => void) | undefined;
  return {
    clients({ redis, prefix }) {
      installations = new RedisInstallations({
        redis,
        prefix,
        key: Buffer.from(slack.installKey.reveal(), 'base64'),
        log,
        // Uninstalls heard from every bot and worker process drop their cached clients too.
        subscriber: () => connectRedis(config.redis),
      });
      const { teamId, enterpriseId } = slack.workspace;
      const clients = installedWorkspaceClients({
        tokens: installations,
        home: { teamId, ...(enterpriseId !== undefined ? { enterpriseId } : {}) },
        make: (token) => slackClientsOf(token, slack.apiUrl),
      });
      stopClients = () => clients.close();
      return clients;
    },
    get installations() {
      return installations;
    },
    async close() {
      stopClients?.();
      await installations?.close();
    },
  };
}
