// fwbot serves the Slack workspace it was installed in and nothing else (issue 12, item 4). The bound
// identity is the configured SLACK_TEAM_ID / SLACK_ENTERPRISE_ID / SLACK_APP_ID, and by default the bot
// token's own, learned once at start-up from auth.test (its workspace, and its organization on
// Enterprise Grid; an org-wide install sets SLACK_ENTERPRISE_ID instead). A Bolt global middleware, in
// front of every listener, refuses any request (command, button, form, select lookup) whose team_id /
// enterprise_id / api_app_id is not the bound one, or is missing where one is bound: acknowledged with
// nothing run, one warning logged and an audit record written (at most one a minute per origin and
// person, so a flood of them cannot flood the trail).
//
// The app id: auth.test does not report it for bot tokens (Slack's documented answer has no app_id),
// and bots.info, which does, needs the users:read scope fwbot does not otherwise ask for. So api_app_id
// is checked when SLACK_APP_ID is set, or when auth.test happens to report an app_id.
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AuditSink } from '../dispatch/ports.js';
import { kindOf } from './responseUrl.js';

/** The workspace fwbot serves; an identifier left undefined is not checked. */
export interface BoundWorkspace {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly appId?: string | undefined;
}

/** Where a refused request is recorded: the deployment's audit trail (src/dispatch/ports.ts). */
export type RefusalAudit = AuditSink;

/** Who the bot token is, as auth.test says (SlackApi.authTest). */
export interface TokenIdentity {
  teamId: string;
  enterpriseId?: string | undefined;
  appId?: string | undefined;
}

/** Empty strings (a form-encoded `enterprise_id=`) are no identifier at all. */
const present = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/**
 * The workspace to serve: what is configured, and what the token says for the rest. A configured team or
 * enterprise is the whole binding of those two (SLACK_ENTERPRISE_ID alone: any workspace of that
 * organization, as an org-wide install serves); otherwise auth.test gives them.
 */
export async function learnWorkspace(
  whoAmI: () => Promise<TokenIdentity>,
  configured: BoundWorkspace,
): Promise<BoundWorkspace> {
  const teamId = present(configured.teamId);
  const enterpriseId = present(configured.enterpriseId);
  const appId = present(configured.appId);
  if (teamId !== undefined || enterpriseId !== undefined) return { teamId, enterpriseId, appId };
  const own = await whoAmI();
  if (present(own.teamId) === undefined) {
    throw new Error(
      'auth.test did not say which Slack workspace the bot token belongs to; set SLACK_TEAM_ID (or SLACK_ENTERPRISE_ID)',
    );
  }
  return { teamId: own.teamId, enterpriseId: present(own.enterpriseId), appId: appId ?? present(own.appId) };
}

/** The identifiers a request carries: top-level for slash commands, nested in interaction payloads. */
const RequestOrigin = z.object({
  team_id: z.string().optional(),
  enterprise_id: z.string().optional(),
  team: z.object({ id: z.string().optional(), enterprise_id: z.string().optional() }).nullish(),
  enterprise: z.object({ id: z.string().optional() }).nullish(),
  api_app_id: z.string().optional(),
  user_id: z.string().optional(),
  user: z.object({ id: z.string().optional() }).nullish(),
});

interface Origin extends BoundWorkspace {
  userId: string | undefined;
}

function originOf(body: unknown): Origin {
  const parsed = RequestOrigin.safeParse(body);
  if (!parsed.success) return { userId: undefined };
  const { data } = parsed;
  return {
    teamId: present(data.team_id ?? data.team?.id ?? undefined),
    enterpriseId: present(data.enterprise_id ?? data.enterprise?.id ?? data.team?.enterprise_id ?? undefined),
    appId: present(data.api_app_id),
    userId: present(data.user_id ?? data.user?.id ?? undefined),
  };
}

/** OAuth mode: the workspace Bolt authorized the request for (its installation), with the configured app id. */
function installedWorkspace(home: BoundWorkspace, context: Context): BoundWorkspace {
  const teamId = typeof context.teamId === 'string' ? present(context.teamId) : undefined;
  const enterpriseId = typeof context.enterpriseId === 'string' ? present(context.enterpriseId) : undefined;
  // Bolt names one for every request it authorized; without either, only the home workspace is served.
  if (teamId === undefined && enterpriseId === undefined) return home;
  return { teamId, enterpriseId, appId: home.appId };
}

/** The identifiers that are bound and differ (or are missing) in the request. */
function mismatches(bound: BoundWorkspace, origin: Origin): string[] {
  const wrong: string[] = [];
  if (bound.teamId !== undefined && origin.teamId !== bound.teamId) wrong.push('team_id');
  if (bound.enterpriseId !== undefined && origin.enterpriseId !== bound.enterpriseId)
    wrong.push('enterprise_id');
  if (bound.appId !== undefined && origin.appId !== bound.appId) wrong.push('api_app_id');
  return wrong;
}

/** Slack ids are short upper-case words; anything else in a refused request is cut before it is kept. */
const shown = (value: string | undefined): string => (value === undefined ? 'none' : value.slice(0, 32));

export interface WorkspaceBindingOptions {
  /** auth.test of the bot token, asked only when neither team nor enterprise is configured. */
  whoAmI: () => Promise<TokenIdentity>;
  configured: BoundWorkspace;
  /**
   * OAuth mode (installed in many workspaces): Bolt's authorize has already found the installation of the
   * workspace each request was delivered for (context.teamId / enterpriseId), so that workspace is the one
   * the request is bound to (its configuration applies; external people are told apart from it). The
   * configured workspace stays the home one, and the app id is checked as configured.
   */
  perInstallation?: boolean;
  log: Logger;
  audit?: RefusalAudit | undefined;
  /** For the audit throttle. */
  now?: () => number;
}

export interface WorkspaceBinding {
  /** The bound workspace, learned on first use (start-up); a failure is retried on the next use. */
  bound(): Promise<BoundWorkspace>;
  readonly middleware: Middleware<AnyMiddlewareArgs>;
}

const AUDIT_INTERVAL_MS = 60_000;
const AUDIT_KEYS_KEPT = 1_000;

export function workspaceBinding(options: WorkspaceBindingOptions): WorkspaceBinding {
  const { log, audit } = options;
  const now = options.now ?? Date.now;
  let learned: Promise<BoundWorkspace> | undefined;
  const bound = (): Promise<BoundWorkspace> => {
    learned ??= learnWorkspace(options.whoAmI, options.configured).then(
      (workspace) => {
        log.info({ workspace }, 'serving this Slack workspace only');
        return workspace;
      },
      (error: unknown) => {
        learned = undefined;
        throw error;
      },
    );
    return learned;
  };

  // Origin and person → when their last refusal was audited.
  const audited = new Map<string, number>();
  const auditRefusal = async (origin: Origin, kind: string, wrong: readonly string[]): Promise<void> => {
    if (!audit) return;
    const key = [origin.teamId, origin.enterpriseId, origin.appId, origin.userId, kind].join('|');
    const at = now();
    const last = audited.get(key);
    if (last !== undefined && at - last < AUDIT_INTERVAL_MS) return;
    if (audited.size >= AUDIT_KEYS_KEPT) audited.clear();
    audited.set(key, at);
    await audit.record({
      actor: shown(origin.userId),
      action: 'refused',
      operationId: `slack:${kind}`,
      target: `team ${shown(origin.teamId)}, enterprise ${shown(origin.enterpriseId)}, app ${shown(origin.appId)}`,
      outcome: `refused: ${wrong.join(', ')} not the workspace fwbot serves`,
      approvalId: '',
    });
  };

  const middleware: Middleware<AnyMiddlewareArgs> = async (args) => {
    const origin = originOf(args.body);
    const kind = kindOf(args.body);
    let wrong: string[];
    try {
      const workspace = options.perInstallation
        ? installedWorkspace(await bound(), args.context)
        : await bound();
      wrong = mismatches(workspace, origin);
    } catch (error) {
      log.error({ err: error, kind }, 'cannot tell which Slack workspace fwbot serves; refused the request');
      wrong = ['workspace unknown'];
    }
    if (wrong.length === 0) {
      await args.next();
      return;
    }
    log.warn(
      {
        kind,
        mismatched: wrong,
        teamId: shown(origin.teamId),
        enterpriseId: shown(origin.enterpriseId),
        appId: shown(origin.appId),
        userId: shown(origin.userId),
      },
      'refused a Slack request from another workspace or app; nothing run',
    );
    if ('ack' in args && typeof args.ack === 'function') await args.ack();
    await auditRefusal(origin, kind, wrong).catch((error: unknown) =>
      log.error({ err: error }, 'could not write the audit record of a refused Slack request'),
    );
  };

  return { bound, middleware };
}
