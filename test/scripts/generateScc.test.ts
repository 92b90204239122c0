// npm run generate:scc takes the vendor's OpenAPI files as arguments (issue 25, shape 8), so regenerating
// the client does not depend on what sits beside the repository: without arguments it reads the reference
// cuts, with them it reads exactly those files, resolved from where it was run; a file it cannot read is
// one sentence and exit 2, and nothing is written.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clientSources, specSourcesFrom } from '../../scripts/scc-reference.js';

const run = promisify(execFile);
const GENERATED = ['models.ts', 'inputs.ts', 'operations.ts'].map((file) => join('src/scc/generated', file));

async function generate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/generate-scc-schemas.ts', ...args],
      { env: { ...process.env, INIT_CWD: '/tmp' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run generate:scc', () => {
  it('reads the reference cuts without arguments, and the files given, from where it was run, with them', () => {
    expect(specSourcesFrom([])).toEqual(clientSources());
    expect(specSourcesFrom(['openapi.yaml', '/abs/other.yaml'], '/home/me/vendor')).toEqual([
      { path: resolve('/home/me/vendor/openapi.yaml') },
      { path: '/abs/other.yaml' },
    ]);
  });

  it('says in one sentence that a file given is missing, exits 2 and writes nothing', async () => {
    const before = GENERATED.map((file) => readFileSync(file, 'utf8'));
    const result = await generate(['no-such-openapi.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('generate-scc: /tmp/no-such-openapi.yaml: there is no such file.\n');
    expect(GENERATED.map((file) => readFileSync(file, 'utf8'))).toEqual(before);
  });

  it('explains itself', async () => {
    const help = await generate(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('npm run generate:scc [-- <openapi.yaml>');
    const unknown = await generate(['--out', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown option --out');
  });
});
