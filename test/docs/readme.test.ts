// The README is the way in: short, with the two commands that matter and a map of the docs. The docs'
// tables are what the code declares: every command as the catalogue the bot serves declares it, every
// environment variable as the configuration schema reads it (test/docs/generated.test.ts checks the
// blocks whole; these rows name what a reader relies on).
import { describe, expect, it } from 'vitest';
import { fwbotCatalogue } from '../../src/app/surface.js';
import { commandsMarkdown } from '../../src/catalogue/help.js';
import { renderVariablesTable } from '../../src/config/reference.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { readDoc } from './markdown.js';

const readme = readDoc('README.md');

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| '));
}

describe('README', () => {
  it('stays short: at most 200 lines, the pages say the rest', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('shows the test command and the demo command', () => {
    expect(readme).toContain('npm test');
    expect(readme).toContain('npm install && npm run demo');
  });
});

describe('the docs’ reference tables', () => {
  it('list every command exactly as the catalogue the bot serves declares it', () => {
    const commands = readDoc('docs/using/commands.md');
    const catalogue = fwbotCatalogue(createMetrics({ processMetrics: false }));
    const rows = tableRows(commandsMarkdown(catalogue.operations, catalogue.command));
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.some((row) => row.startsWith('| `/fw audit'))).toBe(true);
    expect(rows.some((row) => row.startsWith('| `/fw vpn watch'))).toBe(true);
    for (const row of rows) expect(commands).toContain(row);
  });

  it('document every environment variable as the configuration schema reads it', () => {
    const configuration = readDoc('docs/operating/configuration.md');
    const rows = tableRows(renderVariablesTable());
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(configuration).toContain(row);
  });
});
