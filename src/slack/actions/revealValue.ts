// The state of a "Reveal token" button: which operation, with which arguments, on which profile, for
// whom. No secret is in it (the token does not exist yet: it is generated when the button is pressed).
import { z } from 'zod';
import { UserError } from '../../catalogue/errors.js';
import type { RawArgs } from '../../catalogue/operation.js';

export const REVEAL_ACTION = 'fw.reveal';

const RawValue = z.union([z.string(), z.array(z.string()), z.boolean()]);
const Encoded = z.object({
  v: z.literal(1),
  o: z.string().min(1),
  a: z.record(z.string(), RawValue),
  p: z.string().optional(),
  u: z.string().min(1),
});

export interface RevealState {
  operationId: string;
  raw: RawArgs;
  profile: string | undefined;
  requester: string;
}

export function encodeReveal(state: RevealState): string {
  const args: Record<string, string | string[] | boolean> = {};
  for (const [name, value] of Object.entries(state.raw)) if (value !== undefined) args[name] = value;
  return JSON.stringify({ v: 1, o: state.operationId, a: args, p: state.profile, u: state.requester });
}

export function decodeReveal(value: string): RevealState {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = undefined;
  }
  const parsed = Encoded.safeParse(json);
  if (!parsed.success) throw new UserError('This button is not one fwbot made; run the command again.');
  const { o, a, p, u } = parsed.data;
  return { operationId: o, raw: a, profile: p, requester: u };
}
