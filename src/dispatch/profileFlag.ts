// `--profile NAME`: an admin's way to act on another SCC profile than the one the channel is bound to.
// It is a surface option, not an operation argument, so it is taken out of the text before the grammar
// sees it; and the buttons of a view made under an override carry it (`@profile=NAME …`), so Next page
// or Share in channel stay on the profile the list came from (the permission check runs again then).
import { UserError } from '../model/errors.js';
import type { View, ViewBlock } from '../model/view.js';

const PROFILE = '[a-z][a-z0-9_-]{0,29}';
const FLAG = /(^|\s)--profile(?:=|\s+)(\S+)(?=\s|$)/;
const NAME = new RegExp(`^${PROFILE}$`);
const PREFIX = new RegExp(`^@profile=(${PROFILE}) `);

/** Actions whose button values are re-run by fwbot, so they must keep the profile. */
const RERUN_ACTIONS = new Set(['fw.page', 'fw.share']);

export function extractProfileFlag(text: string): { text: string; profile: string | undefined } {
  const match = FLAG.exec(text);
  if (!match) return { text, profile: undefined };
  const name = match[2] ?? '';
  if (!NAME.test(name))
    throw new UserError(`“${name}” is not a profile name (lower-case letters, digits, - and _).`);
  const rest = `${text.slice(0, match.index)}${match[1] ?? ''}${text.slice(match.index + match[0].length)}`;
  if (FLAG.test(rest)) throw new UserError('`--profile` is given twice.');
  return { text: rest.replace(/\s+/g, ' ').trim(), profile: name };
}

export function addProfile(value: string, profile: string | undefined): string {
  return profile === undefined ? value : `@profile=${profile} ${value}`;
}

export function splitProfile(value: string): { value: string; profile: string | undefined } {
  const match = PREFIX.exec(value);
  return match ? { value: value.slice(match[0].length), profile: match[1] } : { value, profile: undefined };
}

/** The view with its re-run buttons carrying the profile override (unchanged without one). */
export function withProfile(view: View, profile: string | undefined): View {
  if (profile === undefined) return view;
  const blocks = view.blocks.map((block): ViewBlock => {
    if (block.kind !== 'actions') return block;
    return {
      kind: 'actions',
      buttons: block.buttons.map((button) =>
        button.action && RERUN_ACTIONS.has(button.action.id)
          ? { ...button, action: { id: button.action.id, value: addProfile(button.action.value, profile) } }
          : button,
      ),
    };
  });
  return { ...view, blocks };
}
