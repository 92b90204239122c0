// Builds view_submission and block_suggestion payloads from a modal fwbot opened (as recorded by the
// fake Slack server), filling fields the way Slack reports them in `view.state.values`.
import { CHANNEL, newTriggerId } from './harness.js';

interface InputBlock {
  type: string;
  block_id: string;
  element: { type: string; action_id: string; options?: { value: string }[] };
}

export interface OpenedModal {
  view: Record<string, unknown>;
  viewId: string;
}

export type FieldValue = string | string[] | boolean | undefined;

function inputBlocks(view: Record<string, unknown>): InputBlock[] {
  const blocks = Array.isArray(view.blocks) ? (view.blocks as InputBlock[]) : [];
  return blocks.filter((block) => block.type === 'input');
}

/** The field names (block ids without `f.`) of a modal, in order. */
export function fieldNames(view: Record<string, unknown>): string[] {
  return inputBlocks(view).map((block) => block.block_id.replace(/^f\./, ''));
}

function stateOf(element: InputBlock['element'], value: FieldValue): Record<string, unknown> {
  const type = element.type;
  if (type === 'checkboxes') {
    return { type, selected_options: value === true ? [{ value: 'true' }] : [] };
  }
  if (type === 'multi_static_select' || type === 'multi_external_select') {
    const values = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    return { type, selected_options: values.map((v) => ({ value: v })) };
  }
  if (type === 'conversations_select') {
    return { type, selected_conversation: typeof value === 'string' ? value : null };
  }
  if (type === 'static_select' || type === 'external_select') {
    return { type, selected_option: typeof value === 'string' ? { value } : null };
  }
  return { type, value: typeof value === 'string' ? value : null };
}

export function viewState(
  view: Record<string, unknown>,
  values: Record<string, FieldValue>,
): Record<string, unknown> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of inputBlocks(view)) {
    const name = block.block_id.replace(/^f\./, '');
    state[block.block_id] = { [block.element.action_id]: stateOf(block.element, values[name]) };
  }
  const unknown = Object.keys(values).filter((name) => !fieldNames(view).includes(name));
  if (unknown.length > 0)
    throw new Error(`the form has no field ${unknown.join(', ')} (it has ${fieldNames(view).join(', ')})`);
  return { values: state };
}

export function submissionPayload(
  modal: OpenedModal,
  userId: string,
  values: Record<string, FieldValue>,
): Record<string, unknown> {
  return {
    type: 'view_submission',
    user: { id: userId },
    team: { id: 'T0FAKE' },
    trigger_id: newTriggerId(),
    view: {
      id: modal.viewId,
      callback_id: modal.view.callback_id,
      private_metadata: modal.view.private_metadata,
      state: viewState(modal.view, values),
    },
  };
}

export function suggestionPayload(
  modal: OpenedModal,
  userId: string,
  actionId: string,
  blockId: string,
  typed: string,
  values: Record<string, FieldValue> = {},
): Record<string, unknown> {
  return {
    type: 'block_suggestion',
    user: { id: userId },
    team: { id: 'T0FAKE' },
    channel: { id: CHANNEL },
    action_id: actionId,
    block_id: blockId,
    value: typed,
    view: {
      id: modal.viewId,
      private_metadata: modal.view.private_metadata,
      state: viewState(modal.view, values),
    },
  };
}
