// The bot tokens of the workspaces that installed fwbot (OAuth mode), as the code that makes Slack clients
// sees them: a token per workspace, and word when an installation is removed so a cached client can go.
// A port, so the clients can be made anywhere below the Slack surface; the store behind it (Redis,
// tokens encrypted at rest) is src/slack/installations.ts.

/**
 * A workspace as a Slack request names it: its team id, and its Enterprise Grid organization when it has
 * one. An org-wide install is found by the organization alone.
 */
export interface WorkspaceRef {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/** What was removed: a workspace's install (teamId), or an organization's org-wide install (enterpriseId only). */
export type InstallationRemoved = (removed: WorkspaceRef) => void;

export interface InstallationTokens {
  /**
   * The bot token to call Slack with for requests from this workspace: the workspace's own install, else
   * its organization's org-wide install; undefined when neither is stored (not installed, or uninstalled).
   */
  botToken(team: WorkspaceRef): Promise<string | undefined>;
  /**
   * Calls the listener each time an installation is removed (app_uninstalled, tokens_revoked), in any
   * fwbot process of the deployment. Returns what stops the calls.
   */
  onRemoved(listener: InstallationRemoved): () => void;
}
