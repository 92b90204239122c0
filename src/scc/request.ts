// Turns `call(operationId, { path, query, body })` into the exact HTTP request the reference describes, or
// refuses it with an SccInputError before anything is sent: path parameters substituted and percent-encoded,
// query parameters encoded as the reference says (integers as text, arrays as repeated `name=value` pairs,
// booleans as `true`/`false`, undefined omitted), the body checked with the operation's strict input schema.
import { z } from 'zod';
import { formatPath, SccInputError } from './errors.js';
import { type SccOperationId, sccOperations } from './operationTypes.js';

/** The generated row of one operation, seen through the shape every row shares. */
export interface OperationRow {
  method: string;
  path: string;
  pathParams: readonly string[];
  query: readonly { name: string; required: boolean; array: boolean }[];
  body: z.ZodType | null;
  bodyRequired: boolean;
  responses: Readonly<Record<number, z.ZodType | null>>;
}

export function operationRow(operationId: SccOperationId): OperationRow {
  return sccOperations[operationId];
}

/** `call` parameters without the per-operation typing, as the builder checks them at run time. */
export interface LooseCallParams {
  path?: Readonly<Record<string, string>> | undefined;
  query?: Readonly<Record<string, unknown>> | undefined;
  body?: unknown;
}

export interface BuiltRequest {
  method: string;
  /** Percent-encoded path, e.g. /v1/inventory/devices/a%2Fb */
  path: string;
  /** Encoded query without `?`, parameters in the order the reference lists them. */
  query: string;
  body: unknown;
  /** Strings from the body that must not appear in errors (an API token being handed to SCC). */
  secrets: string[];
}

/** The reference caps every list at 200 items a page (`limit`: minimum 0, maximum 200). */
export const MAX_PAGE_LIMIT = 200;

/** `limit` and `offset` are text on the wire; a caller may give them as numbers or as integer text. */
const integerText = (value: unknown): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

const uniqueItems = (items: readonly unknown[]): boolean => new Set(items).size === items.length;

/**
 * encodeURIComponent for SCC URLs. It throws URIError on a lone surrogate, which user text (a broken
 * emoji from Slack) can carry; the grammar and the Slack payload schemas make text well-formed already,
 * and this keeps any other path in from turning such text into an internal error (U+FFFD is sent instead).
 */
export function encodeUrlPart(text: string): string {
  return encodeURIComponent(text.toWellFormed());
}

/**
 * Query parameters with rules beyond "text": the generator emits body schemas only, so the reference's
 * parameter constraints that matter for correct calls are restated here (values from the reference).
 */
const QUERY_RULES: Readonly<Record<string, z.ZodType>> = {
  limit: z.preprocess(integerText, z.number().int().min(0).max(MAX_PAGE_LIMIT)),
  offset: z.preprocess(integerText, z.number().int().min(0)),
  // getAsa/FtdCompatibleSecureClientVersions: 1–50 unique device UUIDs.
  deviceUids: z.array(z.guid()).min(1).max(50).refine(uniqueItems, { message: 'must not repeat a device' }),
};

export function buildRequest(operationId: SccOperationId, params: LooseCallParams): BuiltRequest {
  const op = operationRow(operationId);
  const issues: string[] = [];
  const path = buildPath(op, params.path ?? {}, issues);
  const query = buildQuery(operationId, op, params.query ?? {}, issues);
  const body = checkBody(operationId, op, params.body, issues);
  if (issues.length > 0) {
    throw new SccInputError({
      operationId,
      method: op.method,
      path: op.path,
      issues,
      secrets: secretsIn(params.body),
    });
  }
  return { method: op.method, path, query, body, secrets: secretsIn(params.body) };
}

function buildPath(op: OperationRow, values: Readonly<Record<string, string>>, issues: string[]): string {
  for (const name of Object.keys(values)) {
    if (!op.pathParams.includes(name)) issues.push(`${name} is not a path parameter of ${op.path}`);
  }
  return op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') {
      issues.push(`${name} is required`);
      return '';
    }
    // "." and ".." would be resolved away by URL normalisation somewhere between here and SCC.
    if (value === '.' || value === '..') {
      issues.push(`${name} must not be "${value}"`);
      return '';
    }
    return encodeUrlPart(value);
  });
}

function buildQuery(
  operationId: SccOperationId,
  op: OperationRow,
  values: Readonly<Record<string, unknown>>,
  issues: string[],
): string {
  const declared = new Map(op.query.map((param) => [param.name, param]));
  for (const name of Object.keys(values)) {
    if (!declared.has(name)) issues.push(`${operationId} takes no query parameter ${name}`);
  }
  const pairs: string[] = [];
  for (const param of op.query) {
    const value = values[param.name];
    const empty = value === undefined || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (param.required) issues.push(`${param.name} is required`);
      continue;
    }
    const rule = QUERY_RULES[param.name];
    const checked = rule?.safeParse(value);
    if (checked && !checked.success) {
      for (const issue of checked.error.issues) {
        issues.push(`${[param.name, formatPath(issue.path)].filter(Boolean).join('')}: ${issue.message}`);
      }
      continue;
    }
    const texts = param.array ? arrayTexts(param.name, value, issues) : scalarText(param.name, value, issues);
    for (const text of texts) pairs.push(`${encodeUrlPart(param.name)}=${encodeUrlPart(text)}`);
  }
  return pairs.join('&');
}

function arrayTexts(name: string, value: unknown, issues: string[]): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    issues.push(`${name} must be a list of text values`);
    return [];
  }
  return value;
}

function scalarText(name: string, value: unknown, issues: string[]): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'boolean') return [value ? 'true' : 'false'];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  issues.push(`${name} must be text, a number or a boolean`);
  return [];
}

function checkBody(operationId: SccOperationId, op: OperationRow, body: unknown, issues: string[]): unknown {
  if (op.body === null) {
    if (body !== undefined) issues.push(`${operationId} takes no request body`);
    return undefined;
  }
  if (body === undefined) {
    if (op.bodyRequired) issues.push('a request body is required');
    return undefined;
  }
  const parsed = op.body.safeParse(body);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    issues.push(`${['body', formatPath(issue.path)].filter(Boolean).join('.')}: ${issue.message}`);
  }
  return undefined;
}

/** API tokens handed to SCC in a body (adding a tenant by token) are as secret as the client's own. */
function secretsIn(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body).flatMap(([key, value]) =>
    /token/i.test(key) && typeof value === 'string' ? [value] : [],
  );
}
