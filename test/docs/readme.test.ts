// The README's generated parts stay true: the command table is what the catalogue declares and the
// configuration table is what the configuration schema reads. Regenerate them with the scripts named
// in the README's Development section.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditOperation } from '../../src/approvals/auditOperation.js';
import { commandsMarkdown } from '../../src/catalogue/help.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { renderVariablesTable } from '../../src/config/reference.js';
import { watchOperations } from '../../src/jobs/watchOperations.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| '));
}

describe('README', () => {
  it('lists every command exactly as the catalogue declares it', () => {
    const catalogue = createCatalogue({ extra: [auditOperation, ...watchOperations] });
    const rows = tableRows(commandsMarkdown(catalogue.operations, catalogue.command));
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) expect(readme).toContain(row);
  });

  it('documents every environment variable as the configuration schema reads it', () => {
    const rows = tableRows(renderVariablesTable());
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(readme).toContain(row);
  });

  it('shows the test command and the demo command', () => {
    expect(readme).toContain('npm test');
    expect(readme).toContain('npm run demo');
  });
});
