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

describe('console form defaults', () => {
  const parent: ModalField = {
    name: 'parent',
    label: 'Parent interface',
    input: 'select',
    options: [
      { label: 'GigabitEthernet0/0 (outside)', value: 'uid-0' },
      { label: 'GigabitEthernet0/1 (inside)', value: 'uid-1' },
    ],
    initial: 'uid-1',
  };

  it('shows a select’s initial option by its label, and Enter picks it', async () => {
    const terminal = new ScriptedTerminal();
    terminal.answer('');
    // What was typed on the command line (a port's name) is not an option; the form's initial value is.
    expect(await askField(terminal, parent, { parent: 'inside' })).toBe('uid-1');
    expect(terminal.questions[0]).toBe('  Parent interface [GigabitEthernet0/1 (inside)]: ');
    expect(terminal.output).not.toContainEqual(expect.stringMatching(/choose one/));
  });

  it('shows an option by its number when its label is ambiguous', async () => {
    const terminal = new ScriptedTerminal();
    terminal.answer('');
    const twins: ModalField = {
      ...parent,
      options: [
        { label: 'Port', value: 'uid-0' },
        { label: 'Port', value: 'uid-1' },
      ],
    };
    expect(await askField(terminal, twins)).toBe('uid-1');
    expect(terminal.questions[0]).toBe('  Parent interface [2]: ');
  });

  it('keeps a typed yes/no word as a checkbox default, and asks again on anything else', async () => {
    const terminal = new ScriptedTerminal();
    const enabled: ModalField = { name: 'enabled', label: 'Enabled', input: 'checkbox', initial: true };
    terminal.answer('');
    expect(await askField(terminal, enabled, { enabled: 'disabled' })).toBe(false);
    expect(terminal.questions[0]).toBe('  Enabled (y/n) [no]: ');
    terminal.answer('maybe', 'y');
    expect(await askField(terminal, enabled)).toBe(true);
    expect(terminal.output).toContain('  ! answer y or n.');
  });
});
