// What a modal remembers between opening and submission, in its private_metadata (≤ 3000 characters,
// returned in a signed payload): the operation, the channel it was asked in, an admin's profile override,
// the arguments typed with the command (never a secret field's value), and the command's response_url
// so the answer can reach the requester privately.
import { z } from 'zod';
import type { RawArgs } from '../../catalogue/operation.js';
import { UserError } from '../../model/errors.js';
import { SLACK_LIMITS } from '../../render/blocks.js';

const RawValue = z.union([z.string(), z.array(z.string()), z.boolean()]);
const Metadata = z.object({
  v: z.literal(1),
  o: z.string().min(1),
  /** The channel; '' when the form was opened outside one (the App Home) and asks for it. */
  c: z.string(),
  p: z.string().optional(),
  r: z.record(z.string(), RawValue),
  u: z.string().url().optional(),
  /** A command button's form (Dispatcher.buttonForm): dispatched as the button's call. */
  e: z.literal('button').optional(),
});

export interface ModalMetadata {
  operationId: string;
  /** '' for a form opened from the App Home: the channel is picked in the form (CHANNEL_BLOCK). */
  channelId: string;
  profileOverride: string | undefined;
  /** Arguments given with the command, secret fields left out. */
  prefilled: RawArgs;
  responseUrl: string | undefined;
  /** The form a command button opened (what the policy requires): its call is the button's. */
  entry?: 'button' | undefined;
}

export function encodeMetadata(meta: ModalMetadata): string {
  const r: Record<string, string | string[] | boolean> = {};
  for (const [name, value] of Object.entries(meta.prefilled)) if (value !== undefined) r[name] = value;
  const text = JSON.stringify({
    v: 1,
    o: meta.operationId,
    c: meta.channelId,
    p: meta.profileOverride,
    r,
    u: meta.responseUrl,
    ...(meta.entry === undefined ? {} : { e: meta.entry }),
  });
  if (text.length > SLACK_LIMITS.privateMetadata) {
    throw new UserError(
      'What you typed is too long to carry into a form; type less and fill in the form instead.',
    );
  }
  return text;
}

export function decodeMetadata(text: string): ModalMetadata | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = Metadata.safeParse(json);
  if (!parsed.success) return undefined;
  const { o, c, p, r, u, e } = parsed.data;
  return { operationId: o, channelId: c, profileOverride: p, prefilled: r, responseUrl: u, entry: e };
}
