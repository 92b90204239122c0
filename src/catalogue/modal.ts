// How an operation's form is declared (ModalSpec in an operation's declaration): its fields, when a typed
// command opens it instead of running from its text, and fields fitted to what is being edited. Slack
// renders it as a modal, the console and the CLI ask it at the prompt (forms.ts fits it on every surface).
import type { RawArgs } from '../model/types.js';
import type { OperationContext } from './context.js';

export interface ModalOption {
  label: string;
  value: string;
}

export interface ModalField {
  /** The argument this field fills: validation errors on that argument are shown on this field. */
  name: string;
  label: string;
  input:
    | 'text'
    | 'multiline'
    | 'number'
    | 'secret' // typed once, never echoed, never logged (e.g. a tenant API token)
    | 'select'
    | 'multi_select'
    | 'checkbox'
    | 'device' // external selects, options looked up as the user types
    | 'tenant'
    | 'interface';
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  options?: readonly ModalOption[];
  /**
   * Selects: why the form cannot be filled when this field, required, has no option to offer (one sentence
   * for the person, e.g. that the ASA has no free port); see catalogue/forms.ts.
   */
  none?: string;
  initial?: string | readonly string[] | boolean;
  /** External selects (`device`, `tenant`, `interface`): several may be picked (e.g. an upgrade's devices). */
  multiple?: boolean;
  /**
   * Device selects: Lucene the lookup always adds to what is typed, so the menu offers only devices the
   * operation can act on (e.g. ASAs and FTDs for a VPN client upgrade).
   */
  deviceQuery?: string;
}

export interface ModalSpec {
  title: string;
  submit: string;
  /** Fixed fields, or fields fitted to what is being edited (e.g. an interface's kind). */
  fields:
    | readonly ModalField[]
    | ((ctx: OperationContext, prefilled: RawArgs) => Promise<readonly ModalField[]>);
  /**
   * When a typed command opens the form instead of running from its text (every field is also a
   * positional or a `--flag`, so the form is a convenience, never the only way). The grammar decides
   * (ParsedCommand.modal, see wantsModal):
   * - `empty`: the form opens when nothing follows the command's words;
   * - `incomplete`: the form opens, prefilled with what was typed, when the command gives no flag and
   *   its arguments are not enough to run (the operation's own validation refuses them), e.g. only the
   *   device to create an interface on. A flag, or everything the operation needs, runs from the text.
   * A required argument may be left to the form only when `fields` is a fixed list holding a field of
   * that name.
   */
  when: 'empty' | 'incomplete';
}
