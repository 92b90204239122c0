// A form's fields as every surface shows them (Slack's modal, the console's and the CLI's prompts): fitted
// to what is edited where the declaration fits them, each select offering a value once, and a form that
// cannot be filled refused with the reason before anything opens. Slack refuses a select without options
// (`invalid_arguments`), and a value offered twice is one choice shown as two.
import { UserError } from '../model/errors.js';
import type { ModalField, ModalOption, ModalSpec, OperationContext, RawArgs } from './operation.js';
import { fitTicketField } from './tickets.js';

/** Fields whose options are listed in the form itself (external selects look theirs up). */
const LISTED: ReadonlySet<ModalField['input']> = new Set(['select', 'multi_select']);

/** Each value once, in the order given; the first label given for a value is the one shown. */
export function uniqueOptions<O extends ModalOption>(options: readonly O[]): O[] {
  const seen = new Set<string>();
  return options.filter((option) => {
    if (seen.has(option.value)) return false;
    seen.add(option.value);
    return true;
  });
}

/**
 * The fields a form may show. Listed options come once each; an optional select with nothing to choose is
 * left out (there is nothing to leave unchosen); a required one means the form cannot be filled, and the
 * person is told why: the field's own sentence (`none`), else one naming the field.
 */
export function showableFields(fields: readonly ModalField[]): ModalField[] {
  const shown: ModalField[] = [];
  for (const field of fields) {
    if (!LISTED.has(field.input)) {
      shown.push(field);
      continue;
    }
    const options = uniqueOptions(field.options ?? []);
    if (options.length > 0) shown.push({ ...field, options });
    else if (!field.optional)
      throw new UserError(
        field.none ?? `This form cannot be filled: “${field.label}” has nothing to choose from.`,
      );
  }
  return shown;
}

/** The operation's form, fitted to what was prefilled when its declaration fits it (that reads SCC). */
export async function formFields(
  spec: Pick<ModalSpec, 'fields'>,
  ctx: OperationContext,
  prefilled: RawArgs,
): Promise<ModalField[]> {
  const fields = typeof spec.fields === 'function' ? await spec.fields(ctx, prefilled) : spec.fields;
  return showableFields(fitTicketField(fields, ctx.policy?.changes));
}
