// `/fw vpn watch [#channel]` and `/fw vpn unwatch [#channel]`: a channel hears about every VPN client
// upgrade run of the profile that ends, including runs started outside Slack. Since issue 26 a watch is an
// `upgrades` alert subscription of the channel (src/jobs/watches.ts keeps the registry over them; on an MSP
// portal's profile one across its managed tenants too), so `/fw alerts` lists it and `/fw alerts
// unsubscribe` ends it; these words stay because people know them.
import { z } from 'zod';
import { SLACK_CHANNEL_ID } from '../config/slackIds.js';
import { UserError } from '../model/errors.js';
import type { View } from '../model/view.js';
import { workspaceOf } from '../model/workspace.js';
import { channelMention } from '../render/mrkdwn.js';
import { SccApiError } from '../scc/errors.js';
import { optionalText } from './args.js';
import type { OperationContext, Param, WatchRegistry } from './operation.js';
import { defineOperation } from './operation.js';

const CHANNEL: Param = {
  name: 'channel',
  kind: 'word',
  optional: true,
  description: 'the channel to tell (a #channel mention); this channel when left out',
};

/** `<#C0123ABCD|ops>`, `<#C0123ABCD>` or a bare id → the id. A plain `#ops` carries no id. */
export function channelIdOf(written: string): string | undefined {
  const text = written.trim();
  const mention = /^<#([A-Z0-9]+)(?:\|[^>]*)?>$/.exec(text);
  const id = mention?.[1] ?? text;
  return SLACK_CHANNEL_ID.test(id) ? id : undefined;
}

const channelArg = optionalText()
  .refine((text) => text === undefined || channelIdOf(text) !== undefined, {
    message: 'must be a channel picked from Slack\u2019s list (#channel), so Slack sends its id.',
  })
  .transform((text) => (text === undefined ? undefined : channelIdOf(text)));

const WatchArgs = z.object({ channel: channelArg });

function registry(ctx: OperationContext): WatchRegistry {
  const watches = ctx.services?.watches;
  if (!watches) throw new UserError('Watches are not available here: they need the tracking queue (Redis).');
  return watches;
}

function reply(text: string): View {
  return { summary: text.replace(/\*/g, ''), blocks: [{ kind: 'text', text }], visibility: 'in_channel' };
}

/** What watching and unwatching share: a channel (this one by default), the operator role, the registry. */
const watchCommand = {
  area: 'vpn',
  params: [CHANNEL],
  args: WatchArgs,
  role: 'operator',
  approval: 'never',
  needs: ['watches'],
  scc: [],
  // Another channel is told from now on: the requester needs the role there too, on the same profile.
  otherChannel: (args: z.infer<typeof WatchArgs>) => args.channel,
} as const;

/** An MSP portal's token may list managed tenants; any other gets 403. Its runs across tenants are heard too. */
export async function isMspPortal(ctx: OperationContext): Promise<boolean> {
  try {
    await ctx.scc.call('getMspManagedTenants', { query: { limit: 1 } });
    return true;
  } catch (error) {
    if (error instanceof SccApiError && error.status === 403) return false;
    throw error;
  }
}

export const vpnWatch = defineOperation({
  ...watchCommand,
  scc: ['getMspManagedTenants'],
  id: 'vpn.watch',
  words: ['vpn', 'watch'],
  failure: 'Could not start watching the upgrade runs',
  summary: 'Tell a channel about every VPN client upgrade run that ends, also runs started outside Slack',
  examples: ['vpn watch', 'vpn watch #netops'],
  run: async (ctx, args) => {
    const channelId = args.channel ?? ctx.actor.channelId;
    const { created } = await registry(ctx).watch({
      channelId,
      profile: ctx.profile,
      createdBy: ctx.actor.userId,
      createdAt: new Date(ctx.now()).toISOString(),
      acrossTenants: await isMspPortal(ctx),
      // Its announcements go out in the workspace it was made in (OAuth mode: with that workspace's token).
      ...workspaceOf(ctx.actor),
    });
    return { created, channelId, profile: ctx.profile };
  },
  render: ({ created, channelId, profile }) =>
    reply(
      created
        ? `${channelMention(channelId)} now hears about every VPN client upgrade run of profile \`${profile}\` that ends, including runs started outside Slack.`
        : `${channelMention(channelId)} already hears about the upgrade runs of profile \`${profile}\`.`,
    ),
});

export const vpnUnwatch = defineOperation({
  ...watchCommand,
  id: 'vpn.unwatch',
  words: ['vpn', 'unwatch'],
  failure: 'Could not stop watching the upgrade runs',
  summary: 'Stop telling a channel about VPN client upgrade runs',
  examples: ['vpn unwatch', 'vpn unwatch #netops'],
  run: async (ctx, args) => {
    const channelId = args.channel ?? ctx.actor.channelId;
    const { removed, stillHeardBy = [] } = await registry(ctx).unwatch(channelId, ctx.profile);
    return { removed, stillHeardBy, channelId, profile: ctx.profile };
  },
  render: ({ removed, stillHeardBy, channelId, profile }) => {
    const channel = channelMention(channelId);
    const [first] = stillHeardBy;
    if (first !== undefined) {
      // Another subscription of the channel names upgrades with other kinds: vpn unwatch does not cut it down.
      const ids = stillHeardBy.map((id) => `\`${id}\``).join(', ');
      const done = removed ? 'The watch is removed, but ' : '';
      return reply(
        `${done}${channel} still hears about upgrade runs of profile \`${profile}\` through alert subscription ${ids} (\`/fw alerts\` lists them; \`/fw alerts unsubscribe ${first}\` ends one).`,
      );
    }
    return reply(
      removed
        ? `${channel} no longer hears about the upgrade runs of profile \`${profile}\`.`
        : `${channel} was not watching the upgrade runs of profile \`${profile}\`.`,
    );
  },
});

export const WATCH_OPERATIONS = [vpnWatch, vpnUnwatch] as const;
