// zod building blocks for operation arguments. Raw arguments arrive as text (from the grammar or a modal),
// so numbers and flags are coerced here, and every rule speaks in the user's terms: the message follows the
// argument's name ("mtu: must be a whole number from 64 to 9198"). Ranges and patterns are the reference's.
import { z } from 'zod';
import { redactCommandText } from '../config/credentials.js';
import type { RawArgs } from './operation.js';

/** One raw argument as the grammar or a modal gives it; schemas declare it as their input type. */
export type RawValue = RawArgs[string];

/** `z.preprocess` whose input is a raw argument, so object schemas stay assignable to `RawArgs`. */
function fromRaw<U extends z.ZodType>(prepare: (value: RawValue) => unknown, schema: U) {
  return z.preprocess(prepare, schema);
}

/** SCC writes UUIDs in the 8-4-4-4-12 hex form; version and variant bits are not checked (nor by SCC). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/** Empty text (an untouched modal field) counts as not given. */
function blankToUndefined(value: RawValue): RawValue {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

const required = {
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required.' : 'must be text.'),
};

/** Required text, trimmed. */
export function text() {
  return fromRaw(blankToUndefined, z.string(required).trim());
}

export function optionalText() {
  return fromRaw(blankToUndefined, z.string(required).trim().optional());
}

/**
 * Optional free text that is shown and kept as typed (a break-glass reason, a deploy's description: on the
 * card, in Redis, in the thread, the audit trail, the scheduled list, SCC's own records): any secret in it
 * redacted as a command's text is (`password=…` → `password=[REDACTED]`), from the moment it is read, so no
 * copy of it holds the secret.
 */
export function keptText() {
  return fromRaw(blankToUndefined, z.string(required).trim().transform(redactCommandText).optional());
}

/** A text kept before keptText existed (a fact read back from Redis), redacted as keptText would have. */
export const redactedText = z.string().transform(redactCommandText);

export function uuid() {
  return fromRaw(
    blankToUndefined,
    z
      .string(required)
      .trim()
      .regex(UUID_PATTERN, 'must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6.'),
  );
}

function intSchema(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}.`;
  return z
    .string(required)
    .trim()
    .regex(/^-?\d+$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

export function int(min: number, max: number) {
  return fromRaw(blankToUndefined, intSchema(min, max));
}

export function optionalInt(min: number, max: number) {
  return fromRaw(blankToUndefined, intSchema(min, max).optional());
}

/** A flag or checkbox: true/false, also written as text by the grammar (`--dedicated=false`). */
export function flag() {
  return fromRaw(
    (value) => (typeof value === 'string' ? /^(true|yes|on|1)$/i.test(value.trim()) : value),
    z.boolean().optional().default(false),
  );
}

/** A flag that is left out of a change when not given (e.g. `enabled` on an interface edit). */
export function optionalBoolean() {
  return fromRaw((value) => {
    if (typeof value !== 'string') return value;
    const word = value.trim().toLowerCase();
    if (word === '') return undefined;
    if (/^(true|yes|on|1|enabled?)$/.test(word)) return true;
    if (/^(false|no|off|0|disabled?)$/.test(word)) return false;
    return value;
  }, z.boolean({ error: 'must be yes or no.' }).optional());
}

/**
 * Several values: words from the grammar (`<username…>`), a multi-select, or a multiline field with one
 * value per line (commas also separate). Blank entries are dropped.
 */
export function list(options: { min?: number; max?: number; what?: string } = {}) {
  const what = options.what ?? 'values';
  let schema = z.array(z.string());
  if (options.min !== undefined)
    schema = schema.min(
      options.min,
      options.min === 1 ? 'needs at least one.' : `needs at least ${options.min} ${what}.`,
    );
  if (options.max !== undefined) schema = schema.max(options.max, `takes at most ${options.max} ${what}.`);
  return fromRaw((value) => {
    const items = typeof value === 'string' ? value.split(/[\n,]/) : Array.isArray(value) ? value : [];
    return items.map((item) => item.trim()).filter((item) => item !== '');
  }, schema);
}

/** The offset a paging button or `--offset` asks for. */
export function offset() {
  return fromRaw(
    (value) => blankToUndefined(value) ?? '0',
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number, 0 or more.')
      .transform(Number)
      .pipe(z.number().int().min(0).max(1_000_000, 'must be a whole number, 0 or more.')),
  );
}

/** Items in an array must be unique (the reference's `uniqueItems`), named in the message. */
export function unique<T>(items: readonly T[]): T | undefined {
  const seen = new Set<T>();
  for (const item of items) {
    if (seen.has(item)) return item;
    seen.add(item);
  }
  return undefined;
}

/**
 * One of a closed set of values, written loosely: case, `-` or spaces for `_`, and an optional prefix
 * (`read-only` → `ROLE_READ_ONLY` with prefix `ROLE_`). The message lists the values as people type them.
 */
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  options: { prefix?: string; optional?: boolean } = {},
) {
  const prefix = options.prefix ?? '';
  const spoken = values.map((value) => value.slice(prefix.length).toLowerCase().replace(/_/g, '-'));
  const message = `must be one of ${spoken.join(', ')}.`;
  const normalise = (value: RawValue): RawValue => {
    if (typeof value !== 'string' || value.trim() === '') return value === '' ? undefined : value;
    const upper = value
      .trim()
      .toUpperCase()
      .replace(/[-\s]+/g, '_');
    return upper.startsWith(prefix) ? upper : `${prefix}${upper}`;
  };
  const schema = z.enum(values, { error: (issue) => (issue.input === undefined ? 'is required.' : message) });
  return options.optional ? fromRaw(normalise, schema.optional()) : fromRaw(normalise, schema);
}
