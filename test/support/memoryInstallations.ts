// InstallationTokens in memory (the port of src/slackApi/installationTokens.ts): workspaces' bot tokens as a
// test sets them, and removals announced as the Redis store announces them, so per-workspace Slack clients
// can be tested without an OAuth flow. Counts lookups, so a test can see what was cached.
import type {
  InstallationRemoved,
  InstallationTokens,
  WorkspaceRef,
} from '../../src/slackApi/installationTokens.js';

export class MemoryInstallations implements InstallationTokens {
  readonly #teams = new Map<string, string>();
  readonly #orgs = new Map<string, string>();
  readonly #listeners = new Set<InstallationRemoved>();
  /** botToken() calls so far. */
  lookups = 0;

  /** A workspace's install (teamId) or an organization's org-wide install (enterpriseId only). */
  install(team: WorkspaceRef, token: string): void {
    if (team.teamId !== undefined) this.#teams.set(team.teamId, token);
    else if (team.enterpriseId !== undefined) this.#orgs.set(team.enterpriseId, token);
  }

  /** Forgets the install and tells every listener, as app_uninstalled does. */
  remove(team: WorkspaceRef): void {
    if (team.teamId !== undefined) this.#teams.delete(team.teamId);
    else if (team.enterpriseId !== undefined) this.#orgs.delete(team.enterpriseId);
    for (const listener of this.#listeners) listener(team);
  }

  async botToken(team: WorkspaceRef): Promise<string | undefined> {
    this.lookups += 1;
    const own = team.teamId === undefined ? undefined : this.#teams.get(team.teamId);
    return own ?? (team.enterpriseId === undefined ? undefined : this.#orgs.get(team.enterpriseId));
  }

  onRemoved(listener: InstallationRemoved): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
