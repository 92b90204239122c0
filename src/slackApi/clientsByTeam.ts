// Which Slack Web API client a call goes out with, as a function of the workspace it is for. In
// single-workspace mode (SLACK_BOT_TOKEN) every workspace gets the configured bot's clients, as before. In
// OAuth mode each workspace that installed fwbot has its own bot token (InstallationTokens): its clients
// are made on first use, kept, and dropped when the installation is removed or Slack says the token is
// no longer good. Records made before workspaces were told apart carry no team: they are the home
// workspace's. The clients returned are resolved at each call, so code that holds one (a notifier, a
// publisher) needs no await to get it and a lookup failure surfaces where Slack failures already do.
import type { WorkspaceRef } from '../model/workspace.js';
import { classifySlackError, SlackRefused } from './errors.js';
import type { InstallationTokens } from './installationTokens.js';
import type { WebApiClient } from './slackApi.js';

/** The uses fwbot has a Slack client for; each has its own behaviour on a 429 (./clients.ts). */
export interface SlackClients<C extends WebApiClient = WebApiClient> {
  /** Answers people and posts approval cards (the Web API client's own retries). */
  answers: C;
  /** The workers' notifications: a 429 comes back at once, the queue waits (createWorkerSlackClient). */
  workers: C;
  /** The Homes' publishes, paced by the Home itself (a 429 comes back at once too). */
  home: C;
}

export type SlackClientUse = keyof SlackClients;

/** The port: the client of one use for one workspace (absent team: the home workspace). */
export interface SlackClientsByTeam {
  forTeam(team: WorkspaceRef | undefined, use: SlackClientUse): WebApiClient;
}

/** Single-workspace mode: one bot token serves every call, whatever workspace it names. */
export function singleWorkspaceClients(clients: SlackClients): SlackClientsByTeam {
  return { forTeam: (_team, use) => clients[use] };
}

/** fwbot has no installation for the workspace a call is for: never installed, or uninstalled since. */
export class WorkspaceNotInstalled extends SlackRefused {
  constructor(
    readonly team: WorkspaceRef,
    method: string,
  ) {
    // account_inactive is Slack's own answer for a token of an uninstalled app: the same refusal.
    super('account_inactive', method);
    this.message = `fwbot is not installed in workspace ${describe(team)} (${method})`;
  }
}

function describe(team: WorkspaceRef): string {
  return [team.teamId, team.enterpriseId].filter((part) => part !== undefined).join(' / ') || '(none)';
}

export interface InstalledWorkspaceOptions {
  tokens: InstallationTokens;
  /** The home workspace (SLACK_TEAM_ID): what a record without a team is for. */
  home: WorkspaceRef;
  /** Makes a workspace's clients from its bot token (clients.ts: answers, workers, home). */
  make: (token: string) => SlackClients;
}

/**
 * OAuth mode: each workspace's clients from its own installation's bot token, made once and kept until
 * the installation is removed (in any process: InstallationTokens.onRemoved) or Slack refuses the token.
 */
export function installedWorkspaceClients(
  options: InstalledWorkspaceOptions,
): SlackClientsByTeam & { close(): void } {
  const made = new Map<string, Promise<SlackClients>>();
  const keyOf = (team: WorkspaceRef) => `${team.enterpriseId ?? ''}/${team.teamId ?? ''}`;
  const stop = options.tokens.onRemoved((removed) => {
    for (const key of [...made.keys()]) {
      const [enterpriseId, teamId] = key.split('/');
      // A workspace's uninstall drops its clients; an org-wide uninstall (no team) drops the whole org's.
      const gone =
        removed.teamId !== undefined
          ? teamId === removed.teamId
          : removed.enterpriseId !== undefined && enterpriseId === removed.enterpriseId;
      if (gone) made.delete(key);
    }
  });

  function clientsOf(team: WorkspaceRef, method: string): Promise<SlackClients> {
    const key = keyOf(team);
    let clients = made.get(key);
    if (!clients) {
      clients = options.tokens.botToken(team).then((token) => {
        if (token === undefined) throw new WorkspaceNotInstalled(team, method);
        return options.make(token);
      });
      made.set(key, clients);
      // A failed lookup is not kept: the workspace may install fwbot a moment later.
      clients.catch(() => {
        if (made.get(key) === clients) made.delete(key);
      });
    }
    return clients;
  }

  return {
    forTeam(team, use) {
      const which = team?.teamId !== undefined || team?.enterpriseId !== undefined ? team : options.home;
      return {
        async apiCall(method, args) {
          const client = (await clientsOf(which, method))[use];
          try {
            return await client.apiCall(method, args);
          } catch (error) {
            // A revoked or expired token: look the installation up again next time.
            if (classifySlackError(error).refusal === 'credentials') made.delete(keyOf(which));
            throw error;
          }
        },
      };
    },
    close: stop,
  };
}
