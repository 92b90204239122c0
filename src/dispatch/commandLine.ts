// A typed /fw line read once, where it enters fwbot (the Slack listener; the command queue then carries what
// was read, never the text): text that looks like it holds a token is withheld unread, `--profile` is taken
// out, and the rest goes to the catalogue's grammar. The result is the call to dispatch, or why there is none.
import type { Catalogue } from '../catalogue/index.js';
import type { Operation, RawArgs } from '../catalogue/operation.js';
import { containsCredential, redactCommandText } from './commandSecrets.js';
import { extractProfileFlag } from './profileFlag.js';

export type CommandRead =
  /** It looks like it holds a token: nothing of it is read, kept or logged (CREDENTIAL_REFUSAL says why). */
  | { kind: 'withheld' }
  /** The grammar or `--profile` refused it: `error` says why in the user's words (did-you-mean, usage). */
  | { kind: 'unreadable'; commandText: string; error: unknown }
  | {
      kind: 'invocation';
      op: Operation;
      raw: RawArgs;
      /** The surface opens the operation's form (prefilled with `raw`) instead of running it. */
      modal: boolean;
      /** The whole line as typed (`/fw devices --profile lab`), for approvals, audit and logs. */
      commandText: string;
      profileOverride: string | undefined;
    };

export function readCommandLine(catalogue: Pick<Catalogue, 'parse' | 'command'>, text: string): CommandRead {
  if (containsCredential(text)) return { kind: 'withheld' };
  const commandText = `${catalogue.command} ${text}`.trim();
  try {
    const { text: rest, profile } = extractProfileFlag(text);
    const { op, raw, modal } = catalogue.parse(rest);
    return { kind: 'invocation', op, raw, modal, commandText, profileOverride: profile };
  } catch (error) {
    return { kind: 'unreadable', commandText, error };
  }
}

/** The line as logs may show it: never text that looked like a token, and secrets' values redacted. */
export function shownLine(read: CommandRead): string {
  return read.kind === 'withheld' ? '[withheld]' : redactCommandText(read.commandText);
}
