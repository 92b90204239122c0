// OAuth mode (fwbot installed in many workspaces): the workspace a request is bound to is the one whose
// installation serves it, as that installation's own record says. Bolt's authorize finds the installation
// by what the request names (its workspace, or its organization for an Enterprise Grid org-wide install)
// and fills what the record leaves out from the request itself: an org-wide install's workspace, and the
// organization of a workspace installed outside any. So a request could name a workspace of another
// organization, the home one above all, through an organization's install, and be answered with that
// workspace's policy (issue 34). Here the record decides: a request whose organization is not the
// installation's, or that names a workspace known to be another organization's (the home workspace, or one
// installed on its own), is refused by the workspace binding like its other refusals (nothing run, audited).
import type { Context } from '@slack/bolt';

/** Who an installation is: its workspace (none for an org-wide install), its organization, which kind. */
export interface InstalledIdentity {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  orgWide: boolean;
}

/** Finds an installation's record as Bolt's authorize does (src/slack/installations.ts); undefined: none. */
export type InstallationOf = (query: {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  orgWide: boolean;
}) => Promise<InstalledIdentity | undefined>;

/** The identifiers of a workspace as the binding compares them. */
interface WorkspaceIds {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly appId?: string | undefined;
}

const present = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Slack ids are short upper-case words; anything else is cut before it is said. */
const shown = (value: string | undefined): string => (value === undefined ? 'none' : value.slice(0, 32));

/**
 * The workspace a request is bound to in OAuth mode, and why it is not the installation's, if it is not
 * (`refused`, each reason naming the identifier: the binding audits them). `home` is the configured home
 * workspace, whose app id every installation shares.
 */
export async function installationBinding(
  home: WorkspaceIds,
  context: Context,
  request: { teamId?: string | undefined; enterpriseId?: string | undefined },
  installationOf: InstallationOf | undefined,
): Promise<{ workspace: WorkspaceIds; refused: string[] }> {
  const teamId = present(context.teamId);
  const enterpriseId = present(context.enterpriseId);
  // Bolt names one for every request it authorized; without either, only the home workspace is served.
  if (teamId === undefined && enterpriseId === undefined) return { workspace: home, refused: [] };
  const orgWide = context.isEnterpriseInstall === true;
  const installed = await installationOf?.({ teamId, enterpriseId, orgWide });
  if (!installed) return { workspace: { teamId, enterpriseId, appId: home.appId }, refused: [] };
  // An org-wide install serves any workspace of its organization: the request names which.
  const workspace = {
    teamId: installed.orgWide ? teamId : installed.teamId,
    enterpriseId: installed.enterpriseId,
    appId: home.appId,
  };
  const refused: string[] = [];
  const org = installed.enterpriseId;
  if (present(request.enterpriseId) !== org)
    refused.push(
      `enterprise_id: ${shown(request.enterpriseId)}, not the organization of the installation that serves it (${shown(org)})`,
    );
  if (installed.orgWide && teamId !== undefined) {
    if (teamId === home.teamId && home.enterpriseId !== org)
      refused.push(
        `team_id: the home workspace ${shown(teamId)}, which is not of organization ${shown(org)} whose installation serves it`,
      );
    else if (teamId !== home.teamId) {
      const own = await installationOf?.({ teamId, orgWide: false });
      if (own && own.enterpriseId !== org)
        refused.push(
          `team_id: ${shown(teamId)}, a workspace installed outside organization ${shown(org)} whose installation serves it`,
        );
    }
  }
  return { workspace, refused };
}
