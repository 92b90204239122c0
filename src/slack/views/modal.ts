// ModalSpec → a Slack modal. Each field is an input block whose block id names the argument it fills
// (`f.<name>`), so validation issues land on the right field. Secret fields are plain text inputs that are
// never prefilled; devices, tenants and interfaces are external selects answered by options/. Titles,
// labels and options are cut to Slack's limits here.
import type {
  Checkboxes,
  InputBlock,
  InputBlockElement,
  KnownBlock,
  ModalView,
  PlainTextOption,
} from '@slack/types';
import { uniqueOptions } from '../../catalogue/forms.js';
import type { ModalField, ModalSpec, RawArgs } from '../../catalogue/operation.js';
import type { View } from '../../model/view.js';
import { plainText, renderBlocks, SLACK_LIMITS, selectOption } from '../../render/blocks.js';

export const MODAL_CALLBACK = 'fw.modal';
/** Modals that only show something (loading, a revealed token, an error). */
export const NOTICE_CALLBACK = 'fw.notice';
export const FIELD_BLOCK_PREFIX = 'f.';

/**
 * The block of a form opened outside a channel (the App Home's buttons): the channel the call is made in,
 * as if typed there (its roles, its profile or tenant, where its card and answers go). Not an argument.
 */
export const CHANNEL_BLOCK = 'fw.channel';

/** The channel picker CHANNEL_BLOCK holds: the conversations the person can see, no direct messages. */
export function channelPicker(): KnownBlock {
  return {
    type: 'input',
    block_id: CHANNEL_BLOCK,
    label: plainText('Channel', SLACK_LIMITS.modalTitle),
    hint: plainText(
      'Where the request is made, as if typed there: its roles and profile apply and its card is posted there.',
      150,
    ),
    element: {
      type: 'conversations_select',
      action_id: CHANNEL_BLOCK,
      filter: { include: ['public', 'private'], exclude_bot_users: true },
    },
  };
}
export const FIELD_ACTION = 'value';

/** External selects: the action id says what to look up (options/ registers one listener per kind). */
export const SELECT_ACTIONS = {
  device: 'fw.select.device',
  tenant: 'fw.select.tenant',
  interface: 'fw.select.interface',
} as const;
export type SelectKind = keyof typeof SELECT_ACTIONS;

const LABEL_MAX = 2000;
const PLACEHOLDER_MAX = 150;
const INITIAL_MAX = 3000;

export function fieldBlockId(name: string): string {
  return `${FIELD_BLOCK_PREFIX}${name}`.slice(0, SLACK_LIMITS.blockId);
}

function initialOf(field: ModalField, prefilled: RawArgs): string | readonly string[] | boolean | undefined {
  if (field.input === 'secret') return undefined;
  return prefilled[field.name] ?? field.initial;
}

function firstText(value: string | readonly string[] | boolean | undefined): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value.slice(0, INITIAL_MAX);
  if (Array.isArray(value)) return value[0];
  return undefined;
}

function asList(value: string | readonly string[] | boolean | undefined): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return [...value];
  return [];
}

function staticOptions(field: ModalField): PlainTextOption[] {
  // Each value once, whoever built the field (Slack's option values identify the choice).
  return uniqueOptions(field.options ?? [])
    .map((option) => selectOption(option.label, option.value))
    .filter((option): option is PlainTextOption => option !== undefined)
    .slice(0, SLACK_LIMITS.options);
}

function elementFor(field: ModalField, prefilled: RawArgs): InputBlockElement {
  const initial = initialOf(field, prefilled);
  const placeholder = field.placeholder ? { placeholder: plainText(field.placeholder, PLACEHOLDER_MAX) } : {};
  const text = firstText(initial);
  switch (field.input) {
    case 'text':
    case 'multiline':
    case 'secret':
      return {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        multiline: field.input === 'multiline',
        ...(text !== undefined ? { initial_value: text } : {}),
        ...placeholder,
      };
    case 'number':
      return {
        type: 'number_input',
        action_id: FIELD_ACTION,
        is_decimal_allowed: false,
        ...(text !== undefined && /^-?\d+$/.test(text) ? { initial_value: text } : {}),
        ...placeholder,
      };
    case 'select': {
      const options = staticOptions(field);
      const chosen = options.find((option) => option.value === text);
      return {
        type: 'static_select',
        action_id: FIELD_ACTION,
        options,
        ...(chosen ? { initial_option: chosen } : {}),
        ...placeholder,
      };
    }
    case 'multi_select': {
      const options = staticOptions(field);
      const wanted = new Set(asList(initial));
      const chosen = options.filter((option) => option.value !== undefined && wanted.has(option.value));
      return {
        type: 'multi_static_select',
        action_id: FIELD_ACTION,
        options,
        ...(chosen.length > 0 ? { initial_options: chosen } : {}),
        ...placeholder,
      };
    }
    case 'checkbox': {
      const option: PlainTextOption = {
        text: plainText(field.hint ?? 'Yes', SLACK_LIMITS.optionText),
        value: 'true',
      };
      const box: Checkboxes = { type: 'checkboxes', action_id: FIELD_ACTION, options: [option] };
      if (initial === true || initial === 'true') box.initial_options = [option];
      return box;
    }
    case 'device':
    case 'tenant':
    case 'interface': {
      const chosen = asList(initial)
        .map((value) => selectOption(value, value))
        .filter((option): option is PlainTextOption => option !== undefined);
      // min_query_length 0: the list shows as soon as the menu opens, which suits a phone.
      const common = { action_id: SELECT_ACTIONS[field.input], min_query_length: 0, ...placeholder };
      if (field.multiple) {
        return {
          type: 'multi_external_select',
          ...common,
          ...(chosen.length > 0 ? { initial_options: chosen } : {}),
        };
      }
      return { type: 'external_select', ...common, ...(chosen[0] ? { initial_option: chosen[0] } : {}) };
    }
  }
}

function inputBlock(field: ModalField, prefilled: RawArgs): InputBlock {
  const block: InputBlock = {
    type: 'input',
    block_id: fieldBlockId(field.name),
    label: plainText(field.label, LABEL_MAX),
    element: elementFor(field, prefilled),
    optional: field.optional ?? false,
  };
  if (field.hint && field.input !== 'checkbox') block.hint = plainText(field.hint, LABEL_MAX);
  return block;
}

export function operationModal(
  spec: Pick<ModalSpec, 'title' | 'submit'>,
  fields: readonly ModalField[],
  prefilled: RawArgs,
  privateMetadata: string,
): ModalView {
  const blocks: KnownBlock[] = fields.slice(0, SLACK_LIMITS.modalBlocks).map((f) => inputBlock(f, prefilled));
  return {
    type: 'modal',
    callback_id: MODAL_CALLBACK,
    title: plainText(spec.title, SLACK_LIMITS.modalTitle),
    submit: plainText(spec.submit, SLACK_LIMITS.modalTitle),
    close: plainText('Cancel', SLACK_LIMITS.modalTitle),
    private_metadata: privateMetadata,
    blocks,
  };
}

/** A modal that only shows a view (loading, a revealed secret, an error); no submit button. */
export function noticeModal(title: string, view: View): ModalView {
  return {
    type: 'modal',
    callback_id: NOTICE_CALLBACK,
    title: plainText(title, SLACK_LIMITS.modalTitle),
    close: plainText('Close', SLACK_LIMITS.modalTitle),
    blocks: renderBlocks(view, { surface: 'modal' }).blocks,
  };
}

export function textNotice(title: string, text: string): ModalView {
  return noticeModal(title, { summary: text, blocks: [{ kind: 'text', text }], visibility: 'ephemeral' });
}
