// Checks a rendered message against every Slack limit fwbot relies on (SLACK.md, Block Kit reference).
// Written independently of the renderer: it reads the Block Kit JSON, not the renderer's bookkeeping.
import type { KnownBlock } from '@slack/types';
import { expect } from 'vitest';
import type { RenderedMessage } from '../../../src/render/blocks.js';
import { blockKitProblems, TABLE_FAMILY } from '../../support/blockKitRules.js';
import { blockTexts } from '../../support/blockTexts.js';

const MAX = {
  messageBlocks: 50,
  modalBlocks: 100,
  messageChars: 12_000,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  id: 255,
  actionsElements: 25,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
};

/** The characters of a table's cells and caption, read from the JSON. */
function tableChars(block: KnownBlock): number {
  const caption = 'caption' in block && typeof block.caption === 'string' ? block.caption.length : 0;
  const rows = 'rows' in block && Array.isArray(block.rows) ? block.rows : [];
  return blockTexts(rows).reduce((sum, text) => sum + text.length, caption);
}

/** Every `<` opens a user or channel mention and every `&` an entity: nothing else is Slack markup. */
function expectEscaped(text: string): void {
  const withoutMentions = text.replace(/<(?:@[UW][A-Z0-9]{2,}|#C[A-Z0-9]{2,}(?:\|[^<>|]{0,80})?)>/g, '');
  expect(withoutMentions).not.toMatch(/[<>]/);
  expect(withoutMentions.replace(/&(?:amp|lt|gt);/g, '')).not.toContain('&');
}

function expectText(text: string, max: number, mrkdwn: boolean): void {
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(max);
  if (mrkdwn) expectEscaped(text);
}

function checkBlock(block: KnownBlock, actionIds: Set<string>): void {
  if ('block_id' in block && block.block_id !== undefined)
    expect(block.block_id.length).toBeLessThanOrEqual(MAX.id);
  switch (block.type) {
    case 'section':
      if (block.text) expectText(block.text.text, MAX.sectionText, block.text.type === 'mrkdwn');
      expect(block.text !== undefined || (block.fields?.length ?? 0) > 0).toBe(true);
      expect(block.fields?.length ?? 0).toBeLessThanOrEqual(MAX.fields);
      for (const field of block.fields ?? []) expectText(field.text, MAX.fieldText, field.type === 'mrkdwn');
      return;
    case 'header':
      expectText(block.text.text, MAX.headerText, false);
      return;
    case 'context':
      expect(block.elements.length).toBeGreaterThan(0);
      for (const element of block.elements) {
        if ('text' in element) expectText(element.text, MAX.sectionText, element.type === 'mrkdwn');
      }
      return;
    case 'actions':
      expect(block.elements.length).toBeGreaterThan(0);
      expect(block.elements.length).toBeLessThanOrEqual(MAX.actionsElements);
      for (const element of block.elements) {
        expect(element.type).toBe('button');
        if (element.type !== 'button') continue;
        expectText(element.text.text, MAX.buttonText, false);
        expect(element.value?.length ?? 0).toBeLessThanOrEqual(MAX.buttonValue);
        expect(element.url?.length ?? 0).toBeLessThanOrEqual(MAX.url);
        const id = element.action_id ?? '';
        expect(id.length).toBeGreaterThan(0);
        expect(id.length).toBeLessThanOrEqual(MAX.id);
        expect(actionIds.has(id)).toBe(false);
        actionIds.add(id);
        if (element.confirm) {
          expect(element.confirm.title?.text.length ?? 0).toBeLessThanOrEqual(MAX.confirmTitle);
          expect(element.confirm.text.text.length).toBeLessThanOrEqual(MAX.confirmText);
          expect(element.confirm.confirm?.text.length ?? 0).toBeLessThanOrEqual(MAX.confirmButton);
          expect(element.confirm.deny?.text.length ?? 0).toBeLessThanOrEqual(MAX.confirmButton);
        }
      }
      return;
    case 'divider':
      return;
    case 'data_table':
    case 'table':
      // Its own rules (rows, cells, characters) are checked for the whole message below.
      return;
    default:
      throw new Error(`unexpected block type ${block.type}`);
  }
}

export function assertWithinSlackLimits(message: RenderedMessage, surface: 'message' | 'modal'): void {
  expect(message.blocks.length).toBeLessThanOrEqual(
    surface === 'modal' ? MAX.modalBlocks : MAX.messageBlocks,
  );
  // Slack counts a message's text with room for structure (SLACK.md); a table counts its cells' characters
  // (its own 10,000 limit), every other block its JSON.
  const size = message.blocks.reduce(
    (sum, block) => sum + (TABLE_FAMILY.has(block.type) ? tableChars(block) : JSON.stringify(block).length),
    message.text.length,
  );
  expect(size).toBeLessThanOrEqual(MAX.messageChars);
  expect(blockKitProblems(message.blocks, surface)).toEqual([]);
  expectText(message.text, 3000, true);
  const actionIds = new Set<string>();
  for (const block of message.blocks) checkBlock(block, actionIds);
}
