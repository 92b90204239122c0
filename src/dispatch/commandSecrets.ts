// API tokens never travel in command text: slash-command text can end up in Slack's and fwbot's logs and
// in people's shell-like habits of repeating commands. A command that looks like it carries one is
// refused before anything (logging included) touches its text; the refusal points to the form that
// takes the token privately.
import { looksLikeCredential } from '../config/credentials.js';

// Redaction of typed text lives with what credentials look like; its callers here keep their import.
export { redactCommandText } from '../config/credentials.js';

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
