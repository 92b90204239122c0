// The console's form prompts: each field asked once, with "optional" said once however the label reads.
import { describe, expect, it } from 'vitest';
import type { ModalField } from '../../src/catalogue/operation.js';
import { askField } from '../../src/console/forms.js';
import { ScriptedTerminal } from './support.js';

async function question(field: ModalField): Promise<string> {
  const terminal = new ScriptedTerminal();
  terminal.answer('');
  await askField(terminal, field);
  return terminal.questions[0] ?? '';
}

const optionalCount = (text: string) => text.match(/optional/gi)?.length ?? 0;

describe('console form prompts', () => {
  it('says (optional) after the label of an optional field', async () => {
    const asked = await question({ name: 'vlan', label: 'VLAN ID', input: 'number', optional: true });
    expect(asked).toBe('  VLAN ID (optional): ');
  });

  it('does not say optional twice when the label already says it', async () => {
    const asked = await question({
      name: 'reason',
      label: 'Reason (optional, shown on the card)',
      input: 'text',
      optional: true,
    });
    expect(asked).toBe('  Reason (optional, shown on the card): ');
    expect(optionalCount(asked)).toBe(1);
  });

  it('does not say optional twice when the hint says it, and keeps the hint', async () => {
    const asked = await question({
      name: 'description',
      label: 'Description',
      input: 'text',
      optional: true,
      hint: 'Optional; shown in the interface list',
    });
    expect(asked).toBe('  Description (Optional; shown in the interface list): ');
  });

  it('leaves an empty optional field empty', async () => {
    const terminal = new ScriptedTerminal();
    terminal.answer('  ');
    const field: ModalField = { name: 'reason', label: 'Reason', input: 'text', optional: true };
    expect(await askField(terminal, field)).toBeUndefined();
  });
});
