// The View (./view.ts) as it is kept in Redis until it is shown: a queued call's outcome, an approval's
// outcome, a notification, an incident's thread reply. Every field of the model round-trips, so what is
// posted later reads as the view did when it was made. Parsed with zod when read back.
import { z } from 'zod';
import type { View } from './view.js';

const StoredConfirm = z.object({
  title: z.string(),
  text: z.string(),
  confirm: z.string(),
  deny: z.string(),
  danger: z.boolean().optional(),
});

const StoredButton = z.object({
  label: z.string(),
  action: z.object({ id: z.string(), value: z.string() }).optional(),
  url: z.string().optional(),
  style: z.enum(['primary', 'danger']).optional(),
  confirm: StoredConfirm.optional(),
});

const StoredBlock = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('header'), text: z.string() }),
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({
    kind: z.literal('fields'),
    fields: z.array(z.object({ label: z.string(), value: z.string() })),
  }),
  z.object({
    kind: z.literal('table'),
    columns: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    caption: z.string().optional(),
    numeric: z.array(z.number().int().nonnegative()).optional(),
  }),
  z.object({
    kind: z.literal('code'),
    text: z.string(),
    filename: z.string().optional(),
    preview: z.object({ lines: z.array(z.string()), what: z.string() }).optional(),
  }),
  z.object({ kind: z.literal('context'), text: z.string() }),
  z.object({ kind: z.literal('actions'), buttons: z.array(StoredButton) }),
  z.object({ kind: z.literal('divider') }),
]);

export const StoredView: z.ZodType<View> = z.object({
  summary: z.string(),
  visibility: z.enum(['ephemeral', 'in_channel']),
  blocks: z.array(StoredBlock),
});
