// Checks a newer vendor OpenAPI file against what fwbot uses of the reference it is built against, and says
// what would break before anyone regenerates the client from it.
//   npm run check:reference -- <openapi.yaml> [more files of the same description…]
// Exit status: 0 when nothing fwbot sends or reads broke (changes it copes with, deprecations and additions
// are printed), 1 when something did, 2 when it cannot compare (no reference, a missing or unreadable file).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDrift } from './drift-report.js';
import { readFwbotUsage } from './fwbot-usage.js';
import { compareReferences } from './reference-drift.js';
import { allCutPaths, mergedSpec, REFERENCE_DIR, ReferenceFileError } from './scc-reference.js';

const USAGE = `usage: npm run check:reference -- <openapi.yaml> [more files…]
Compares the vendor's newer OpenAPI description (every file of it: they are merged) with the reference cuts
fwbot is built against (${REFERENCE_DIR}/scc-openapi-*.yaml, or the files SCC_OPENAPI names).`;

export interface CheckIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The baseline's files; undefined when the reference is not beside the project. */
  baselinePaths: readonly string[] | undefined;
}

/** The whole check; resolves to the exit status (0 nothing broke, 1 something did, 2 cannot compare). */
export async function checkReference(args: readonly string[], io: CheckIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (args.length === 0) {
    io.stderr(`check-reference: name the newer vendor file to check.\n${USAGE}\n`);
    return 2;
  }
  const baselinePaths = io.baselinePaths;
  if (!baselinePaths || baselinePaths.length === 0) {
    io.stderr(
      `check-reference: the reference fwbot is built against (${REFERENCE_DIR}/scc-openapi-*.yaml) is not here, so there is nothing to compare the newer file with.\n`,
    );
    return 2;
  }
  try {
    const baseline = mergedSpec(baselinePaths);
    const newer = mergedSpec(args);
    const usage = readFwbotUsage();
    io.stdout(
      `Comparing ${args.join(', ')} with the reference (${baselinePaths.length} files); fwbot calls ${usage.calls.size} SCC operations.\n\n`,
    );
    const drift = compareReferences(baseline, newer, usage);
    io.stdout(renderDrift(drift));
    return drift.findings.some((finding) => finding.severity === 'breaks') ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ReferenceFileError)) throw error;
    io.stderr(`check-reference: ${error.message}.\n`);
    return 2;
  }
}

const invoked =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  process.exitCode = await checkReference(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    baselinePaths: allCutPaths(),
  });
}
