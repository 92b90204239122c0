// A form's fields as every surface shows them (src/catalogue/forms.ts): each select offers a value once,
// an optional select with nothing to offer is left out, and a required one refuses the form with the
// sentence its declaration gives. Slack's modal built from them passes Slack's rules (blockKitRules.ts),
// and the console asks each option once.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { showableFields, uniqueOptions } from '../../src/catalogue/forms.js';
import { defineOperation, type ModalField } from '../../src/catalogue/operation.js';
import { fillForm, type Prompter } from '../../src/console/forms.js';
import { UserError } from '../../src/model/errors.js';
import { operationModal } from '../../src/slack/views/modal.js';
import { blockKitProblems } from '../support/blockKitRules.js';

const PORTS: ModalField = {
  name: 'parent',
  label: 'Parent interface',
  input: 'select',
  options: [
    { label: 'GigabitEthernet1/2 (inside)', value: 'uid-2' },
    { label: 'GigabitEthernet1/3', value: 'uid-3' },
    // A list read page by page can meet an item twice.
    { label: 'GigabitEthernet1/2 (inside, again)', value: 'uid-2' },
  ],
};
const NAME: ModalField = { name: 'name', label: 'Name', input: 'text', optional: true };

describe('a form’s fields as shown', () => {
  it('offers each value once, with the first label given for it', () => {
    expect(uniqueOptions(PORTS.options ?? [])).toEqual([
      { label: 'GigabitEthernet1/2 (inside)', value: 'uid-2' },
      { label: 'GigabitEthernet1/3', value: 'uid-3' },
    ]);
    const [shown] = showableFields([PORTS]);
    expect(shown?.options?.map((option) => option.value)).toEqual(['uid-2', 'uid-3']);
  });

  it('leaves out an optional select with nothing to choose, and keeps every other field', () => {
    const empty: ModalField = {
      ...PORTS,
      name: 'members',
      input: 'multi_select',
      options: [],
      optional: true,
    };
    expect(showableFields([NAME, empty]).map((field) => field.name)).toEqual(['name']);
  });

  it('refuses a form whose required select has nothing to choose, with the declared sentence or one naming it', () => {
    const none = 'asa-branch-02 has no interface that can carry a subinterface.';
    expect(() => showableFields([NAME, { ...PORTS, options: [], none }])).toThrow(new UserError(none));
    expect(() => showableFields([{ ...PORTS, options: [] }])).toThrow(
      'This form cannot be filled: “Parent interface” has nothing to choose from.',
    );
  });

  it('builds a Slack modal that Slack’s select rules accept', () => {
    const modal = operationModal({ title: 'New subinterface', submit: 'Create' }, [PORTS], {}, '{}');
    expect(blockKitProblems(modal.blocks, 'modal')).toEqual([]);
    const select = modal.blocks[0] as { element: { options: { value: string }[] } };
    expect(select.element.options.map((option) => option.value)).toEqual(['uid-2', 'uid-3']);
  });

  it('asks each option once on a terminal', async () => {
    const op = defineOperation({
      id: 'x',
      words: ['x'],
      area: 'interfaces',
      failure: 'Could not x',
      summary: 'X',
      params: [{ name: 'parent', kind: 'word', description: 'the parent' }],
      args: z.object({ parent: z.string() }),
      role: 'viewer',
      approval: 'never',
      scc: [],
      modal: { title: 'X', submit: 'Go', when: 'empty', fields: [PORTS] },
      run: async () => undefined,
      render: () => ({ summary: '', blocks: [], visibility: 'ephemeral' }),
    });
    const printed: string[] = [];
    const terminal: Prompter = { ask: async () => '2', print: (text) => void printed.push(text) };
    const ctx = { log: pino({ level: 'silent' }) } as unknown as Parameters<typeof fillForm>[2];
    expect(await fillForm(terminal, op, ctx, {})).toEqual({ parent: 'uid-3' });
    const listed = printed.join('\n');
    expect(listed).toContain('    1) GigabitEthernet1/2 (inside)\n    2) GigabitEthernet1/3');
    expect(listed).not.toContain('again');
  });
});
