// What tokens look like: the checks on SCC and Slack credentials given in the environment, the detector
// that spots a credential written where it does not belong (in the profiles file, in the wrong variable),
// and the redaction of secrets in text people typed. Messages describe the mistake without quoting any
// part of the value.
import { REDACTED } from '../scc/redaction.js';
import { accept, type Checked, refuse } from './issues.js';

// A JWT (SCC API tokens are JWTs), a Slack token, or an Authorization header value.
const CREDENTIAL_SHAPES = [
  /^eyJ[\w-]{8,}\.[\w-]{8,}/,
  /^xox[a-z]-[\w-]{6,}/i,
  /^xapp-[\w-]{6,}/i,
  /^bearer\s+\S/i,
];

/** True when the text is shaped like a credential, so it must never be echoed or kept in a file. */
export function looksLikeCredential(text: string): boolean {
  const trimmed = text.trim();
  return CREDENTIAL_SHAPES.some((shape) => shape.test(trimmed));
}

// Names a mistaken key might have when someone tries to write a token into the profiles file.
const CREDENTIAL_KEY = /(^|_|-)(token|secret|password|passwd|api_?key|bearer|credentials?)$/i;

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key);
}

type SlackTokenKind = 'bot' | 'app' | 'user';

function slackTokenKind(raw: string): SlackTokenKind | undefined {
  if (raw.startsWith('xoxb-')) return 'bot';
  if (raw.startsWith('xapp-')) return 'app';
  if (/^xox[a-z]-/.test(raw)) return 'user';
  return undefined;
}

const WHERE_SLACK_TOKEN_BELONGS: Record<SlackTokenKind, string> = {
  bot: 'is a Slack bot token (xoxb-…), not an SCC API token; it belongs in SLACK_BOT_TOKEN',
  app: 'is a Slack app-level token (xapp-…), not an SCC API token; it belongs in SLACK_APP_TOKEN',
  user: 'is a Slack token, not an SCC API token',
};

/** An SCC API token: sent as `Authorization: Bearer <token>`, so it must be the bare token. */
export function checkSccToken(raw: string): Checked<string> {
  if (/^bearer\s/i.test(raw))
    return refuse('starts with "Bearer "; give the token alone, fwbot adds the scheme');
  if (/\s/.test(raw)) return refuse('contains white space; a token is one unbroken string');
  const slackKind = slackTokenKind(raw);
  if (slackKind !== undefined) return refuse(WHERE_SLACK_TOKEN_BELONGS[slackKind]);
  return accept(raw);
}

export function checkSlackBotToken(raw: string): Checked<string> {
  if (/\s/.test(raw)) return refuse('contains white space; a token is one unbroken string');
  switch (slackTokenKind(raw)) {
    case 'bot':
      return accept(raw);
    case 'app':
      return refuse(
        'is an app-level token (xapp-…); it belongs in SLACK_APP_TOKEN, and this variable takes the bot token (xoxb-…)',
      );
    case 'user':
      return refuse('is not a bot token; use the Bot User OAuth Token (xoxb-…) from OAuth & Permissions');
    default:
      return refuse('must start with xoxb- (the Bot User OAuth Token from OAuth & Permissions)');
  }
}

export function checkSlackAppToken(raw: string): Checked<string> {
  if (/\s/.test(raw)) return refuse('contains white space; a token is one unbroken string');
  switch (slackTokenKind(raw)) {
    case 'app':
      return accept(raw);
    case 'bot':
      return refuse(
        'is a bot token (xoxb-…); it belongs in SLACK_BOT_TOKEN, and this variable takes the app-level token (xapp-…)',
      );
    default:
      return refuse(
        'must start with xapp- (an app-level token with the connections:write scope, from Basic Information)',
      );
  }
}

export function checkSigningSecret(raw: string): Checked<string> {
  if (/\s/.test(raw)) return refuse('contains white space; the signing secret is one unbroken string');
  if (slackTokenKind(raw) !== undefined || looksLikeCredential(raw)) {
    return refuse(
      'is a token, not the signing secret; copy the Signing Secret from Basic Information → App Credentials',
    );
  }
  return accept(raw);
}

// What `redactCommandText` replaces, in time linear in the text (a run is tested whole, never from each of its
// characters): each run of token
// characters is tested whole against anchored shapes (a JWT, a Slack token, a long opaque run), then a value
// written after `bearer` or after a word that names a secret (`token=…`, `password: …`), quoted or not.
const WORD = /[\w.-]+/g;
const SECRET_WORD = [/^eyJ[\w-]{8,}\.[\w-]{8,}/, /^x(?:ox[a-z]|app)-[\w-]{6,}/i, /^[\w-]{64,}$/];
const BEARER_VALUE = /\b(bearer)\s+\S+/gi;
const NAMED_SECRET =
  /\b(token|secret|password|passwd|api[_-]?key)(\s*[=:]\s*)("[^"]*"|'[^']*'|“[^”]*”|\S+)/gi;

/**
 * Text people typed as it may be logged, kept or shown: a command's text (the logs, a person's recent
 * commands on the Home, the approval card, the audit trail, a finished job in the command queue) and the
 * free text some arguments carry (a break-glass reason, a deploy's description: src/catalogue/args.ts
 * keptText). Every credential shape and every value named as a secret replaced by [REDACTED]. One
 * function, so every place that keeps typed text keeps the same words.
 */
export function redactCommandText(text: string): string {
  return text
    .replace(NAMED_SECRET, `$1$2${REDACTED}`)
    .replace(BEARER_VALUE, `$1 ${REDACTED}`)
    .replace(WORD, (word) => (SECRET_WORD.some((shape) => shape.test(word)) ? REDACTED : word));
}
