// Keeps secrets out of everything the SCC client produces for humans or logs: error messages, error bodies
// echoed by SCC, causes from the network stack. The client's own token is always a secret; so is any API
// token it sends in a body (adding a tenant by token) and anything shaped like a bearer credential or a JWT,
// because SCC hands out API tokens (generateApiTokenForUserInTenant) and may echo one back in an error.
export const REDACTED = '[REDACTED]';

export type Redact = (text: string) => string;

// A JWT: three base64url parts, the first two starting with `eyJ` (`{"`).
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;

/** Secrets shorter than this are not searched for: replacing "a" everywhere would redact nothing useful. */
const MIN_SECRET_LENGTH = 6;

export function createRedactor(secrets: readonly (string | undefined)[]): Redact {
  const known = [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of known) out = out.split(secret).join(REDACTED);
    return out.replace(BEARER, `$1 ${REDACTED}`).replace(JWT, REDACTED);
  };
}

/** A deep copy of JSON-like data with every string redacted (error `details` echoed by SCC). */
export function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactDeep(inner, redact)]));
  }
  return value;
}

/**
 * The cause chain as given when it holds no secret (so `code`, class and properties survive for callers),
 * otherwise a copy whose messages and stacks are redacted. Errors from the network stack do not carry
 * request headers, but a cause may be anything a custom dispatcher threw.
 */
export function redactCause(cause: unknown, redact: Redact, depth = 0): unknown {
  if (typeof cause === 'string') return redact(cause);
  if (!(cause instanceof Error) || depth > 8) return cause;
  const inner = redactCause(cause.cause, redact, depth + 1);
  const message = redact(cause.message);
  const stack = cause.stack === undefined ? undefined : redact(cause.stack);
  if (message === cause.message && stack === cause.stack && inner === cause.cause) return cause;
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  if (stack !== undefined) copy.stack = stack;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}
