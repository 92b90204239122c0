// A button that runs a command line (COMMAND_ACTION, src/render/paging.ts: "Deploy…", an incident's
// Acknowledge or "Show the change-log diff"), read the same way on every surface: its value is the command as
// typed (a `--profile` in it is an admin's choice of profile), dispatched as a `button` entry, which only
// operations declaring `offeredAsButton` accept, with the clicker's roles, approvals and audit. A button
// cannot carry what the policy asks of the person who makes a change (the change ticket), so it opens a
// form for that first (requiredByPolicy, through Dispatcher.buttonForm), prefilled with the button's
// arguments, and the answers are dispatched like the typed command.
import type { Catalogue } from '../catalogue/index.js';
import type { ModalField, Operation, RawArgs } from '../catalogue/operation.js';
import { ticketField, ticketOf } from '../catalogue/tickets.js';
import type { ChangeSettings } from '../config/profilesFileSchema.js';
import { UserError } from '../model/errors.js';
import { readCommandLine } from './commandLine.js';
import { CREDENTIAL_REFUSAL } from './commandSecrets.js';

/** What a command button asks the dispatcher (a Dispatcher invocation). */
export interface ButtonInvocation {
  op: Operation;
  raw: RawArgs;
  commandText: string;
  profileOverride: string | undefined;
  entry: 'button';
  /**
   * The line opens the operation's form rather than run, as typed (`access request` alone, the App Home's
   * *Request access*): the form's submission is dispatched like the typed command's form.
   */
  modal?: boolean;
}

/**
 * The invocation a command button's value makes, read as a typed line is (commandLine.ts): a UserError, or
 * the grammar's own error, when the line does not read.
 */
export function commandButtonInvocation(
  catalogue: Pick<Catalogue, 'parse' | 'command'>,
  value: string,
): ButtonInvocation {
  const read = readCommandLine(catalogue, value.replace(/^\/?fw\s+/, ''));
  if (read.kind === 'withheld') throw new UserError(CREDENTIAL_REFUSAL);
  if (read.kind === 'unreadable') throw read.error;
  const { op, raw, commandText, profileOverride, modal } = read;
  return { op, raw, commandText, profileOverride, entry: 'button', ...(modal ? { modal } : {}) };
}

/** The form a button opens before its call is dispatched: fields of what the policy requires. */
export interface ButtonForm {
  title: string;
  submit: string;
  fields: ModalField[];
}

/**
 * What the policy requires of this call that its arguments do not carry, as form fields; empty when nothing
 * is missing. Decided from the declaration (`makesChange`: every call of an operation that takes a ticket,
 * but a GET of the gateway) and the policy's `changes`: the ticket, when it is required.
 */
export function requiredByPolicy(
  op: Operation,
  raw: RawArgs,
  changes: ChangeSettings | undefined,
): ModalField[] {
  if (changes?.ticket !== 'required' || ticketOf(raw) !== undefined || !op.makesChange(raw)) return [];
  return [
    {
      ...ticketField,
      optional: false,
      hint: 'The policy asks for the change ticket of every change to SCC or a device.',
    },
  ];
}

/** The form's title and submit label: the operation's own form's, else its words. */
export function buttonFormOf(op: Operation, fields: ModalField[]): ButtonForm {
  const words = op.words.join(' ');
  return {
    title: op.modal?.title ?? `${words.charAt(0).toUpperCase()}${words.slice(1)}`,
    submit: op.modal?.submit ?? 'Continue',
    fields,
  };
}
