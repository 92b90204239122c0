// Prints the section on commands (how the /fw language reads, and the table of every command), generated
// from the catalogue a running fwbot serves; `npm run docs` writes the same into docs/using/commands.md.
// Run: npx tsx scripts/print-command-table.ts
import { fwbotCatalogue } from '../src/app/surface.js';
import { commandsMarkdown } from '../src/catalogue/help.js';
import { createMetrics } from '../src/observability/metrics.js';

const catalogue = fwbotCatalogue(createMetrics({ processMetrics: false }));
process.stdout.write(commandsMarkdown(catalogue.operations, catalogue.command));
