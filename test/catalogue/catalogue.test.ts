import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { READ_ONLY_POSTS } from '../../src/catalogue/operation.js';
import { commandText } from '../../src/catalogue/usage.js';
import { UsageError } from '../../src/model/errors.js';
import { sccOperationIds } from '../../src/scc/generated/operations.js';
import { type SccOperationId, sccOperations } from '../../src/scc/operationTypes.js';
import { GOLDEN_DIR, goldenExists } from '../render/golden.js';
import { contractSkipReason, loadOpenApiContract } from '../support/openapiContract.js';

const catalogue = createCatalogue();

/** The operation ids of the description the client is generated from (its cuts, read as the generator reads them). */
function referenceOperationIds(): Set<string> {
  return new Set(loadOpenApiContract().listOperationIds());
}

/**
 * Operations of an adopted cut that no command reaches yet, each with the work that brings its command. The
 * whole cut is adopted so the client and the simulator have every operation the work ahead stands on; this
 * list must be exactly the operations still unreached, so a command that reaches one takes it off, and it
 * only ever shrinks.
 */
const NOT_YET_REACHED: Record<string, string> = {
  getCompatibleAsaVersionsForMultipleAsas:
    'issue 37 item 7: MSP batches (/fw upgrade reads each device’s versions)',
  getCompatibleFtdVersionsForMultipleFtds:
    'issue 37 item 7: MSP batches (/fw upgrade reads each device’s versions)',
  getMspDeviceUpgradeRunsAttributeValues: 'issue 37 item 7: MSP runs followed the same way',
  updateFtdUpgradePackagesCache: 'issue 37 item 2: /fw upgrade (a stale FTD package cache)',
  modifyDeviceUpgradeRun: 'issue 37 item 4: runs followed in the thread',
  deleteDeviceUpgradeRun: 'issue 37 item 4: runs followed in the thread',
  deleteMspDeviceUpgradeRun: 'issue 37 item 7: MSP upgrades in batches',
  createAccessGroup: 'issue 36 item 3: a request on an interface no access group is bound to',
  patchAccessGroup: 'issue 36 item 3: a request on an interface no access group is bound to',
  deleteAccessGroup: 'issue 36 item 7: removing what a request created',
  modifyObject: 'issue 36 item 3: objects a request reuses',
  deleteObject: 'issue 36 item 7: removing what a request created',
  getDuplicateObjects: 'issue 36 item 3: reusing an object whose content equals the host or CIDR',
  getTargets: 'issue 36 item 3: objects a request reuses',
  getIssuesCount: 'issue 36 item 4: the risk check',
};

const skipReason = contractSkipReason();
if (skipReason) process.stdout.write(`catalogue coverage: ${skipReason}\n`);

describe('the catalogue covers the SCC operations of the reference', () => {
  it.skipIf(skipReason !== undefined)(
    'reaches every operation of the cuts its client is generated from',
    () => {
      const reached = new Set<string>(catalogue.operations.flatMap((op) => op.scc));
      const unreached = [...referenceOperationIds()].filter((id) => !reached.has(id));
      expect(unreached.sort(), 'SCC operations no command declares in its `scc`').toEqual(
        Object.keys(NOT_YET_REACHED).sort(),
      );
    },
  );

  it.skipIf(skipReason !== undefined)(
    'names only operations of those cuts, and its client has exactly them',
    () => {
      const inReference = referenceOperationIds();
      expect([...sccOperationIds].sort()).toEqual([...inReference].sort());
      const outside = catalogue.operations.flatMap((op) =>
        op.scc.filter((id) => !inReference.has(id)).map((id) => `${op.id}: ${id}`),
      );
      expect(outside).toEqual([]);
    },
  );

  it('has a golden view for every operation, run against the simulator', () => {
    const missing = catalogue.operations.map((op) => op.id).filter((id) => !goldenExists(id));
    expect(missing, `goldens in ${GOLDEN_DIR}`).toEqual([]);
  });
});

describe('declarations', () => {
  it('gives every operation an id made of its words', () => {
    for (const op of catalogue.operations) expect(op.id).toBe(op.words.join('.'));
  });

  it('needs the viewer role to read and the operator role to change', () => {
    // Admins alone run what calls no SCC operation at all: fwbot's own records (the audit trail).
    const roles = catalogue.operations.map((op) => `${op.id}: ${op.role}`);
    expect(roles.filter((line) => !/: (viewer|operator|admin)$/.test(line))).toEqual([]);
    const adminCallsScc = catalogue.operations.filter((op) => op.role === 'admin' && op.scc.length > 0);
    expect(adminCallsScc.map((op) => op.id)).toEqual([]);
    // A viewer's calls change nothing in SCC: reads, and SCC's calculations (a transaction that computes an
    // answer, e.g. the commands a deploy would run), which stage, deploy and grant nothing, and the ASA
    // command line, which fwbot sends only its read-only templates (READ_ONLY_POSTS).
    const changes = (id: SccOperationId) =>
      sccOperations[id].method !== 'GET' && !id.startsWith('calculate') && !READ_ONLY_POSTS.has(id);
    const viewerChanges = catalogue.operations
      .filter((op) => op.role === 'viewer')
      .flatMap((op) => op.scc.filter(changes).map((id) => `${op.id}: ${id}`));
    expect(viewerChanges).toEqual([]);
    expect(catalogue.get('tenants.list')?.role).toBe('viewer');
    expect(catalogue.get('interfaces.create.vlan')?.role).toBe('operator');
  });

  it('makes destructive exactly what always needs a second person, for operators, on a declared target', () => {
    for (const op of catalogue.operations) {
      expect(op.destructive, op.id).toBe(op.approval === 'always');
      if (!op.destructive) continue;
      expect(op.role, op.id).toBe('operator');
      expect(op.target, op.id).toBeDefined();
    }
    expect(catalogue.get('interfaces.delete')?.destructive).toBe(true);
  });

  it('finds what became of an interrupted destructive call: its target is gone, or it looks in SCC', () => {
    // A crash may interrupt a destructive call after it was sent (approvals/executor.ts): the operation must
    // be able to tell whether it took effect, by its target being gone or by looking in SCC.
    const blind = catalogue.operations
      .filter((op) => op.destructive && !op.target?.removes && !op.target?.interrupted)
      .map((op) => op.id);
    expect(blind).toEqual([]);
  });

  it('declares the last positional alone as variadic, and flags with kebab-case names', () => {
    for (const op of catalogue.operations) {
      const positionals = op.params.filter((p) => !p.flag);
      for (const p of positionals.slice(0, -1)) expect(p.variadic, `${op.id} ${p.name}`).toBeFalsy();
      for (const p of op.params) expect(p.name, op.id).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });

  it('keeps each form field tied to an argument of its operation', () => {
    for (const op of catalogue.operations) {
      const fields = op.modal?.fields;
      if (!Array.isArray(fields)) continue;
      for (const field of fields) {
        const issues = op.validate({}).map((i) => i.arg);
        const known = op.params.some((p) => p.name === field.name) || issues.includes(field.name);
        expect(known || field.input === 'secret', `${op.id}: ${field.name}`).toBe(true);
      }
    }
  });

  it('parses every example of help into its own operation', () => {
    for (const op of catalogue.operations) {
      expect(op.examples.length, op.id).toBeGreaterThan(0);
      for (const example of op.examples) {
        const parsed = catalogue.parse(example);
        expect(parsed.op.id, example).toBe(op.id);
        if (!parsed.modal) {
          // Placeholders Slack or a person fills in: a UUID to copy, a channel Slack turns into its link.
          const issues = op
            .validate(parsed.raw)
            .filter((i) => !/UUID such as|picked from Slack/.test(i.message));
          expect(issues, example).toEqual([]);
        }
      }
    }
  });

  it('writes command text that parses back into the same arguments (the share button)', () => {
    const samples = [
      'tenants list region:EU AND name:acme*',
      'tenants create acme-eu --display-name "Acme Europe" --sales-order "SO 42"',
      'tenants users remove contoso-eu "ana maria@x.example" bob@x.example',
      'interfaces asa-hq-01 vlan guest --offset 25',
      'gateway run cdfmc POST /api/x {"a": "b c"} --async',
      'vpn upgrade asa-hq-01 asa-dc-03 --version 5.1.8.105',
    ];
    for (const text of samples) {
      const { op, raw } = catalogue.parse(text);
      expect(catalogue.parse(commandText(op, raw)).raw, text).toEqual(raw);
    }
  });
});

describe('usage errors', () => {
  it('gives a missing argument the usage line of its command', () => {
    const cases: [string, string, string][] = [
      ['tenants show', 'Missing `tenant`: tenant name, display name or UUID.', '/fw tenants show <tenant>'],
      [
        'tenants users remove acme',
        'Missing `username`: usernames (e-mail addresses for people), up to 50.',
        '/fw tenants users remove <tenant> <username…> [--ticket …]',
      ],
      [
        'gateway run cdfmc GET',
        'Missing `link`: the FMC API path, e.g. /api/fmc_platform/v1/info/serverversion.',
        '/fw gateway run <fmc-device> GET|POST|PUT|PATCH|DELETE <link> [<json-body>] [--async] [--ticket …]',
      ],
      ['vpn versions', 'Missing `device`: device names or UUIDs, up to 50.', '/fw vpn versions <device…>'],
    ];
    for (const [text, message, usage] of cases) {
      const error = (() => {
        try {
          catalogue.parse(text);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, text).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(message);
      expect((error as UsageError).usage).toBe(usage);
    }
  });

  it('says what every operation typed without arguments misses, in sentences naming each argument', () => {
    const messages: string[] = [];
    for (const op of catalogue.operations) {
      const text = op.words.join(' ');
      let error: unknown;
      try {
        // A form opens instead where there is one; the CLI and a flag bypass it, and then validation speaks.
        const { raw } = catalogue.parse(text);
        const issues = op.validate(raw);
        if (issues.length > 0) error = new UsageError(op.id, issues);
      } catch (e) {
        error = e;
      }
      if (error === undefined) continue;
      expect(error, text).toBeInstanceOf(UsageError);
      const { message, issues } = error as UsageError;
      messages.push(message);
      expect(message, text).not.toMatch(/[.?!][;,]|\.\./);
      expect(message, text).toMatch(/^[A-Z`].*[.?!]$/s);
      for (const issue of issues) if (issue.arg) expect(message, text).toContain(`\`${issue.arg}\``);
      const required = op.params.filter((p) => !p.flag && !p.optional && !op.modal);
      for (const param of required) expect(message, text).toContain(`\`${param.name}\``);
    }
    expect(messages.length).toBeGreaterThan(25);
    const gateway = catalogue.get('gateway.run');
    const error = (() => {
      try {
        catalogue.parse('gateway run');
      } catch (e) {
        return e;
      }
    })();
    expect(gateway && error instanceof UsageError && error.message).toBe(
      'Missing `fmc-device`: the FMC, by name or UUID. Missing `method`: one of GET, POST, PUT, PATCH, DELETE. ' +
        'Missing `link`: the FMC API path, e.g. /api/fmc_platform/v1/info/serverversion.',
    );
  });

  it('writes a problem of a typed value as a sentence about its argument', () => {
    const { op, raw } = catalogue.parse('vpn upgrade --version 5.1.8.105');
    expect(new UsageError(op.id, op.validate(raw)).message).toBe('`device` needs at least one.');
  });

  it('names a malformed UUID with an example of a good one', () => {
    const { op, raw } = catalogue.parse('vpn run 1234');
    expect(op.validate(raw)).toEqual([
      { arg: 'run-uid', message: 'must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6.' },
    ]);
  });

  it('accepts roles as people write them', () => {
    const { op, raw } = catalogue.parse('tenants users add acme a@x.example --role read-only');
    expect(op.validate(raw)).toEqual([]);
    const wrong = catalogue.parse('tenants users add acme a@x.example --role boss');
    expect(wrong.op.validate(wrong.raw)[0]?.message).toMatch(
      /^must be one of admin, super-admin, read-only, /,
    );
  });
});
