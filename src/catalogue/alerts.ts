// `/fw alerts …`: what fwbot tells a channel without being asked (issue 26). A channel subscribes to kinds
// of alert of its profile (its own tenant, one managed tenant of an MSP portal, or all of them), for every
// device or those a query chooses; the scan (src/jobs/alerts/) reads SCC and the incident desk posts one
// message per incident. Here: subscribing (checked once against SCC: the device query, the tenant, the
// token's roles, so a bad subscription is refused now instead of failing every scan), listing a channel's
// subscriptions and open incidents, unsubscribing; what the incident's buttons run is in alertIncidents.ts.
import { z } from 'zod';
import { alertKindOf } from '../alerts/index.js';
import {
  ALERT_KINDS,
  AlertKind,
  type AlertScope,
  type AlertSubscription,
  type OpenIncident,
  type SubscriptionStart,
  type TokenRole,
} from '../alerts/model.js';
import { UserError } from '../model/errors.js';
import type { View, ViewBlock } from '../model/view.js';
import { workspaceOf } from '../model/workspace.js';
import { code, counted, time } from '../render/format.js';
import { channelMention, userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { SccApiError } from '../scc/errors.js';
import { toLucene } from '../scc/lucene.js';
import { alertService, alertsAck, alertsMute, openIncidentsSeen } from './alertIncidents.js';
import { flag, list, optionalText, text } from './args.js';
import { defineOperation, type Operation, type OperationContext, type Param } from './operation.js';
import { resolveTenant } from './resolve.js';
import { channelIdOf } from './watches.js';

const kindList = ALERT_KINDS.join(', ');

// --- subscribe ---------------------------------------------------------------------------------------

const KINDS: Param = {
  name: 'kind',
  kind: 'word',
  variadic: true,
  description: `kinds of alert (${kindList}) or \`all\`; a #channel (or a channel's id) among them is the channel to tell (this one when left out)`,
};

const SUBSCRIBE_PARAMS: readonly Param[] = [
  KINDS,
  {
    name: 'devices',
    kind: 'query',
    flag: true,
    optional: true,
    description:
      'only the devices this query chooses (a name, or Lucene with a colon; quote it when it has spaces)',
  },
  {
    name: 'tenant',
    kind: 'tenant',
    flag: true,
    optional: true,
    description: 'one managed tenant of the MSP portal (name or UUID) instead of the profile’s own',
  },
  {
    name: 'all-tenants',
    kind: 'word',
    flag: true,
    boolean: true,
    description: 'every managed tenant of the MSP portal, each event told with its tenant',
  },
];

/** The words after `subscribe`: kinds (or `all`) and at most one #channel, in any order. */
function readKinds(words: readonly string[]): {
  kinds: AlertKind[];
  /** `all` was written: every kind, less those the scope cannot read. */
  all: boolean;
  channel?: string;
  issues: string[];
} {
  const kinds = new Set<AlertKind>();
  const channels: string[] = [];
  const issues: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    const named = AlertKind.safeParse(lower);
    if (lower === 'all') for (const kind of ALERT_KINDS) kinds.add(kind);
    else if (named.success) kinds.add(named.data);
    // A bare id (`C0123ABCDEF`) too: the command line has no channel picker.
    else if (word.startsWith('<#') || word.startsWith('#') || channelIdOf(word) !== undefined) {
      const id = channelIdOf(word);
      if (id) channels.push(id);
      else
        issues.push(
          'names a channel without its id: it must be a channel picked from Slack’s list (#channel), so Slack sends its id.',
        );
    } else issues.push(`has \`${word}\`, which is not a kind of alert: the kinds are ${kindList}, or all.`);
  }
  if (channels.length > 1) issues.push('names more than one channel: subscribe one channel at a time.');
  if (kinds.size === 0 && issues.length === 0)
    issues.push(`needs at least one kind of alert: ${kindList}, or all.`);
  const [channel] = channels;
  const all = words.some((word) => word.toLowerCase() === 'all');
  return { kinds: ALERT_KINDS.filter((k) => kinds.has(k)), all, ...(channel ? { channel } : {}), issues };
}

const SubscribeArgs = z
  .object({
    kind: list({ min: 1, max: 20, what: 'words' }),
    devices: optionalText(),
    tenant: optionalText(),
    'all-tenants': flag(),
  })
  .superRefine((args, issues) => {
    for (const message of readKinds(args.kind).issues)
      issues.addIssue({ code: 'custom', path: ['kind'], message });
    if (args.tenant !== undefined && args['all-tenants'])
      issues.addIssue({
        code: 'custom',
        path: ['tenant'],
        message: 'and --all-tenants exclude each other: one tenant, or all of them.',
      });
    // Named one by one, a kind SCC cannot list across managed tenants is refused now; `all` leaves it out.
    const { kinds, all } = readKinds(args.kind);
    const perTenant = kinds.filter((kind) => !alertKindOf(kind).acrossTenants);
    if ((args.tenant !== undefined || args['all-tenants']) && !all && perTenant.length > 0)
      issues.addIssue({
        code: 'custom',
        path: ['kind'],
        message: `has ${perTenant.map((kind) => `\`${kind}\``).join(' and ')}, which SCC lists per tenant, for that tenant’s own token: a portal’s profile cannot read ${perTenant.length > 1 ? 'them' : 'it'} for its managed tenants. Subscribe to ${perTenant.length > 1 ? 'them' : 'it'} with the tenant’s own profile (--profile), or leave ${perTenant.length > 1 ? 'them' : 'it'} out.`,
      });
  })
  .transform((args) => {
    const { kinds, channel } = readKinds(args.kind);
    const acrossTenants = args.tenant !== undefined || args['all-tenants'];
    const leftOut = acrossTenants ? kinds.filter((kind) => !alertKindOf(kind).acrossTenants) : [];
    return {
      kinds: kinds.filter((kind) => !leftOut.includes(kind)),
      leftOut,
      channel,
      devices: args.devices,
      tenant: args.tenant,
      allTenants: args['all-tenants'],
    };
  });
type SubscribeArgs = z.infer<typeof SubscribeArgs>;

/** A 403 on an MSP portal's list: the profile's token is not a portal's. */
function notAPortal(error: unknown): boolean {
  return error instanceof SccApiError && error.status === 403;
}

async function scopeOf(ctx: OperationContext, args: SubscribeArgs): Promise<AlertScope> {
  if (args.tenant === undefined && !args.allTenants) return { kind: 'profile' };
  const flagWritten = args.allTenants ? '--all-tenants' : '--tenant';
  try {
    if (args.tenant !== undefined) {
      const tenant = await resolveTenant(ctx.scc, args.tenant);
      return { kind: 'tenant', uid: tenant.uid, name: tenant.name };
    }
    await ctx.scc.call('getMspManagedTenants', { query: { limit: 1 } });
    return { kind: 'all-tenants' };
  } catch (error) {
    if (notAPortal(error))
      throw new UserError(
        `Profile \`${ctx.profile}\` is not an MSP portal, so it has no managed tenants: ${flagWritten} is only for a portal’s profile.`,
      );
    throw error;
  }
}

/** The device query, tried once now: SCC refusing it here beats every scan failing on it later. */
async function checkDevices(
  ctx: OperationContext,
  q: string,
  scope: AlertScope,
): Promise<number | undefined> {
  try {
    const query = { q, limit: 1 };
    const { data } =
      scope.kind === 'profile'
        ? await ctx.scc.call('getDevices', { query })
        : await ctx.scc.call('getMspManagedDevices', { query });
    return data.count ?? undefined;
  } catch (error) {
    if (error instanceof SccApiError && error.status === 400)
      throw new UserError(
        `SCC refused the device query ${code(q)}: ${error.userMessage()} Write a name, or Lucene with a colon (\`name:asa-branch*\`).`,
      );
    throw error;
  }
}

/** Kinds the profile's token has none of the roles for: refused now, not found out by every scan. */
async function checkToken(ctx: OperationContext, kinds: readonly AlertKind[]): Promise<void> {
  const { data } = await ctx.scc.call('getToken', {});
  const held = new Set<string>(data.roles ?? []);
  const unread = kinds.filter((kind) => !alertKindOf(kind).tokenRoles.some((role) => held.has(role)));
  if (unread.length === 0) return;
  const needed: TokenRole[] = [...new Set(unread.flatMap((kind) => alertKindOf(kind).tokenRoles))];
  const has = held.size === 0 ? 'no role' : [...held].join(', ');
  throw new UserError(
    `The SCC token of profile \`${ctx.profile}\` (${has}) cannot read what ${unread.join(', ')} ${unread.length === 1 ? 'needs' : 'need'}: it takes one of ${needed.join(', ')}. Subscribe without ${unread.length === 1 ? 'it' : 'them'}, or give the profile a token with one of those roles.`,
  );
}

export const alertsSubscribe = defineOperation({
  id: 'alerts.subscribe',
  words: ['alerts', 'subscribe'],
  area: 'alerts',
  failure: 'Could not subscribe to the alerts',
  summary:
    'Tell a channel about what happens in SCC: devices offline, conflicts, failovers, certificates, runs, users',
  params: SUBSCRIBE_PARAMS,
  args: SubscribeArgs,
  role: 'operator',
  approval: 'never',
  needs: ['alerts'],
  scc: ['getToken', 'getDevices', 'getMspManagedDevices', 'getMspManagedTenants', 'getMspManagedTenant'],
  examples: [
    'alerts subscribe connectivity ha',
    'alerts subscribe all #netops',
    'alerts subscribe connectivity conflict --devices "name:asa-branch*"',
    'alerts subscribe all --tenant globex-apj #globex-ops',
    'alerts subscribe connectivity ha --all-tenants',
  ],
  // `/fw alerts subscribe` alone opens a form: the kinds as a multi-select, the rest optional.
  modal: {
    title: 'Subscribe to alerts',
    submit: 'Subscribe',
    when: 'empty',
    fields: [
      {
        name: 'kind',
        label: 'Kinds of alert',
        input: 'multi_select',
        options: ALERT_KINDS.map((kind) => ({ label: kind, value: kind })),
        hint: 'What this channel will be told: what is wrong now, once, in one summary; then each new incident.',
      },
      {
        name: 'devices',
        label: 'Only these devices',
        input: 'text',
        optional: true,
        placeholder: 'name:asa-branch*',
        hint: 'A name, or SCC Lucene with a colon; every device when left empty.',
      },
      { name: 'tenant', label: 'One managed tenant (MSP portal)', input: 'tenant', optional: true },
      { name: 'all-tenants', label: 'Every managed tenant (MSP portal)', input: 'checkbox', optional: true },
    ],
  },
  // Another channel is told from now on: the requester needs the role there too, on the same profile.
  otherChannel: (args) => args.channel,
  run: async (ctx, args) => {
    const alerts = alertService(ctx);
    const channelId = args.channel ?? (ctx.actor.noChannel ? undefined : ctx.actor.channelId);
    if (channelId === undefined)
      throw new UserError(
        'Name the channel to tell by its id (`/fw alerts subscribe connectivity C0123ABCDEF`): the command line is in no channel.',
      );
    const scope = await scopeOf(ctx, args);
    const devices = toLucene(args.devices);
    const matching = devices === undefined ? undefined : await checkDevices(ctx, devices, scope);
    await checkToken(ctx, args.kinds);
    const { subscription, created } = await alerts.subscriptions.subscribe({
      channelId,
      profile: ctx.profile,
      kinds: args.kinds,
      ...(devices === undefined ? {} : { devices }),
      scope,
      createdBy: ctx.actor.userId,
      // Its incidents go out in the workspace it was made in (OAuth mode: with that workspace's token).
      ...workspaceOf(ctx.actor),
    });
    if (!created) return { subscription, created, matching, leftOut: args.leftOut };
    // It starts from now: its first read is made here, so nothing that goes wrong from now on is missed
    // however late the first scan runs, and what is already wrong is told once. A read that fails leaves
    // nothing subscribed: the person is told why and may ask again.
    let start: SubscriptionStart;
    try {
      start = await alerts.startFromNow(subscription, ctx.scc);
    } catch (error) {
      await alerts.subscriptions.unsubscribe(subscription.channelId, subscription.id);
      throw error;
    }
    return { subscription, created, matching, leftOut: args.leftOut, current: start.current };
  },
  render: ({ subscription, created, matching, leftOut, current }) =>
    renderSubscribed(subscription, created, matching, leftOut, current),
});

/**
 * `*connectivity, ha* of profile \`default\`, devices matching \`name:asa*\``, or the same without
 * markup for a summary (a query's `*` is a wildcard, not bold, so markup is never stripped afterwards).
 */
function heard(subscription: AlertSubscription, plain = false): string {
  const { scope, profile } = subscription;
  const literal = (value: string) => (plain ? value : `\`${value}\``);
  const where =
    scope.kind === 'tenant'
      ? `managed tenant ${plain ? scope.name : untrusted(scope.name)} of profile ${literal(profile)}`
      : scope.kind === 'all-tenants'
        ? `every managed tenant of profile ${literal(profile)}`
        : `profile ${literal(profile)}`;
  const query = subscription.devices;
  const devices = query === undefined ? '' : `, devices matching ${plain ? query : code(query)}`;
  const kinds = subscription.kinds.join(', ');
  return `${plain ? kinds : `*${kinds}*`} of ${where}${devices}`;
}

export function renderSubscribed(
  subscription: AlertSubscription,
  created: boolean,
  matching: number | undefined,
  leftOut: readonly AlertKind[] = [],
  /** What was already wrong when it was made (told in one summary); undefined when not read. */
  current?: number,
): View {
  const channel = channelMention(subscription.channelId);
  const lines: string[] = [];
  if (leftOut.length > 0)
    lines.push(
      `Left out of \`all\`: ${leftOut.map((kind) => `*${kind}*`).join(', ')}, which SCC lists per tenant, for that tenant’s own token; subscribe to ${leftOut.length > 1 ? 'them' : 'it'} with the tenant’s own profile.`,
    );
  if (created) {
    lines.push(`${channel} now hears about ${heard(subscription)}. Subscription \`${subscription.id}\`.`);
    lines.push(...subscription.kinds.map((kind) => `• *${kind}*: ${alertKindOf(kind).summary}`));
    if (matching === 0)
      lines.push('No device matches the query today: the channel hears about devices once they match it.');
    lines.push(
      current === undefined || current === 0
        ? 'Nothing the channel hears about is wrong right now.'
        : `Right now ${counted(current, 'thing is', 'things are')} already wrong: one summary message says what, each in its thread with its buttons.`,
      'From now on each incident is one message, edited as it evolves, with buttons to acknowledge it or mute its device.',
    );
  } else {
    lines.push(
      `${channel} already hears about ${heard(subscription)}: subscription \`${subscription.id}\`, made by ${userMention(subscription.createdBy)} on ${time(subscription.createdAt)}.`,
    );
  }
  const summary = created
    ? `${channel} now hears about ${heard(subscription, true)}. Subscription ${subscription.id}.`
    : `${channel} already hears about ${heard(subscription, true)}: subscription ${subscription.id}.`;
  return { summary, blocks: [{ kind: 'text', text: lines.join('\n') }], visibility: 'in_channel' };
}

// --- list ----------------------------------------------------------------------------------------------

export const alertsList = defineOperation({
  id: 'alerts',
  words: ['alerts'],
  area: 'alerts',
  failure: 'Could not read the alerts of this channel',
  summary: 'This channel’s alert subscriptions (with their ids) and its open incidents',
  params: [],
  args: z.object({}),
  role: 'viewer',
  approval: 'never',
  needs: ['alerts'],
  scc: [],
  examples: ['alerts'],
  // An actor in no channel (the CLI, holding the profile's token) sees every channel of the profile.
  run: async (ctx) => {
    const alerts = alertService(ctx);
    const { noChannel, channelId } = ctx.actor;
    const [listed, open] = await Promise.all([
      alerts.subscriptions.list(noChannel ? { profile: ctx.profile } : { channelId }),
      openIncidentsSeen(ctx, alerts),
    ]);
    // A customer channel is told only its tenant's own profile's alerts (src/jobs/alerts/scanRouting.ts,
    // toldInChannel): it is shown only those, not the portal's made there before it was bound to a tenant.
    const customer = ctx.channelTenant !== undefined;
    const subscriptions = customer
      ? listed.filter((s) => s.scope.kind === 'profile' && s.profile === ctx.profile)
      : listed;
    return {
      channelId: noChannel ? undefined : channelId,
      profile: ctx.profile,
      subscriptions,
      incidents: open,
    };
  },
  render: ({ channelId, profile, subscriptions, incidents }) =>
    renderAlerts(channelId, subscriptions, incidents, profile),
});

/** A line of the list; `inChannel` when it lists several channels' (a profile's, for the CLI). */
function subscriptionLine(subscription: AlertSubscription, inChannel: boolean): string {
  const where = inChannel ? ` ${channelMention(subscription.channelId)}:` : '';
  return `• \`${subscription.id}\`${where} ${heard(subscription)} · ${userMention(subscription.createdBy)}, ${time(subscription.createdAt)}`;
}

function incidentLine(incident: OpenIncident, inChannel: boolean): string {
  const where = inChannel ? ` ${channelMention(incident.channelId)}:` : '';
  const flaps = incident.flaps > 0 ? ` · flapped ${counted(incident.flaps, 'time')}` : '';
  const ack = incident.acknowledgedBy ? ` · acknowledged by ${userMention(incident.acknowledgedBy)}` : '';
  return `• \`${incident.id}\`${where} *${incident.kind}* ${untrusted(incident.subject.name)}: ${incident.headline} · since ${time(incident.openedAt)}${flaps}${ack}`;
}

/** One channel's alerts, or (no `channelId`: the actor is in no channel) every channel's of the profile. */
export function renderAlerts(
  channelId: string | undefined,
  subscriptions: readonly AlertSubscription[],
  incidents: readonly OpenIncident[],
  profile?: string,
): View {
  const several = channelId === undefined;
  const blocks: ViewBlock[] = [
    { kind: 'header', text: several ? `Alerts of profile ${profile ?? ''}` : 'Alerts in this channel' },
  ];
  if (subscriptions.length === 0) {
    const none = several
      ? `Profile \`${profile ?? ''}\` has no alert subscription. \`/fw alerts subscribe connectivity C0123ABCDEF\` starts one for that channel`
      : `${channelMention(channelId)} has no alert subscription. \`/fw alerts subscribe connectivity ha\` starts one`;
    blocks.push({
      kind: 'text',
      text: `${none} (\`/fw help alerts subscribe\` lists the kinds).`,
    });
  } else {
    blocks.push({
      kind: 'text',
      text: [
        `*${counted(subscriptions.length, 'subscription')}*`,
        ...subscriptions.map((subscription) => subscriptionLine(subscription, several)),
      ].join('\n'),
    });
  }
  blocks.push({
    kind: 'text',
    text:
      incidents.length === 0
        ? 'No open incident.'
        : [
            `*${counted(incidents.length, 'open incident')}*`,
            ...incidents.map((incident) => incidentLine(incident, several)),
          ].join('\n'),
  });
  blocks.push({
    kind: 'context',
    text: '`/fw alerts unsubscribe <id>` ends a subscription; `/fw alerts ack <incident>` acknowledges an incident.',
  });
  const where = several ? `of profile ${profile ?? ''}` : 'in this channel';
  const summary = `${counted(subscriptions.length, 'alert subscription')} and ${counted(incidents.length, 'open incident')} ${where}`;
  return { summary, blocks, visibility: 'ephemeral' };
}

// --- unsubscribe -----------------------------------------------------------------------------------------

const ID = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{6,12}$/, 'is a subscription id as `/fw alerts` shows it: six letters and digits.');

export const alertsUnsubscribe = defineOperation({
  id: 'alerts.unsubscribe',
  words: ['alerts', 'unsubscribe'],
  area: 'alerts',
  failure: 'Could not unsubscribe',
  summary: 'End one of this channel’s alert subscriptions (its id from `/fw alerts`)',
  params: [{ name: 'id', kind: 'word', description: 'the subscription’s id, as `/fw alerts` shows it' }],
  args: z.object({ id: text().pipe(ID) }),
  role: 'operator',
  approval: 'never',
  needs: ['alerts'],
  scc: [],
  examples: ['alerts unsubscribe a7k2m9'],
  run: async (ctx, args) => {
    const { subscriptions } = alertService(ctx);
    // An actor in no channel (the CLI) ends a subscription of the profile, in the channel it belongs to.
    const owner = ctx.actor.noChannel
      ? (await subscriptions.list({ profile: ctx.profile })).find((s) => s.id === args.id)?.channelId
      : ctx.actor.channelId;
    const removed = owner === undefined ? undefined : await subscriptions.unsubscribe(owner, args.id);
    // Ids are not secrets, channels are boundaries: another channel's id reads as unknown here.
    if (!removed)
      throw new UserError(
        ctx.actor.noChannel
          ? `Profile \`${ctx.profile}\` has no alert subscription \`${args.id}\` (\`/fw alerts\` lists them).`
          : `This channel has no alert subscription \`${args.id}\` (\`/fw alerts\` lists its own).`,
      );
    return removed;
  },
  render: (subscription) => {
    const ended = (plain: boolean) =>
      `${channelMention(subscription.channelId)} no longer hears about ${heard(subscription, plain)} (subscription ${plain ? subscription.id : `\`${subscription.id}\``} ended).`;
    return { summary: ended(true), blocks: [{ kind: 'text', text: ended(false) }], visibility: 'in_channel' };
  },
});

/** Alerts: this area's operations, in the order help and the command table list them (index.ts). */
export const ALERT_OPERATIONS: readonly Operation[] = [
  alertsList,
  alertsSubscribe,
  alertsUnsubscribe,
  alertsAck,
  alertsMute,
];
