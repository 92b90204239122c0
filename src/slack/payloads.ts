// The parts of Slack's payloads fwbot reads, as zod schemas: whatever Bolt hands a listener is parsed
// here before use, so a malformed or unexpected payload is refused in one place with a clear reason.
// Only verified requests reach these (signature or Socket Mode), so `user.id` can be trusted.
import { z } from 'zod';
import type { Actor } from '../catalogue/operation.js';
import { stripSentinels } from '../model/marks.js';

const Id = z.string().min(1).max(64);

/**
 * Drops the characters fwbot marks its own mentions and literal values with (render/mrkdwn.ts) from every
 * string of an interaction's payload, in place: command text, modal values (a reject reason too), select
 * values, button values, private metadata. The router calls it once for every interaction, before any
 * listener reads the payload (Bolt hands listeners parts of this same object), so no listener's own
 * schema can let one through: nothing typed can make a live mention or pass for a value fwbot marked.
 */
export function stripPayloadMarks(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      if (typeof item === 'string') node[i] = stripSentinels(item);
      else stripPayloadMarks(item);
    });
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(object)) {
    if (typeof value === 'string') object[key] = stripSentinels(value);
    else stripPayloadMarks(value);
  }
}

/**
 * Text a person typed. Slack can deliver a lone surrogate (half of a broken emoji), which is not valid
 * UTF-16 and makes encodeURIComponent throw further in; it becomes U+FFFD here, where Slack text enters.
 * fwbot's marks were already dropped from the whole payload (stripPayloadMarks, by the router).
 */
const TypedText = z.string().transform((text) => text.toWellFormed());

export const SlashCommand = z.object({
  command: z.string(),
  text: TypedText.default(''),
  user_id: Id,
  channel_id: Id,
  team_id: Id.optional(),
  /** The Enterprise Grid organization; Slack sends it empty outside one, which is none at all. */
  enterprise_id: z
    .union([Id, z.literal('')])
    .transform((id) => (id === '' ? undefined : id))
    .optional(),
  trigger_id: z.string().min(1),
  response_url: z.string().url(),
});

/**
 * A slash command, with where the workspace binding settled it comes from (src/slack/workspaceBinding.ts):
 * the listener sets `origin` from Bolt's context, never from the payload, and it travels through the command
 * queue, so the command runs as the person who typed it (an external person stays external).
 */
export type SlashCommand = z.infer<typeof SlashCommand> & {
  origin?: { userTeamId?: string | undefined; external?: boolean | undefined };
};

/** Who typed a slash command, and where. */
export function actorOf(command: SlashCommand): Actor {
  return {
    userId: command.user_id,
    channelId: command.channel_id,
    teamId: command.team_id,
    ...(command.enterprise_id !== undefined ? { enterpriseId: command.enterprise_id } : {}),
    ...(command.origin?.userTeamId !== undefined ? { userTeamId: command.origin.userTeamId } : {}),
    ...(command.origin?.external === true ? { external: true } : {}),
  };
}

const ButtonAction = z.object({
  type: z.literal('button'),
  action_id: z.string(),
  value: z.string().optional(),
});

export const BlockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: Id }),
  team: z.object({ id: Id }).nullish(),
  channel: z.object({ id: Id }).optional(),
  trigger_id: z.string().min(1),
  response_url: z.string().url().optional(),
  container: z.object({ is_ephemeral: z.boolean().optional() }).passthrough().optional(),
  actions: z.array(z.object({ action_id: z.string(), type: z.string() }).passthrough()).min(1),
});
export type BlockActions = z.infer<typeof BlockActions>;

/** The first action of a block_actions payload, when it is a button. */
export function buttonOf(body: BlockActions): z.infer<typeof ButtonAction> | undefined {
  const parsed = ButtonAction.safeParse(body.actions[0]);
  return parsed.success ? parsed.data : undefined;
}

const Option = z.object({ value: TypedText });

/** One input's state in a modal, whatever its element type. */
export const InputState = z.object({
  type: z.string(),
  value: TypedText.nullish(),
  selected_option: Option.nullish(),
  selected_options: z.array(Option).nullish(),
  /** A conversations_select (the channel a form opened from the App Home posts in). */
  selected_conversation: Id.nullish(),
});
export type InputState = z.infer<typeof InputState>;

const StateValues = z.record(z.string(), z.record(z.string(), InputState));

export const ViewSubmission = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id: Id }),
  team: z.object({ id: Id }).nullish(),
  trigger_id: z.string().min(1),
  view: z.object({
    id: z.string(),
    callback_id: z.string(),
    private_metadata: z.string().default(''),
    state: z.object({ values: StateValues }),
  }),
});
export type ViewSubmission = z.infer<typeof ViewSubmission>;

export const BlockSuggestion = z.object({
  type: z.literal('block_suggestion'),
  user: z.object({ id: Id }),
  /** The workspace the request was delivered for: its channel bindings scope the lookup. */
  team: z.object({ id: Id, enterprise_id: Id.nullish() }).nullish(),
  action_id: z.string(),
  block_id: z.string(),
  value: TypedText.default(''),
  view: z
    .object({
      private_metadata: z.string().default(''),
      state: z.object({ values: StateValues }).optional(),
    })
    .optional(),
});
export type BlockSuggestion = z.infer<typeof BlockSuggestion>;
