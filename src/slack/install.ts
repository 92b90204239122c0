// Installing fwbot in many workspaces (OAuth mode, HTTP only): Bolt's own installer (@slack/oauth) behind
// GET /slack/install (straight to Slack's consent page, with a one-time state: installStates.ts) and GET
// /slack/oauth_redirect (the state checked, the code exchanged with oauth.v2.access, the installation stored
// encrypted: installations.ts). Every install is audited, and so is every refused callback (a state fwbot
// did not issue, expired or used already; no code), at most once a minute per reason and address so a
// flood of forged callbacks cannot flood the trail. The pages say what happened in one sentence and never
// show a token, a state or a code.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HTTPReceiverOptions, Installation, StateStore } from '@slack/bolt';
import type { Logger } from 'pino';
import type { AuditSink } from '../dispatch/ports.js';
import type { RedisInstallations } from './installations.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

/**
 * The bot scopes an install asks for: exactly manifest.yml's `oauth_config.scopes.bot` (the manifest test
 * holds the two equal, and both to what the code calls).
 */
export const BOT_SCOPES = [
  'channels:history',
  'channels:read',
  'chat:write',
  'commands',
  'files:write',
  'groups:history',
  'groups:read',
  'im:history',
  'im:write',
  'mpim:history',
  'usergroups:read',
] as const;

export interface SlackOAuthSettings {
  /** SLACK_CLIENT_ID. */
  clientId: string;
  /** SLACK_CLIENT_SECRET. */
  clientSecret: string;
  /** Where installations are kept, encrypted (installations.ts). */
  installations: RedisInstallations;
  /** The one-time states of the install flow (installStates.ts). */
  states: StateStore;
  /** Slack's consent page (default Slack's own; tests point it elsewhere). */
  authorizationUrl?: string | undefined;
}

export interface InstallerContext {
  log: Logger;
  audit?: AuditSink | undefined;
  /** Where Bolt's installer calls oauth.v2.access and auth.test (SLACK_API_URL). */
  slackApiUrl?: string | undefined;
  /** For the audit throttle. */
  now?: () => number;
}

type OAuthReceiverOptions = Pick<
  HTTPReceiverOptions,
  'clientId' | 'clientSecret' | 'installationStore' | 'scopes' | 'installerOptions'
>;

/** @slack/oauth's codes, as its failure callback hands them (CodedError.code). */
const REFUSALS: Record<string, string> = {
  slack_oauth_invalid_state:
    'the state is not one fwbot issued, has expired or was used already (a replayed or forged install callback)',
  slack_oauth_missing_state: 'the callback carries no state',
  slack_oauth_missing_code: 'the callback carries no code',
};
const CANCELLED = 'slack_oauth_installer_authorization_error';

const AUDIT_INTERVAL_MS = 60_000;
const AUDIT_KEYS_KEPT = 1_000;

/** The HTTPReceiver options that turn Bolt's installer on, with fwbot's stores, pages and audit. */
export function installerOptionsOf(
  oauth: SlackOAuthSettings,
  context: InstallerContext,
): OAuthReceiverOptions {
  const { log, audit } = context;
  const now = context.now ?? Date.now;
  const audited = new Map<string, number>();

  const record = async (entry: Parameters<AuditSink['record']>[0]): Promise<void> => {
    if (!audit) return;
    try {
      await audit.record(entry);
    } catch (error) {
      log.error({ err: error }, 'could not write the audit record of a Slack install');
    }
  };

  const refused = async (code: string, request: IncomingMessage): Promise<void> => {
    const address = request.socket.remoteAddress ?? 'unknown';
    const key = `${code}|${address}`;
    const at = now();
    const last = audited.get(key);
    if (last !== undefined && at - last < AUDIT_INTERVAL_MS) return;
    if (audited.size >= AUDIT_KEYS_KEPT) audited.clear();
    audited.set(key, at);
    await record({
      actor: 'unknown',
      action: 'refused',
      operationId: 'slack:install',
      target: `install callback from ${address.slice(0, 64)}`,
      outcome: `refused: ${REFUSALS[code] ?? `the install could not be completed (${code.slice(0, 64)})`}`,
      approvalId: '',
    });
  };

  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    installationStore: oauth.installations,
    scopes: [...BOT_SCOPES],
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_PATH,
      // /slack/install goes straight to Slack's consent page: there is nothing to click on fwbot's side.
      directInstall: true,
      stateStore: oauth.states,
      ...(oauth.authorizationUrl ? { authorizationUrl: oauth.authorizationUrl } : {}),
      ...(context.slackApiUrl ? { clientOptions: { slackApiUrl: context.slackApiUrl } } : {}),
      callbackOptions: {
        successAsync: async (installation, _options, _request, response) => {
          const where = installed(installation);
          log.info({ workspace: where }, 'fwbot was installed in a Slack workspace');
          await record({
            actor: installation.user.id,
            action: 'executed',
            operationId: 'slack:install',
            target: where,
            outcome: 'installed: its bot token is stored, encrypted',
            approvalId: '',
          });
          page(
            response,
            200,
            'fwbot is installed',
            `fwbot is installed in ${where}. Type /fw help in a channel you invite it to. What it may do there ` +
              'is set by the fwbot operators (workspaces in the profiles file).',
          );
        },
        failureAsync: async (error, _options, request, response) => {
          if (error.code === CANCELLED) {
            log.info('a Slack install was cancelled on Slack’s consent page');
            page(response, 200, 'fwbot was not installed', 'The install was cancelled; nothing was stored.');
            return;
          }
          log.warn({ code: error.code }, 'refused a Slack install callback; nothing stored');
          await refused(error.code, request);
          const known = error.code in REFUSALS;
          page(
            response,
            known ? 400 : 500,
            'fwbot was not installed',
            known
              ? 'This install link is not valid (expired, used already, or not from this browser). Start again from /slack/install.'
              : 'The install could not be completed; nothing was stored. Start again from /slack/install, or ask the fwbot operators.',
          );
        },
      },
    },
  };
}

/** How an installation is named in logs, the audit trail and the page: ids only, never a token. */
function installed(installation: Installation): string {
  if (installation.isEnterpriseInstall === true)
    return `organization ${installation.enterprise?.id ?? 'unknown'} (org-wide)`;
  return `workspace ${installation.team?.id ?? 'unknown'}`;
}

function page(response: ServerResponse, status: number, title: string, sentence: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(sentence)}</p></body></html>`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
