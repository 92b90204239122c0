// Prints the README's configuration reference, generated from src/config/: the environment variables
// table by default, or the whole "Configuration" section with --section.
//   npx tsx scripts/print-config-reference.ts [--section]
import { renderConfigurationSection, renderVariablesTable } from '../src/config/reference.js';

const section = process.argv.includes('--section');
process.stdout.write(`${section ? renderConfigurationSection() : renderVariablesTable()}\n`);
