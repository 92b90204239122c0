// An item of timed work as its hash holds it, parsed with zod when read back (a hash written by an older or
// broken version is left out of lists and never run half-understood). The payload stays unknown here: it
// is parsed with its kind's schema where it is run.
import { z } from 'zod';
import type { TimedItem } from '../../catalogue/operation.js';
import { jsonValue } from '../../model/json.js';
import { ThreadRefSchema } from '../payloads.js';

const Json = <T extends z.ZodType>(schema: T) =>
  z.string().transform((text, ctx) => {
    const parsed = schema.safeParse(jsonValue(text));
    if (parsed.success) return parsed.data as z.output<T>;
    ctx.addIssue({ code: 'custom', message: 'not the JSON it should be' });
    return z.NEVER;
  });

const Devices = z.array(z.object({ uid: z.string(), name: z.string() }));

export const TimedHash = z.object({
  state: z.enum(['scheduled', 'running', 'done', 'failed', 'cancelled']),
  kind: z.string().min(1),
  profile: z.string().min(1),
  key: z.string(),
  owner: z.string(),
  what: z.string(),
  payload: Json(z.unknown()),
  devices: Json(Devices),
  thread: Json(ThreadRefSchema).optional(),
  dueAt: z.coerce.number().int(),
  scheduledAt: z.coerce.number().int(),
  attempts: z.coerce.number().int().nonnegative(),
  round: z.coerce.number().int().nonnegative(),
  failures: z.coerce.number().int().nonnegative().default(0),
  summary: z.string().optional(),
  finishedAt: z.coerce.number().int().optional(),
});

export function parseTimedItem(id: string, hash: Record<string, string>): TimedItem | undefined {
  if (Object.keys(hash).length === 0) return undefined;
  const parsed = TimedHash.safeParse(hash);
  if (!parsed.success) return undefined;
  const { failures: _failures, thread, ...rest } = parsed.data;
  return { id, ...rest, ...(thread ? { thread } : {}) };
}
