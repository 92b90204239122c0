// Modals become prompts: an operation's form (ModalSpec, as catalogue/forms.ts shows it: each option once,
// and a form that cannot be filled refused with why) is asked field by field — options numbered,
// checkboxes as yes/no, secret fields read without echo — and the answers become raw arguments, checked
// by the operation's own validation; fields it refuses are asked again with the reason.
import { formFields } from '../catalogue/forms.js';
import type {
  ModalField,
  ModalOption,
  Operation,
  OperationContext,
  RawArgs,
} from '../catalogue/operation.js';
import type { ButtonForm } from '../dispatch/buttons.js';

export interface Prompter {
  /** Whether what is printed may carry ANSI styles (a TTY that allows colour). */
  readonly styled?: boolean;
  /** One line of input; undefined when the input has ended. */
  ask(question: string, options?: { secret?: boolean }): Promise<string | undefined>;
  print(text: string): void;
}

/** The user gave up (empty input on a required field twice, or the input ended). */
export class FormAbandoned extends Error {
  override readonly name = 'FormAbandoned';
}

const ROUNDS = 3;

function pickOption(field: ModalField, answer: string): ModalOption | undefined {
  const options = field.options ?? [];
  const byNumber = /^\d+$/.test(answer) ? options[Number(answer) - 1] : undefined;
  if (byNumber) return byNumber;
  const lowered = answer.toLowerCase();
  return options.find((o) => o.value.toLowerCase() === lowered || o.label.toLowerCase() === lowered);
}

function pick(field: ModalField, answer: string): string | undefined {
  return pickOption(field, answer)?.value;
}

/** A yes/no answer, in the words the grammar takes for booleans (args.ts optionalBoolean). */
function yesNo(answer: string): boolean | undefined {
  const word = answer.trim().toLowerCase();
  if (/^(y|yes|true|on|1|enabled?)$/.test(word)) return true;
  if (/^(n|no|false|off|0|disabled?)$/.test(word)) return false;
  return undefined;
}

/** How to type an option so that pick() finds it again: its label, or its number when the label is ambiguous. */
function optionAnswer(field: ModalField, option: ModalOption): string {
  const options = field.options ?? [];
  const label = option.label.toLowerCase();
  const unique =
    options.filter((o) => o.label.toLowerCase() === label || o.value.toLowerCase() === label).length === 1;
  return unique && !/^\d+$/.test(label) && !label.includes(',')
    ? option.label
    : String(options.indexOf(option) + 1);
}

/** A value (typed on the command line, or the form's own initial value) as the answer that field takes. */
function answerOf(field: ModalField, value: RawArgs[string] | ModalField['initial']): string | undefined {
  if (value === undefined) return undefined;
  switch (field.input) {
    case 'checkbox': {
      const yes = typeof value === 'boolean' ? value : yesNo(String(value));
      return yes === undefined ? undefined : yes ? 'yes' : 'no';
    }
    case 'select': {
      const option = typeof value === 'string' ? pickOption(field, value) : undefined;
      return option && optionAnswer(field, option);
    }
    case 'multi_select': {
      const values = typeof value === 'string' ? splitList(value) : Array.isArray(value) ? value : [];
      const options = values.map((v) => pickOption(field, v));
      if (values.length === 0 || !options.every((o) => o !== undefined)) return undefined;
      return options.map((o) => optionAnswer(field, o)).join(', ');
    }
    default:
      if (typeof value === 'boolean') return value ? 'yes' : 'no';
      return Array.isArray(value) ? value.join(', ') : String(value);
  }
}

/**
 * The default shown in brackets, which Enter keeps: what was typed for the field if the field takes it,
 * otherwise the form's own initial value (a typed parent port name is not one of a select's options, but
 * the operation resolved it to the option it set as initial).
 */
function initialText(field: ModalField, prefilled: RawArgs): string | undefined {
  return answerOf(field, prefilled[field.name]) ?? answerOf(field, field.initial);
}

/** Fields Slack shows as menus searching SCC (external selects). */
function looksUp(field: ModalField): boolean {
  return field.input === 'device' || field.input === 'tenant' || field.input === 'interface';
}

function splitList(answer: string): string[] {
  return answer
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** "optional" once: a label or hint that already says so gets no second one. */
function fieldNotes(field: ModalField): string {
  const saysOptional = /\boptional\b/i.test(`${field.label} ${field.hint ?? ''}`);
  return [field.optional && !saysOptional ? 'optional' : undefined, field.hint].filter(Boolean).join('; ');
}

/** Asks one field; undefined means "left empty". */
export async function askField(
  io: Prompter,
  field: ModalField,
  prefilled: RawArgs = {},
  problem?: string,
): Promise<string | string[] | boolean | undefined> {
  if (problem) io.print(`  ! ${field.label}: ${problem}`);
  const shown = field.input === 'secret' ? undefined : initialText(field, prefilled);
  const notes = fieldNotes(field);
  if (field.options && (field.input === 'select' || field.input === 'multi_select')) {
    io.print(field.options.map((o, i) => `    ${i + 1}) ${o.label}`).join('\n'));
  }
  const several = field.input === 'multi_select' || field.multiple === true;
  const suffix = `${field.input === 'checkbox' ? ' (y/n)' : ''}${looksUp(field) ? ' (name or UUID)' : ''}${several ? ' (comma-separated)' : ''}`;
  const question = `  ${field.label}${suffix}${notes ? ` (${notes})` : ''}${shown ? ` [${shown}]` : ''}: `;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const line = await io.ask(question, { secret: field.input === 'secret' });
    if (line === undefined) throw new FormAbandoned('the input ended');
    const answer = line.trim() === '' ? (shown ?? '') : line.trim();
    if (answer === '') {
      if (field.optional) return undefined;
      io.print(`  ! ${field.label} is required.`);
      continue;
    }
    switch (field.input) {
      case 'checkbox': {
        const yes = yesNo(answer);
        if (yes !== undefined) return yes;
        io.print('  ! answer y or n.');
        continue;
      }
      case 'select': {
        const value = pick(field, answer);
        if (value !== undefined) return value;
        io.print(`  ! choose one of 1–${field.options?.length ?? 0}.`);
        continue;
      }
      case 'multi_select': {
        const values = answer.split(',').map((part) => pick(field, part.trim()));
        if (values.every((v) => v !== undefined)) return values as string[]; // checked just above
        io.print('  ! one of those is not an option.');
        continue;
      }
      case 'device':
      case 'tenant':
      case 'interface':
        // Slack's menus search SCC; here the name or UUID is typed and the operation resolves it.
        return field.multiple ? splitList(answer) : answer;
      default:
        return answer;
    }
  }
  throw new FormAbandoned(`${field.label} was left empty`);
}

/**
 * Fills an operation's form by asking; resolves with raw arguments the operation accepts. Throws
 * FormAbandoned when the user gives up, or when the answers are still refused after a few rounds, and
 * the form's reason (a UserError) before asking anything when it cannot be filled (catalogue/forms.ts).
 */
export async function fillForm(
  io: Prompter,
  op: Operation,
  ctx: OperationContext,
  prefilled: RawArgs,
): Promise<RawArgs> {
  const fields = op.modal ? await formFields(op.modal, ctx, prefilled) : [];
  const title = op.modal?.title ?? op.summary;
  io.print(`${title} — answer each field (Enter keeps the value in brackets).`);
  const raw: RawArgs = { ...prefilled };
  let problems = new Map<string, string>();
  let toAsk = fields;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const field of toAsk) raw[field.name] = await askField(io, field, raw, problems.get(field.name));
    const issues = op.validate(raw);
    if (issues.length === 0) return raw;
    problems = new Map(issues.map((issue) => [issue.arg ?? '', issue.message]));
    // Issues about an argument without a field (or the whole form) are said, and every field is asked again.
    const named = fields.filter((field) => problems.has(field.name));
    if (named.length === 0) io.print(issues.map((issue) => `  ! ${issue.message}`).join('\n'));
    toAsk = named.length > 0 ? named : fields;
  }
  throw new FormAbandoned(`${title}: the answers were not accepted`);
}

/**
 * Asks what a command button's call needs from the policy before it runs (Dispatcher.buttonForm: the change
 * ticket), the button's own arguments kept; the dispatcher checks the answers as it checks a typed command.
 */
export async function askButtonForm(io: Prompter, form: ButtonForm, prefilled: RawArgs): Promise<RawArgs> {
  io.print(`${form.title} — the policy asks for more before this runs:`);
  const raw: RawArgs = { ...prefilled };
  for (const field of form.fields) raw[field.name] = await askField(io, field, raw);
  return raw;
}
