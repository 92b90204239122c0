// What an incident's buttons run (issue 26): `/fw alerts ack <incident>` and `/fw alerts mute <device|incident>
// <1h|8h|24h>`, and how an actor sees a channel's incidents (its own channel, an actor in no channel the
// profile's channels, a customer channel its tenant's own profile only). An incident's id, which its buttons
// send, names its channel, profile and device, so they work wherever it was told, a customer channel too.
import { z } from 'zod';
import type { AlertService, OpenIncident } from '../alerts/model.js';
import { UserError } from '../model/errors.js';
import { time } from '../render/format.js';
import { channelMention, userMention } from '../render/mrkdwn.js';
import { untrusted } from '../render/untrusted.js';
import { isUuid, text } from './args.js';
import { defineOperation, type OperationContext } from './operation.js';
import { resolveDevice } from './resolve.js';

/** How long a device may be muted in a channel: the incident message's three buttons. */
export const MUTE_DURATIONS = { '1h': 3_600_000, '8h': 8 * 3_600_000, '24h': 24 * 3_600_000 } as const;

export function alertService(ctx: OperationContext): AlertService {
  const alerts = ctx.services?.alerts;
  if (!alerts)
    throw new UserError('Alerts are not available here: they need the workers and Redis of the bot.');
  return alerts;
}

/**
 * The channels whose alerts the actor acts on: its own, or for an actor in no channel (the CLI) every
 * channel with a subscription on the profile.
 */
async function channelsSeen(ctx: OperationContext, alerts: AlertService): Promise<string[]> {
  if (!ctx.actor.noChannel) return [ctx.actor.channelId];
  const subscriptions = await alerts.subscriptions.list({ profile: ctx.profile });
  return [...new Set(subscriptions.map((subscription) => subscription.channelId))];
}

/**
 * Whether the actor sees an incident of these channels: one of the profile's, for an actor in no channel (the
 * profile's channels) or in a customer channel (told only its tenant's own profile, toldInChannel).
 */
function seenBy(ctx: OperationContext, incident: OpenIncident): boolean {
  return (!ctx.actor.noChannel && ctx.channelTenant === undefined) || incident.profile === ctx.profile;
}

/** The open incidents of those channels (of this profile, when they are the profile's channels). */
export async function openIncidentsSeen(
  ctx: OperationContext,
  alerts: AlertService,
): Promise<OpenIncident[]> {
  const channels = await channelsSeen(ctx, alerts);
  if (channels.length === 0) return [];
  const open = await alerts.incidents.openIncidents(channels);
  return open.filter((incident) => seenBy(ctx, incident));
}

/** The incident an id names among those the actor sees (open, or a notice: what its buttons act on). */
async function incidentSeen(
  ctx: OperationContext,
  alerts: AlertService,
  id: string,
): Promise<OpenIncident | undefined> {
  const channels = await channelsSeen(ctx, alerts);
  const found = channels.length === 0 ? undefined : await alerts.incidents.find(channels, id.trim());
  return found && seenBy(ctx, found) ? found : undefined;
}

// --- ack, mute: what an incident's buttons run --------------------------------------------------------------

export const alertsAck = defineOperation({
  id: 'alerts.ack',
  words: ['alerts', 'ack'],
  area: 'alerts',
  failure: 'Could not acknowledge the incident',
  summary: 'Acknowledge an open incident of this channel: its message says who and when',
  params: [{ name: 'incident', kind: 'word', description: 'the incident’s id, as `/fw alerts` shows it' }],
  args: z.object({ incident: text() }),
  // Nothing changes in SCC, but the team reads "someone has it": only those who may act on it say so.
  role: 'operator',
  approval: 'never',
  needs: ['alerts'],
  scc: [],
  examples: ['alerts ack 4f2a9c'],
  offeredAsButton: true,
  run: async (ctx, args) => {
    const alerts = alertService(ctx);
    const { incidents } = alerts;
    // Channels are boundaries: an incident is acknowledged from its own channel (or, by an actor in no
    // channel, among the profile's channels).
    if (!(await incidentSeen(ctx, alerts, args.incident)))
      throw new UserError(
        `${ctx.actor.noChannel ? `Profile \`${ctx.profile}\`` : 'This channel'} has no open incident \`${args.incident}\` (\`/fw alerts\` lists them).`,
      );
    const incident = await incidents.acknowledge(args.incident.trim(), ctx.actor.userId);
    if (!incident) throw new UserError(`Incident \`${args.incident}\` has closed meanwhile.`);
    return { incident, userId: ctx.actor.userId };
  },
  render: ({ incident, userId }) => {
    const text = `${userMention(userId)} acknowledged ${untrusted(incident.subject.name)}: ${incident.headline}`;
    const summary = `${userMention(userId)} acknowledged ${incident.subject.name}`;
    return { summary, blocks: [{ kind: 'text', text }], visibility: 'ephemeral' };
  },
});

export const alertsMute = defineOperation({
  id: 'alerts.mute',
  words: ['alerts', 'mute'],
  area: 'alerts',
  failure: 'Could not mute the device',
  summary: 'Hear no new incident of a device in this channel for 1, 8 or 24 hours (open ones still close)',
  params: [
    {
      name: 'device',
      kind: 'device',
      description: 'device name or UUID, or the id of an incident about it (what its Mute buttons send)',
    },
    {
      name: 'for',
      kind: 'choice',
      choices: Object.keys(MUTE_DURATIONS),
      description: 'how long: 1h, 8h or 24h',
    },
  ],
  args: z.object({
    device: text(),
    for: text().pipe(
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(['1h', '8h', '24h'], { error: 'must be 1h, 8h or 24h.' })),
    ),
  }),
  role: 'operator',
  approval: 'never',
  needs: ['alerts'],
  scc: ['getDevice', 'getDevices'],
  examples: ['alerts mute asa-branch-02 1h', 'alerts mute asa-branch-02 24h', 'alerts mute k3v9x2mq 8h'],
  offeredAsButton: true,
  run: async (ctx, args) => {
    const alerts = alertService(ctx);
    const { device, channelIds, profile } = await mutedWhere(ctx, alerts, args.device);
    const untilMs = ctx.now() + MUTE_DURATIONS[args.for];
    for (const channelId of channelIds)
      await alerts.incidents.mute({
        channelId,
        profile,
        deviceUid: device.uid,
        untilMs,
        userId: ctx.actor.userId,
      });
    return {
      device,
      channelIds,
      until: new Date(untilMs).toISOString(),
      duration: args.for,
      userId: ctx.actor.userId,
    };
  },
  render: ({ device, channelIds, until, duration, userId }) => {
    const where = channelIds.map(channelMention).join(', ');
    const muted = (name: string) =>
      `${userMention(userId)} muted ${name} in ${where} for ${duration} (until ${time(until)}): no new incident of it is posted ${channelIds.length === 1 ? 'here' : 'there'} until then; open ones still close.`;
    return {
      summary: muted(device.name),
      blocks: [{ kind: 'text', text: muted(untrusted(device.name)) }],
      visibility: 'in_channel',
    };
  },
});

/**
 * What a mute applies to. An incident's id (its Mute buttons send it) names its device, channel and profile,
 * whatever profile the channel's commands use: a customer channel takes no `--profile`, and an MSP channel
 * may hear another profile than its own. A device name or UUID is muted on the channel's profile, here (or,
 * for an actor in no channel, where it has an open incident on the profile).
 */
async function mutedWhere(
  ctx: OperationContext,
  alerts: AlertService,
  typed: string,
): Promise<{ device: { uid: string; name: string }; channelIds: string[]; profile: string }> {
  const incident = await incidentSeen(ctx, alerts, typed);
  if (incident) {
    if (incident.subject.type !== 'device')
      throw new UserError(`Incident \`${incident.id}\` is not about a device: there is nothing to mute.`);
    const { uid, name } = incident.subject;
    return { device: { uid, name }, channelIds: [incident.channelId], profile: incident.profile };
  }
  const open = await openIncidentsSeen(ctx, alerts);
  const device = await mutedDevice(ctx, typed, open);
  const channelIds = ctx.actor.noChannel
    ? [...new Set(open.filter((i) => i.subject.uid === device.uid).map((i) => i.channelId))]
    : [ctx.actor.channelId];
  if (channelIds.length === 0)
    throw new UserError(
      `${untrusted(device.name)} has no open incident on profile \`${ctx.profile}\`: from the command line a device is muted in the channels of its open incidents (\`/fw alerts\` lists them).`,
    );
  return { device, channelIds, profile: ctx.profile };
}

/**
 * The device to mute: one of the channel's open incidents names it (a button carries its UUID, and a
 * managed tenant's device is not in the profile's own inventory), else the profile's inventory does.
 */
async function mutedDevice(
  ctx: OperationContext,
  typed: string,
  open: readonly OpenIncident[],
): Promise<{ uid: string; name: string }> {
  const text = typed.trim();
  const known = open.find(
    (incident) =>
      incident.subject.type === 'device' &&
      (incident.subject.uid === text || incident.subject.name.toLowerCase() === text.toLowerCase()),
  );
  if (known) return { uid: known.subject.uid, name: known.subject.name };
  try {
    const device = await resolveDevice(ctx.scc, text);
    return { uid: device.uid, name: device.name };
  } catch (error) {
    // A UUID SCC does not know in the profile's inventory (a managed tenant's device) is muted as given.
    if (isUuid(text) && error instanceof UserError) return { uid: text, name: text };
    throw error;
  }
}
