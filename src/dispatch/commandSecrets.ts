// API tokens never travel in command text: slash-command text can end up in Slack's and fwbot's logs and
// in people's shell-like habits of repeating commands. A command that looks like it carries one is
// refused before anything (logging included) touches its text; the refusal points to the form that
// takes the token privately.
import { looksLikeCredential } from '../config/credentials.js';
import { REDACTED } from '../scc/redaction.js';

// Shapes found anywhere in the text: a JWT (SCC tokens are JWTs), Slack tokens, a bearer header, and a
// long opaque run of token characters (64+, no separators, so UUIDs, names and paths do not match).
// Each is checked in time linear in the text's length, whatever it holds (the text is anyone's to type):
// the JWT shape is anchored on its dot and looks back for the header, because `\beyJ[\w-]{8,}\.` tried
// from every `eyJ` of a run like `eyJ-eyJ-eyJ-…` (\b holds after a dash) scans to the run's end from
// each of them, quadratic (about 5 s for 100,000 characters). Both find a match in exactly the same texts:
// a dot with `\beyJ` and 8+ of [\w-] right before it and 8+ of [\w-] after it. A shape's open-ended
// tail (`{8,}`) is written as its minimum (`{8}`): `test` asks only whether there is a match, and the
// minimum says so without reading the rest of the run.
const EMBEDDED = [
  /\.(?<=\beyJ[\w-]{8,}\.)[\w-]{8}/,
  /\bxox[a-z]-[\w-]{6}/i,
  /\bxapp-[\w-]{6}/i,
  /\bbearer\s+\S{16}/i,
  /(?:^|[\s"'=:,[{(])[A-Za-z0-9_-]{64,}(?=$|[\s"',\]})])/,
];

export function containsCredential(text: string): boolean {
  if (EMBEDDED.some((shape) => shape.test(text))) return true;
  return text.split(/[\s"'“”‘’]+/).some((word) => word !== '' && looksLikeCredential(word));
}

export const CREDENTIAL_REFUSAL =
  ':no_entry: That command looks like it contains an API token, so fwbot did not run it and did not log ' +
  'it. Tokens are never typed into commands: to add a tenant by its token, run `/fw tenants add` with no ' +
  'arguments and paste the token into the form it opens. If this was a real token, consider rotating it.';

// What `redactCommandText` replaces, in time linear in the text (see EMBEDDED): each run of token
// characters is tested whole against anchored shapes (a JWT, a Slack token, a long opaque run), then a value
// written after `bearer` or after a word that names a secret (`token=…`, `password: …`), quoted or not.
const WORD = /[\w.-]+/g;
const SECRET_WORD = [/^eyJ[\w-]{8,}\.[\w-]{8,}/, /^x(?:ox[a-z]|app)-[\w-]{6,}/i, /^[\w-]{64,}$/];
const BEARER_VALUE = /\b(bearer)\s+\S+/gi;
const NAMED_SECRET =
  /\b(token|secret|password|passwd|api[_-]?key)(\s*[=:]\s*)("[^"]*"|'[^']*'|“[^”]*”|\S+)/gi;

/**
 * Command text as it may be logged or kept (the logs, a person's recent commands on the Home, the approval
 * card, the audit trail, a finished job in the command queue): every credential shape and every value named
 * as a secret replaced by [REDACTED]. One function, so every place that keeps a command's text keeps the
 * same words.
 */
export function redactCommandText(text: string): string {
  return text
    .replace(NAMED_SECRET, `$1$2${REDACTED}`)
    .replace(BEARER_VALUE, `$1 ${REDACTED}`)
    .replace(WORD, (word) => (SECRET_WORD.some((shape) => shape.test(word)) ? REDACTED : word));
}
