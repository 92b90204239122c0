// npm run check:reference (issue 24): a newer vendor file is judged by what fwbot calls, sends and reads. The
// newer files here are derived in the test from the reference cuts themselves (written to a temporary folder),
// each with one change of the kind the vendor makes; the verdict and the line naming the change are checked.
// Skips, saying why, where ../shared/reference is absent (a user's clone).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type CheckIo, checkReference } from '../../scripts/check-reference.js';
import { readFwbotUsage } from '../../scripts/fwbot-usage.js';
import { allCutPaths, REFERENCE_DIR } from '../../scripts/scc-reference.js';

const run = promisify(execFile);
const cuts = allCutPaths();
const skipReason = cuts
  ? undefined
  : `skipped: ${REFERENCE_DIR} not found (the SCC reference is not part of the repository)`;
if (skipReason) process.stdout.write(`check:reference: ${skipReason}\n`);

/** A parsed cut, loosely typed: the tests reach into it the way a vendor edit would. */
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document edited freely by the tests
type Document = Record<string, any>;

const temp = mkdtempSync(join(tmpdir(), 'fwbot-check-reference-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let copies = 0;

/**
 * The cuts with one edit applied to each (schemas are repeated in every cut that reaches them, so an edit of a
 * schema is applied wherever it is), written as a newer description; returns its files.
 */
function derived(edit: (document: Document) => void): string[] {
  const folder = join(temp, `copy-${++copies}`);
  mkdirSync(folder);
  return (cuts ?? []).map((path) => {
    const document = parse(readFileSync(path, 'utf8')) as Document;
    edit(document);
    const target = join(folder, basename(path));
    writeFileSync(target, stringify(document));
    return target;
  });
}

/** Runs the check in this process, as the script would, and keeps what it printed. */
async function check(files: readonly string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CheckIo = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    baselinePaths: cuts,
  };
  const status = await checkReference(files, io);
  return { status, out, err };
}

function schema(document: Document, name: string): Document | undefined {
  return document.components?.schemas?.[name];
}

/** The vendor's newest field changes (../shared/reference/README.md, "Drift at the vendor's newest commit"). */
function newestFieldDrift(document: Document): void {
  const status = schema(document, 'CompletionStatusDto');
  if (status) delete status.properties.completedAt;
  const input = schema(document, 'MspCreateTenantInput');
  if (input) {
    input.properties.addOns = { type: 'array', items: { type: 'string' } };
    input.properties.billingAddress = { type: 'object', properties: { country: { type: 'string' } } };
  }
}

/** The lines of one group of the report (`Breaks fwbot`, `Changed, fwbot copes`, …). */
function group(out: string, title: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${title} (`));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('  - '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('what fwbot calls', () => {
  it('joins the catalogue’s declarations with the operations the rest of src/ names (not the simulator’s)', () => {
    const { calls } = readFwbotUsage();
    expect(calls.get('getTransaction')).toEqual(expect.arrayContaining(['src/scc/transactions.ts']));
    expect(calls.get('createTenant')?.some((why) => why.startsWith('catalogue '))).toBe(true);
    expect([...calls.values()].flat().filter((why) => why.startsWith('src/simulator/'))).toEqual([]);
  });
});

// Each case reads the cuts and fwbot's sources again; the bound is generous for a busy machine, not a timing.
describe.skipIf(skipReason !== undefined)('npm run check:reference', { timeout: 120_000 }, () => {
  it('finds no change between the reference cuts and themselves (run as a real process: exit 0)', async () => {
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/check-reference.ts',
      ...(cuts ?? []),
    ]);
    expect(stdout).toContain('No change in anything fwbot calls, sends or reads.');
    expect(stdout).toContain('Result: nothing fwbot sends or reads broke.');
  });

  it('judges the vendor’s newest drift: the dropped operation fwbot calls breaks it, the dropped optional field does not, the new fields are information (a real process: exit 1)', async () => {
    const files = derived((document) => {
      const tenant = document.paths?.['/v1/msp/tenants/{tenantUid}'];
      if (tenant) delete tenant.post; // addTenantToMspPortal
      newestFieldDrift(document);
    });
    const failure = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/check-reference.ts',
      ...files,
    ]).then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const out = failure?.stdout ?? '';
    expect(group(out, 'Breaks fwbot')).toEqual([
      '  - addTenantToMspPortal: POST /v1/msp/tenants/{tenantUid} removed (it was deprecated) — fwbot calls it',
    ]);
    const copes = group(out, 'Changed, fwbot copes');
    expect(copes).toHaveLength(1);
    expect(copes[0]).toMatch(
      /CompletionStatusDto\.completedAt removed — fwbot reads it; optional in its model; /,
    );
    expect(group(out, 'Added (info)')).toEqual([
      '  - createTenant: MspCreateTenantInput.addOns added, optional (array of string) — fwbot leaves it out',
      '  - createTenant: MspCreateTenantInput.billingAddress added, optional (object) — fwbot leaves it out',
    ]);
  });

  it('passes the same field drift when the operation fwbot calls stays (exit 0)', async () => {
    const { status, out } = await check(derived(newestFieldDrift));
    expect(status).toBe(0);
    expect(group(out, 'Breaks fwbot')).toEqual([]);
    expect(group(out, 'Changed, fwbot copes')).toHaveLength(1);
    expect(group(out, 'Added (info)')).toHaveLength(2);
    expect(out).toContain('Result: nothing fwbot sends or reads broke.');
  });

  it('fails on a request field fwbot sends that became required', async () => {
    const files = derived((document) => {
      const input = schema(document, 'AsaMultiDeviceDeploymentInput');
      if (input) input.required = [...(input.required ?? []), 'description'];
    });
    const { status, out } = await check(files);
    expect(status).toBe(1);
    expect(group(out, 'Breaks fwbot')).toEqual([
      '  - deployChangesToMultipleAsaDevices: AsaMultiDeviceDeploymentInput.description now required — fwbot sends it only when given',
    ]);
  });

  it('fails on a query parameter fwbot sends that became required', async () => {
    const files = derived((document) => {
      const list = document.paths?.['/v1/msp/tenants']?.get;
      for (const parameter of list?.parameters ?? []) if (parameter.name === 'q') parameter.required = true;
    });
    const { status, out } = await check(files);
    expect(status).toBe(1);
    expect(group(out, 'Breaks fwbot')).toEqual([
      '  - getMspManagedTenants: getMspManagedTenants query parameter q now required — fwbot sends it only when given',
    ]);
  });

  it('fails on an enum value fwbot sends that was removed', async () => {
    const files = derived((document) => {
      const role = schema(document, 'UserRole');
      if (role) role.enum = role.enum.filter((value: string) => value !== 'ROLE_DEPLOY_ONLY');
    });
    const { status, out } = await check(files);
    expect(status).toBe(1);
    const breaks = group(out, 'Breaks fwbot');
    expect(breaks).toHaveLength(1);
    expect(breaks[0]).toMatch(/: UserRole value "ROLE_DEPLOY_ONLY" removed — fwbot sends it$/);
    expect(breaks[0]).toContain('addUsersToTenantInMspPortal');
  });

  it('fails on an operation fwbot calls that was removed', async () => {
    const files = derived((document) => {
      delete document.paths?.['/v1/transactions/{transactionUid}'];
    });
    const { status, out } = await check(files);
    expect(status).toBe(1);
    expect(group(out, 'Breaks fwbot')).toEqual([
      '  - getTransaction: GET /v1/transactions/{transactionUid} removed — fwbot calls it',
    ]);
  });

  it('fails on a field fwbot reads and needs that was renamed', async () => {
    const files = derived((document) => {
      const tenant = schema(document, 'MspManagedTenantDto');
      if (!tenant) return;
      tenant.properties.label = tenant.properties.displayName;
      delete tenant.properties.displayName;
      tenant.required = tenant.required.map((field: string) => (field === 'displayName' ? 'label' : field));
    });
    const { status, out } = await check(files);
    expect(status).toBe(1);
    const breaks = group(out, 'Breaks fwbot');
    expect(breaks).toHaveLength(1);
    expect(breaks[0]).toMatch(
      /: MspManagedTenantDto\.displayName possibly renamed displayName → label — fwbot reads it; its model requires it$/,
    );
    expect(breaks[0]).toContain('getMspManagedTenants');
  });

  it('reports, without failing, a field fwbot reads whose model takes it missing, saying where its code names it', async () => {
    const files = derived((document) => {
      const error = schema(document, 'CommonApiError');
      if (error) delete error.properties.errorMsg;
    });
    const { status, out } = await check(files);
    expect(status).toBe(0);
    const copes = group(out, 'Changed, fwbot copes');
    expect(copes).toHaveLength(1);
    expect(copes[0]).toMatch(
      /: CommonApiError\.errorMsg removed — fwbot reads it; optional in its model; named in src\/\S+\.ts, .+: check they do without it$/,
    );
  });

  it('warns, without failing, when an operation fwbot calls is deprecated', async () => {
    const files = derived((document) => {
      const get = document.paths?.['/v1/inventory/devices/{deviceUid}']?.get;
      if (get) get.deprecated = true;
    });
    const { status, out } = await check(files);
    expect(status).toBe(0);
    expect(group(out, 'Deprecated')).toEqual([
      '  - getDevice: GET /v1/inventory/devices/{deviceUid} deprecated — fwbot calls it',
    ]);
  });

  it('refuses, with one sentence and status 2, a missing file, a file that is not YAML and a missing reference', async () => {
    const missing = await check([join(temp, 'absent.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.err).toBe(`check-reference: ${join(temp, 'absent.yaml')}: there is no such file.\n`);
    const broken = join(temp, 'broken.yaml');
    writeFileSync(broken, 'paths: [unclosed\n');
    const unreadable = await check([broken]);
    expect(unreadable.status).toBe(2);
    expect(unreadable.err).toMatch(new RegExp(`^check-reference: ${broken} is not valid YAML: .+\\.\\n$`));
    let err = '';
    const status = await checkReference([broken], {
      stdout: () => {},
      stderr: (text) => (err += text),
      baselinePaths: undefined,
    });
    expect(status).toBe(2);
    expect(err).toMatch(
      /^check-reference: the reference fwbot is built against \(.+\) is not here, so there is nothing to compare the newer file with\.\n$/,
    );
  });
});
