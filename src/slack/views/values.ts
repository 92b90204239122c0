// A submitted modal's state → raw arguments (what the grammar would have produced), and the operation's
// validation issues → what Slack shows for them: per-field errors (`response_action: errors`, keyed by
// block id), or a notice in place of the form when no field can carry them.
import type { ModalView } from '@slack/types';
import type { ArgIssue, Operation, RawArgs } from '../../catalogue/operation.js';
import { usageLine } from '../../catalogue/usage.js';
import { issueSentence } from '../../model/errors.js';
import type { InputState } from '../payloads.js';
import { FIELD_BLOCK_PREFIX, fieldBlockId, textNotice } from './modal.js';

type StateValues = Record<string, Record<string, InputState>>;

function submittedValue(state: InputState): string | string[] | boolean | undefined {
  switch (state.type) {
    case 'checkboxes':
      return (state.selected_options ?? []).some((option) => option.value === 'true');
    case 'multi_static_select':
    case 'multi_external_select': {
      const values = (state.selected_options ?? []).map((option) => option.value);
      return values.length > 0 ? values : undefined;
    }
    case 'static_select':
    case 'external_select':
      return state.selected_option?.value ?? undefined;
    default: {
      const text = state.value ?? undefined;
      return text === undefined || text.trim() === '' ? undefined : text;
    }
  }
}

/**
 * The raw arguments a submission gives, read from the state alone (fitted forms cannot be rebuilt before
 * the 3-second ack): every `f.<name>` block is the argument `<name>`; fields left empty are absent.
 */
export function rawFromState(values: StateValues): { raw: RawArgs; fields: string[] } {
  const raw: RawArgs = {};
  const fields: string[] = [];
  for (const [blockId, inputs] of Object.entries(values)) {
    if (!blockId.startsWith(FIELD_BLOCK_PREFIX)) continue;
    const name = blockId.slice(FIELD_BLOCK_PREFIX.length);
    const state = Object.values(inputs)[0];
    if (name === '' || !state) continue;
    fields.push(name);
    const value = submittedValue(state);
    if (value !== undefined) raw[name] = value;
  }
  return { raw, fields };
}

/** Slack accepts short error strings under a field. */
const ERROR_MAX = 300;

/**
 * Issues → errors under the fields they concern. An issue about an argument that has no field (or about
 * the whole command) is shown under the first field, naming the argument, so it is never lost.
 */
export function fieldErrors(fields: readonly string[], issues: readonly ArgIssue[]): Record<string, string> {
  const names = new Set(fields);
  const [first] = fields;
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const onField = issue.arg !== undefined && names.has(issue.arg);
    const target = onField ? issue.arg : first;
    if (target === undefined) continue;
    // Slack shows these as plain text: sentences, the argument in quotes where it is not the field's own.
    const text = (
      onField ? issueSentence({ arg: undefined, message: issue.message }) : issueSentence(issue)
    ).replace(/`([^`]+)`/g, '“$1”');
    const key = fieldBlockId(target);
    const joined = errors[key] ? `${errors[key]} ${text}` : text;
    errors[key] = joined.length > ERROR_MAX ? `${joined.slice(0, ERROR_MAX - 1)}…` : joined;
  }
  return errors;
}

/** The ack for a refused submission. */
export type SubmissionRefusal =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ModalView };

/** Title of the notice when the operation declares no form (metadata naming another operation). */
const REFUSAL_TITLE = 'fwbot';

/**
 * Issues under the fields when there is one to carry them. Slack only shows `errors` under input blocks
 * of the submitted view, and an empty map shows nothing at all (the form just sits there); a form with no
 * fields (every argument prefilled) would be left that way. Its user cannot fix the values in it either,
 * so the form is replaced by a notice saying what is wrong and what to type instead.
 */
export function submissionRefusal(
  op: Operation,
  fields: readonly string[],
  issues: readonly ArgIssue[],
): SubmissionRefusal {
  const errors = fieldErrors(fields, issues);
  if (Object.keys(errors).length > 0) return { response_action: 'errors', errors };
  const lines = issues.map((issue) =>
    issue.arg === undefined ? issue.message : `${issue.arg}: ${issue.message}`,
  );
  const text = `This form cannot be sent as it is:\n${lines.join('\n')}\nUsage: \`${usageLine(op)}\``;
  return { response_action: 'update', view: textNotice(op.modal?.title ?? REFUSAL_TITLE, text) };
}
