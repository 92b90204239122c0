// Secret values (API tokens, signing secrets, passwords in URLs): a wrapper that prints as [redacted]
// everywhere a value can leak (String(), template literals, JSON, util.inspect, console.log), and the
// scrubbing that keeps secrets out of error text built from user input.
import { inspect } from 'node:util';

export const REDACTED = '[redacted]';

/**
 * A secret string. The value lives in a private field, which JSON.stringify, util.inspect and
 * structuredClone cannot see; code that needs it calls reveal() at the point of use.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
    Object.freeze(this);
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

// Shorter values are not real credentials, and scrubbing them would garble ordinary words.
const MIN_SCRUB_LENGTH = 6;

/**
 * Replaces every occurrence of each secret in `text` with [redacted]. Error messages never quote
 * values in the first place; this is the second line of defence for text that comes from elsewhere
 * (paths, keys, library messages).
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let scrubbed = text;
  // Longest first, so a secret containing another one is removed whole.
  const ordered = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SCRUB_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of ordered) scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed;
}
