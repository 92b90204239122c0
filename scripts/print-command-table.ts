// Prints the README's section on commands (how the /fw language reads, and the table of every command),
// generated from the catalogue as the bot assembles it. Run: npx tsx scripts/print-command-table.ts
import { auditOperation } from '../src/approvals/auditOperation.js';
import { commandsMarkdown } from '../src/catalogue/help.js';
import { createCatalogue } from '../src/catalogue/index.js';
import { watchOperations } from '../src/jobs/watchOperations.js';

// The same extra operations src/app/bot.ts adds, so the README lists what Slack answers to.
const catalogue = createCatalogue({ extra: [auditOperation, ...watchOperations] });
process.stdout.write(commandsMarkdown(catalogue.operations, catalogue.command));
