// `app_uninstalled` and `tokens_revoked`: a workspace removed fwbot, or revoked its tokens. In OAuth mode
// what was stored for it goes (its installation, every process's cached client: installations.ts); an
// org-wide install goes as a whole. In single-workspace mode nothing is stored, and the one bot token no
// longer works: said loudly in the log. Either way the audit trail records it. Bolt lets these two events
// through without looking an installation up (there is none left to find), and both are idempotent.
import type { App, Context } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AuditSink } from '../../dispatch/ports.js';
import type { InstallationKey, RedisInstallations } from '../installations.js';

export interface UninstallDeps {
  /** OAuth mode's store; absent in single-workspace mode. */
  installations?: Pick<RedisInstallations, 'remove' | 'forgetUserToken'> | undefined;
  log: Logger;
  audit?: AuditSink | undefined;
}

const TokensRevoked = z.object({
  tokens: z.object({ oauth: z.array(z.string()).optional(), bot: z.array(z.string()).optional() }).optional(),
});

/** The installation an event is about: the organization's for an org-wide install, else the workspace's. */
function installationOf(context: Context): InstallationKey | undefined {
  if (context.isEnterpriseInstall && typeof context.enterpriseId === 'string')
    return { kind: 'enterprise', enterpriseId: context.enterpriseId };
  return typeof context.teamId === 'string' ? { kind: 'team', teamId: context.teamId } : undefined;
}

const named = (key: InstallationKey): string =>
  key.kind === 'team' ? `workspace ${key.teamId}` : `organization ${key.enterpriseId} (org-wide)`;

export function registerUninstall(app: App, deps: UninstallDeps): void {
  const { installations, log, audit } = deps;

  const removed = async (key: InstallationKey, why: string): Promise<void> => {
    if (installations) await installations.remove(key);
    else
      log.warn({ installation: key }, `${why}: the bot token no longer works until fwbot is installed again`);
    await audit
      ?.record({
        actor: 'slack',
        action: 'executed',
        operationId: 'slack:uninstall',
        target: named(key),
        outcome: installations ? `${why}: its installation was deleted` : why,
        approvalId: '',
      })
      .catch((error: unknown) =>
        log.error({ err: error }, 'could not write the audit record of an uninstall'),
      );
  };

  app.event('app_uninstalled', async ({ context }) => {
    const key = installationOf(context);
    if (key === undefined) return log.warn('an app_uninstalled event naming no workspace; ignored');
    await removed(key, 'fwbot was uninstalled');
  });

  app.event('tokens_revoked', async ({ context, event }) => {
    const key = installationOf(context);
    const revoked = TokensRevoked.safeParse(event);
    if (key === undefined || !revoked.success)
      return log.warn('a tokens_revoked event fwbot cannot read; ignored');
    const { bot = [], oauth = [] } = revoked.data.tokens ?? {};
    // The bot token is what fwbot works with: without it the installation is of no use.
    if (bot.length > 0) return removed(key, 'its bot token was revoked');
    if (oauth.length > 0 && installations) await installations.forgetUserToken(key);
  });
}
