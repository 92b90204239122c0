// What every section of the FWBOT_PROFILES file is written with: a mapping that refuses unknown keys one by
// one (so a typo never silently turns a setting off), the names the file writes (profiles, channels, teams,
// tenants, operations), zod's own issues in plain words, and the row each documented key adds to the
// configuration reference. Each section (this folder) declares its schema, settings, defaults and
// reference rows with these; profilesFileSchema.ts assembles them.
import { z } from 'zod';
import { SLACK_CHANNEL_ID, SLACK_ENTERPRISE_ID, SLACK_TEAM_ID } from '../slackIds.js';

/** Marks the issue raised for a key that the schema does not know; `known` feeds "did you mean …". */
export interface UnknownKeyParams {
  readonly unknownKey: true;
  readonly known: readonly string[];
}

export function isUnknownKeyParams(params: unknown): params is UnknownKeyParams {
  return typeof params === 'object' && params !== null && 'unknownKey' in params && 'known' in params;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object that refuses unknown keys. Unlike z.strictObject, the refusal is one issue per key, at that
 * key's path (so it gets its own line number) and carrying the allowed keys; and it is reported even when
 * other fields are wrong, so all problems show at once.
 */
export function closedObject<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.looseObject(shape).superRefine(
    (value, ctx) => {
      for (const key of Object.keys(value)) {
        if (known.includes(key)) continue;
        const params: UnknownKeyParams = { unknownKey: true, known };
        ctx.addIssue({ code: 'custom', path: [key], message: 'is not a known key', params });
      }
    },
    { when: (payload) => isObject(payload.value) },
  );
}

export const PROFILE_NAME = /^[a-z][a-z0-9_-]{0,29}$/;
export const PROFILE_NAME_RULE =
  'must be a profile name: a lower-case letter, then up to 29 of a-z, 0-9, - and _';

export const profileName = z.string().regex(PROFILE_NAME, PROFILE_NAME_RULE);

export const channelId = z
  .string()
  .regex(SLACK_CHANNEL_ID, 'is not a Slack channel id (C…, G… or D… then 8–20 capital letters and digits)');

/** A workspace (T…) or, for an Enterprise Grid org-wide install, the organization (E…). */
export const teamId = z.string().refine((id) => SLACK_TEAM_ID.test(id) || SLACK_ENTERPRISE_ID.test(id), {
  message:
    'is not a Slack team id (T…, or E… for an Enterprise Grid organization, then 8–20 capital letters and digits)',
});

export const tenantName = z.string().trim().min(1, 'is empty; give a managed tenant’s name');

/** An operation id as help and the command table show it: `tenants.token`, `trace`. */
export const operationId = z
  .string()
  .regex(/^[a-z-]+(\.[a-z-]+)*$/, 'must be an operation id such as tenants.token');

/** One row of the file format's reference. `<name>`, `<channel>` and `<role>` stand for any such key. */
export interface ProfilesFileKey {
  readonly key: string;
  readonly description: string;
  readonly default: string | undefined;
  /** How the key is written, as a YAML line. */
  readonly example: string;
}

/**
 * Plain words for zod's own issues, passed as the parse's error map (the schema's custom checks bring
 * their own messages). Never quotes the input.
 */
export function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      if (issue.input === null) return `is empty; expected ${describeType(issue.expected)}`;
      return `must be ${describeType(issue.expected)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return undefined;
  }
}

function describeType(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'a mapping (key: value)';
    default:
      return expected;
  }
}
