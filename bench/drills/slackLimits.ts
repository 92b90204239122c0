// Slack's limits on what a bot sends (SLACK.md; the numbers are src/render/blocks.ts's SLACK_LIMITS),
// checked on the JSON as it leaves for Slack rather than on the renderer's bookkeeping. Returns the
// violations found, empty when the message or modal is within every limit.
import { SLACK_LIMITS as L } from '../../src/render/blocks.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => String(obj(v).text ?? '');

function checkBlocks(blocks: unknown[], max: number, out: string[]): void {
  if (blocks.length > max) out.push(`${blocks.length} blocks > ${max}`);
  for (const raw of blocks) {
    // Slack wants action ids unique within their block, not across blocks.
    const actionIds = new Set<string>();
    const block = obj(raw);
    const id = String(block.block_id ?? '');
    if (id.length > L.blockId) out.push(`block_id of ${id.length} chars`);
    const type = String(block.type);
    if (type === 'section') {
      if (text(block.text).length > L.sectionText)
        out.push(`section text of ${text(block.text).length} chars`);
      const fields = arr(block.fields);
      if (fields.length > L.sectionFields) out.push(`${fields.length} fields`);
      for (const f of fields) if (text(f).length > L.fieldText) out.push(`field of ${text(f).length} chars`);
    } else if (type === 'header') {
      if (text(block.text).length > L.headerText) out.push(`header of ${text(block.text).length} chars`);
    } else if (type === 'context') {
      for (const e of arr(block.elements))
        if (text(e).length > L.contextText) out.push('context text too long');
    } else if (type === 'actions') {
      const elements = arr(block.elements);
      if (elements.length > L.actionsElements) out.push(`${elements.length} action elements`);
      for (const e of elements) checkElement(obj(e), actionIds, out);
    } else if (type === 'input') {
      if (text(block.label).length > 2000) out.push('input label too long');
      checkElement(obj(block.element), actionIds, out);
    }
  }
}

function checkElement(element: Json, actionIds: Set<string>, out: string[]): void {
  const id = String(element.action_id ?? '');
  if (id.length > L.actionId) out.push(`action_id of ${id.length} chars`);
  if (id && actionIds.has(id)) out.push(`action_id ${id} twice`);
  actionIds.add(id);
  if (element.type === 'button') {
    if (text(element.text).length > L.buttonText)
      out.push(`button text of ${text(element.text).length} chars`);
    if (String(element.value ?? '').length > L.buttonValue) out.push('button value too long');
    if (String(element.url ?? '').length > L.buttonUrl) out.push('button url too long');
    const confirm = obj(element.confirm);
    if (text(confirm.title).length > L.confirmTitle) out.push('confirm title too long');
    if (text(confirm.text).length > L.confirmText) out.push('confirm text too long');
  }
  const options = arr(element.options);
  if (options.length > L.options) out.push(`${options.length} options`);
  for (const o of options) {
    if (text(obj(o).text).length > L.optionText) out.push('option text too long');
    if (String(obj(o).value ?? '').length > L.optionValue) out.push('option value too long');
  }
}

/** A message (chat.postMessage / postEphemeral / update, or a response_url body). */
export function messageViolations(message: Json): string[] {
  const out: string[] = [];
  const blocks = arr(message.blocks);
  const body = String(message.text ?? '');
  if (body.length === 0 && blocks.length === 0) out.push('empty message');
  if (body.length > 40_000) out.push(`text of ${body.length} chars`);
  if (JSON.stringify(blocks).length + body.length > L.messageChars) out.push('message over the total size');
  checkBlocks(blocks, L.messageBlocks, out);
  return out;
}

/** A modal (views.open / push / update). */
export function modalViolations(view: Json): string[] {
  const out: string[] = [];
  for (const key of ['title', 'submit', 'close'] as const) {
    if (text(view[key]).length > L.modalTitle) out.push(`${key} of ${text(view[key]).length} chars`);
  }
  if (String(view.private_metadata ?? '').length > L.privateMetadata) out.push('private_metadata too long');
  checkBlocks(arr(view.blocks), L.modalBlocks, out);
  return out;
}
