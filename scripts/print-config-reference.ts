// Prints the configuration reference, generated from src/config/ (npm run docs writes it into
// docs/operating/configuration.md): the environment variables table by default, or the whole
// "Configuration" section with --section.
//   npx tsx scripts/print-config-reference.ts [--section]
import { renderConfigurationSection, renderVariablesTable } from '../src/config/reference.js';

const section = process.argv.includes('--section');
process.stdout.write(`${section ? renderConfigurationSection() : renderVariablesTable()}\n`);
