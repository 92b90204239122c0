// Input checks shared by every handler: request bodies parsed with the generated strict zod schemas,
// UUID path parameters, and 400 INVALID_INPUT answers whose `details` name each offending field.
import type { z } from 'zod';
import { type ErrorDetails, invalidInput } from '../errors.js';
import type { RequestContext } from './context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Turns zod issues into CommonApiError details keyed by the field path (e.g. `users.3.role`). */
export function issueDetails(issues: readonly z.core.$ZodIssue[], prefix?: string): ErrorDetails {
  const details: ErrorDetails = {};
  for (const issue of issues) {
    const path =
      [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.') || 'body';
    details[path] ??= { message: issue.message, code: issue.code };
  }
  return details;
}

export function parseBody<S extends z.ZodType>(
  ctx: RequestContext,
  schema: S,
  required = true,
): z.output<S> | undefined {
  if (ctx.body === undefined) {
    if (!required) return undefined;
    throw invalidInput('A JSON request body is required', { body: { message: 'missing request body' } });
  }
  const result = schema.safeParse(ctx.body);
  if (!result.success) {
    const details = issueDetails(result.error.issues);
    throw invalidInput(`Invalid request body: ${describe(details)}`, details);
  }
  return result.data;
}

/** Like parseBody for operations whose body is required: never undefined. */
export function requireBody<S extends z.ZodType>(ctx: RequestContext, schema: S): z.output<S> {
  const body = parseBody(ctx, schema, true);
  if (body === undefined) throw invalidInput('A JSON request body is required');
  return body;
}

export function uuidParam(ctx: RequestContext, name: string): string {
  const value = ctx.params[name] ?? '';
  if (!isUuid(value)) {
    throw invalidInput(`${name} must be a UUID`, { [name]: { message: 'must be a UUID', value } });
  }
  return value.toLowerCase();
}

/** A short human summary of details for errorMsg: "tenantName: Invalid string; users: Too big". */
export function describe(details: ErrorDetails): string {
  return Object.entries(details)
    .slice(0, 5)
    .map(([field, d]) => `${field}: ${typeof d.message === 'string' ? d.message : 'invalid'}`)
    .join('; ');
}
