import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { UserError } from '../../src/model/errors.js';
import { renderText } from '../../src/render/text.js';
import { expectGoldenFile } from '../render/golden.js';

const catalogue = createCatalogue();

describe('help', () => {
  it('lists every command in the overview, grouped by area', () => {
    const text = renderText(catalogue.help());
    for (const op of catalogue.operations.filter((o) => o.area !== 'help')) {
      expect(text).toContain(catalogue.usage(op));
    }
    expect(text.indexOf('Devices:')).toBeLessThan(text.indexOf('Tenants:'));
  });

  it('takes a topic as an area, a group of words, a command or an id', () => {
    /** The commands whose words begin with these: what a topic of several commands lists and counts. */
    const under = (...words: string[]) =>
      catalogue.operations.filter((op) => words.every((word, i) => op.words[i] === word));
    const vpn = catalogue.help('vpn');
    expect(vpn.summary).toBe(
      `VPN: Secure Client packages, compatible versions and upgrades: ${under('vpn').length} commands`,
    );
    for (const op of under('vpn')) expect(renderText(vpn)).toContain(catalogue.usage(op));
    expect(catalogue.help('tenants users').summary).toBe(
      `/fw tenants users: ${under('tenants', 'users').length} commands`,
    );
    expect(catalogue.help('interfaces edit').summary).toBe(
      '/fw interfaces edit: Change an interface of an ASA (the form fits its kind)',
    );
    expect(catalogue.help('tenants.users.remove').summary).toBe(
      '/fw tenants users remove: Remove users from a tenant (up to 50 at a time)',
    );
  });

  it('says which role a command needs, and whether it waits for approval', () => {
    const text = renderText(catalogue.help('interfaces delete'));
    expect(text).toContain('Needs the operator role. It runs only after another person approves it.');
  });

  it('suggests the nearest topics for an unknown one', () => {
    expect(() => catalogue.help('tenant')).toThrow(UserError);
    try {
      catalogue.help('interface show');
    } catch (error) {
      expect((error as UserError).message).toBe(
        'There is no help topic “interface show”. Did you mean `/fw help interfaces show`?',
      );
    }
  });

  it('uses the command name of the surface (the console has no slash)', () => {
    const console = createCatalogue({ command: 'fw' });
    expect(renderText(console.help('devices'))).toContain('`fw devices [query]`');
    expect(console.parse('help devices').op.id).toBe('help');
  });
});

describe('command table', () => {
  it('has one row per command, pipes in usage lines escaped', () => {
    const table = catalogue.commandTable();
    const rows = table.split('\n').slice(2);
    expect(rows).toHaveLength(catalogue.operations.length);
    expect(table).toContain(
      '`/fw interfaces <device> [physical\\|etherchannel\\|subinterface\\|vlan\\|vti] [query]`',
    );
    for (const row of rows) expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
  });

  it('matches its golden file', () => {
    expectGoldenFile('command-table.md', `${catalogue.commandTable()}\n`);
  });
});
