// fwbot serves the Slack workspace it was installed in and nothing else (issue 12, item 4). The bound
// identity is the configured SLACK_TEAM_ID / SLACK_ENTERPRISE_ID / SLACK_APP_ID, and by default the bot
// token's own, learned once at start-up from auth.test (its workspace, and its organization on
// Enterprise Grid; an org-wide install sets SLACK_ENTERPRISE_ID instead). A Bolt global middleware, in
// front of every listener, refuses any request (command, button, form, select lookup) whose team_id /
// enterprise_id / api_app_id is not the bound one, or is missing where one is bound: acknowledged with
// nothing run, one warning logged and an audit record written (at most one a minute per origin and
// person, so a flood of them cannot flood the trail).
//
// Slack Connect (issue 29): a channel shared with another organization brings its people in. Their
// requests are let in for that channel only: the channel must admit external people (a customer channel,
// or one whose policy grants external people a role), and Slack must say the channel is shared: the
// payload's `is_ext_shared_channel` when it carries one (Bolt types it for Events API envelopes only, and
// slash commands and interactions may leave it out), else conversations.info's `channel.is_ext_shared`,
// asked with the request's own client and kept per channel for five minutes (sharedChannels below). They come either from the bound workspace with the person's own team
// (`user.team_id`) elsewhere, or from the person's own workspace; both are external people, and the
// request is then handled as the bound workspace's, where the channel's configuration lives. The origin
// the middleware settles on travels in Bolt's context (originOf), and the Slack listeners build the Actor
// from it (actorWithOrigin): nobody downstream reads team ids from the payload again.
//
// The app id: auth.test does not report it for bot tokens (Slack's documented answer has no app_id),
// and bots.info, which does, needs the users:read scope fwbot does not otherwise ask for. So api_app_id
// is checked when SLACK_APP_ID is set, or when auth.test happens to report an app_id.
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AuditSink } from '../dispatch/ports.js';
import type { Actor } from '../model/types.js';
import { SlackApi, type WebApiClient } from '../slackApi/slackApi.js';
import { type InstallationOf, installationBinding } from './installationBinding.js';
import type { SlashCommand } from './payloads.js';
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
  /** The person's own team (E… on Enterprise Grid), in interaction payloads. */
  user: z.object({ id: z.string().optional(), team_id: z.string().optional() }).nullish(),
  channel_id: z.string().optional(),
  channel: z.object({ id: z.string().optional() }).nullish(),
  container: z.object({ channel_id: z.string().optional() }).nullish(),
  /** Slack's word that the channel is shared with another organization (a form field in commands). */
  is_ext_shared_channel: z.union([z.boolean(), z.string()]).nullish(),
});

interface Origin extends BoundWorkspace {
  userId: string | undefined;
  /** The person's own team, when the payload says it apart from the request's team. */
  userTeamId?: string | undefined;
  channelId?: string | undefined;
  /** What the payload says of the channel being shared; undefined when it does not say. */
  shared?: boolean | undefined;
}

/** `is_ext_shared_channel` as JSON (interactions) or a form field (commands); anything else says nothing. */
function sharedIn(value: boolean | string | null | undefined): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
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
    userTeamId: present(data.user?.team_id),
    channelId: present(data.channel_id ?? data.channel?.id ?? data.container?.channel_id ?? undefined),
    shared: sharedIn(data.is_ext_shared_channel),
  };
}

/**
 * Where a request comes from, as the workspace binding settled it: the workspace whose configuration
 * applies, the person's own team, and whether they are an external person there.
 */
export const SlackOrigin = z.object({
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  userTeamId: z.string().optional(),
  external: z.boolean(),
});
export type SlackOrigin = z.infer<typeof SlackOrigin>;

/** Where the binding leaves the origin in Bolt's context, for the listeners. */
const ORIGIN = 'fwbotOrigin';

/** The origin the binding settled for this request (undefined outside a bound app, e.g. some tests). */
export function originIn(context: Context | undefined): SlackOrigin | undefined {
  const parsed = SlackOrigin.safeParse(context?.[ORIGIN]);
  return parsed.success ? parsed.data : undefined;
}

/** The actor a listener read from the payload, with the workspace binding's word on where it comes from. */
export function actorWithOrigin(actor: Actor, context: Context | undefined): Actor {
  const origin = originIn(context);
  if (!origin) return actor;
  return {
    ...actor,
    teamId: origin.teamId ?? actor.teamId,
    ...(origin.enterpriseId !== undefined ? { enterpriseId: origin.enterpriseId } : {}),
    ...(origin.userTeamId !== undefined ? { userTeamId: origin.userTeamId } : {}),
    ...(origin.external ? { external: true } : {}),
  };
}

/**
 * A slash command with the workspace binding's word on where it comes from: the workspace whose
 * configuration applies (both identifiers, as settled) and the person's own team and external flag, which
 * the command queue carries to the worker that runs it (commands/queued.ts).
 */
export function commandWithOrigin(command: SlashCommand, context: Context | undefined): SlashCommand {
  const origin = originIn(context);
  if (!origin) return command;
  const { team_id: _team, enterprise_id: _enterprise, ...rest } = command;
  return {
    ...rest,
    ...(origin.teamId !== undefined ? { team_id: origin.teamId } : {}),
    ...(origin.enterpriseId !== undefined ? { enterprise_id: origin.enterpriseId } : {}),
    origin: {
      ...(origin.userTeamId !== undefined ? { userTeamId: origin.userTeamId } : {}),
      ...(origin.external ? { external: true } : {}),
    },
  };
}

/** Whether the person's own team is another organization than the bound workspace's. */
function fromElsewhere(bound: BoundWorkspace, userTeamId: string | undefined): boolean {
  if (userTeamId === undefined) return false;
  // On Enterprise Grid, user.team_id names the organization (E…): one organization is one side.
  return userTeamId !== bound.teamId && userTeamId !== bound.enterpriseId;
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

/** Bolt's per-request client, as the shared-channel check uses it (through SlackApi: conversations.info). */
export type ChannelInfoClient = WebApiClient;

const SHARED_ANSWER_MS = 5 * 60_000;
const SHARED_CHANNELS_KEPT = 1_000;

/**
 * Whether Slack says a channel is shared with another organization, when a request does not say: asked with
 * conversations.info and kept per channel for five minutes, at most SHARED_CHANNELS_KEPT channels (the
 * oldest answer goes first). A failed lookup is not kept, and throws: the caller refuses the request.
 */
export function sharedChannels(now: () => number = Date.now) {
  const answers = new Map<string, { shared: boolean; at: number }>();
  return async (client: ChannelInfoClient, channelId: string): Promise<boolean> => {
    const known = answers.get(channelId);
    if (known && now() - known.at < SHARED_ANSWER_MS) return known.shared;
    const shared = await new SlackApi(client).channelIsExtShared(channelId);
    answers.delete(channelId);
    if (answers.size >= SHARED_CHANNELS_KEPT) {
      const oldest = answers.keys().next();
      if (!oldest.done) answers.delete(oldest.value);
    }
    answers.set(channelId, { shared, at: now() });
    return shared;
  };
}

/** Slack ids are short upper-case words; anything else in a refused request is cut before it is kept. */
const shown = (value: string | undefined): string => (value === undefined ? 'none' : value.slice(0, 32));

export interface WorkspaceBindingOptions {
  /** auth.test of the bot token, asked only when neither team nor enterprise is configured. */
  whoAmI: () => Promise<TokenIdentity>;
  configured: BoundWorkspace;
  /**
   * Whether a channel admits external people (AccessControl.admitsExternal): a customer channel, or one with
   * `external` grants. Absent: no channel does, and every external person is refused.
   */
  admitsExternal?: (channelId: string, workspace: BoundWorkspace) => boolean;
  /**
   * OAuth mode (installed in many workspaces): Bolt's authorize has already found the installation of the
   * workspace each request was delivered for (context.teamId / enterpriseId), so that workspace is the one
   * the request is bound to (its configuration applies; external people are told apart from it), as the
   * installation's own record says (installationBinding.ts: a request of another organization than the
   * installation's is refused). The configured workspace stays the home one, and the app id is checked as
   * configured.
   */
  perInstallation?: boolean;
  /** OAuth mode: an installation's record, as Bolt's authorize found it (src/slack/installations.ts). */
  installationOf?: InstallationOf;
  /**
   * Asks Slack whether a channel is shared when the request does not say (sharedChannels): the default keeps
   * answers for five minutes per binding.
   */
  isShared?: (client: ChannelInfoClient, channelId: string) => Promise<boolean>;
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
  const isShared = options.isShared ?? sharedChannels(now);
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
      outcome: `refused: ${wrong.join(', ')}${wrong.some((why) => why.includes(':')) ? '' : ' not the workspace fwbot serves'}`,
      approvalId: '',
    });
  };

  /**
   * An external person's request, let in or not: the settled origin, or why it is refused. Only a Slack
   * Connect channel that admits external people lets them in, and only when the request says it is shared.
   */
  const externalEntry = async (
    workspace: BoundWorkspace,
    origin: Origin,
    wrong: readonly string[],
    client: ChannelInfoClient | undefined,
  ): Promise<SlackOrigin | readonly string[]> => {
    const admits = options.admitsExternal;
    const ownTeam = origin.userTeamId ?? origin.teamId;
    // Another workspace's request that does not itself say the channel is shared: until Slack is asked,
    // it is refused as any other workspace's (the identifiers that differ).
    const unclaimed = (why: string): readonly string[] =>
      wrong.length > 0 && origin.shared !== true ? wrong : [why];
    // From another workspace, yet claiming to be one of the bound workspace's people: a forged team id.
    if (wrong.length > 0 && !fromElsewhere(workspace, ownTeam))
      return unclaimed('team_id: another workspace’s request naming a person of the workspace fwbot serves');
    if (origin.channelId === undefined) {
      // Forms and the App Home carry no channel: their person is external there, and the policy says what
      // that allows. A request from another workspace must name its channel, though.
      if (wrong.length > 0)
        return unclaimed(`${wrong.join(', ')}: not the workspace fwbot serves, and no shared channel named`);
    } else {
      if (admits?.(origin.channelId, workspace) !== true)
        return unclaimed(`external person: channel ${shown(origin.channelId)} admits no external people`);
      const shared = origin.shared ?? (await askShared(client, origin.channelId));
      if (shared === undefined)
        return [`external person: Slack could not say whether channel ${shown(origin.channelId)} is shared`];
      if (!shared) return [`external person: Slack says channel ${shown(origin.channelId)} is not shared`];
    }
    return {
      teamId: workspace.teamId,
      enterpriseId: workspace.enterpriseId,
      userTeamId: ownTeam,
      external: true,
    };
  };

  /** Slack's word on a channel the request did not describe; undefined when it cannot be had. */
  const askShared = async (
    client: ChannelInfoClient | undefined,
    channelId: string,
  ): Promise<boolean | undefined> => {
    if (!client) return undefined;
    try {
      return await isShared(client, channelId);
    } catch (error) {
      log.warn(
        { err: error, channelId: shown(channelId) },
        'could not ask Slack whether a channel is shared',
      );
      return undefined;
    }
  };

  const middleware: Middleware<AnyMiddlewareArgs> = async (args) => {
    const origin = originOf(args.body);
    const kind = kindOf(args.body);
    let wrong: string[];
    let settled: SlackOrigin | undefined;
    try {
      let workspace = await bound();
      let foreign: string[] = [];
      if (options.perInstallation) {
        const served = await installationBinding(workspace, args.context, origin, options.installationOf);
        workspace = served.workspace;
        foreign = served.refused;
      }
      // Another organization's request through an installation is refused for that (its reasons are never
      // a bare identifier's name, so it is never taken for an external person's below).
      wrong = foreign.length > 0 ? foreign : mismatches(workspace, origin);
      const elsewhere = wrong.length > 0 || fromElsewhere(workspace, origin.userTeamId);
      if (!elsewhere) {
        settled = {
          teamId: origin.teamId,
          enterpriseId: origin.enterpriseId,
          userTeamId: origin.userTeamId,
          external: false,
        };
      } else if (
        wrong.length === 0 ||
        // Another workspace's request is an external person's only in a channel Slack says is shared: one
        // whose payload says it is not stays refused as another workspace's.
        (origin.shared !== false && wrong.every((name) => name === 'team_id' || name === 'enterprise_id'))
      ) {
        // Bolt hands every middleware the request's own client (OAuth mode: its installation's token); a
        // bare call (tests of the middleware alone) may not.
        const client = (args as { client?: ChannelInfoClient }).client;
        const entry = await externalEntry(workspace, origin, wrong, client);
        if ('external' in entry) settled = entry;
        else wrong = [...entry];
      }
    } catch (error) {
      log.error({ err: error, kind }, 'cannot tell which Slack workspace fwbot serves; refused the request');
      wrong = ['workspace unknown'];
    }
    if (settled) {
      // Bolt always gives a context; a bare call (tests of the middleware alone) may not.
      if (typeof args.context === 'object') args.context[ORIGIN] = settled;
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
        userTeamId: shown(origin.userTeamId),
        channelId: shown(origin.channelId),
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
