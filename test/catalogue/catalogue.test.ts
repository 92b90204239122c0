import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../src/catalogue/errors.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import { commandText } from '../../src/catalogue/usage.js';
import { sccOperationIds } from '../../src/scc/generated/operations.js';
import { GOLDEN_DIR, goldenExists } from '../render/golden.js';

const catalogue = createCatalogue();
/** Used by tracking and name resolution; the brief's 48 are the rest. */
const SUPPORT_OPERATIONS = new Set(['getTransaction', 'getDevices', 'getDevice']);
const reference = (file: string) => join(process.cwd(), '..', 'shared', 'reference', file);
const CUTS = {
  brief: reference('scc-openapi-subset.yaml'),
  changes: reference('scc-openapi-changes.yaml'),
  msp: reference('scc-openapi-msp.yaml'),
};
const haveReference = Object.values(CUTS).every((path) => existsSync(path));

function operationIdsOf(path: string): Set<string> {
  const spec = parseYaml(readFileSync(path, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return new Set(
    Object.values(spec.paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => op.operationId ?? []),
    ),
  );
}

describe('the catalogue covers the product brief', () => {
  it.skipIf(!haveReference)('reaches every operation of the brief (48) and of staged changes (8)', () => {
    const reached = new Set<string>(catalogue.operations.flatMap((op) => op.scc));
    const brief = [...operationIdsOf(CUTS.brief)].filter((id) => !SUPPORT_OPERATIONS.has(id));
    expect(brief).toHaveLength(48);
    expect(brief.filter((id) => !reached.has(id))).toEqual([]);
    const changes = [...operationIdsOf(CUTS.changes)];
    expect(changes).toHaveLength(8);
    expect(changes.filter((id) => !reached.has(id))).toEqual([]);
  });

  it.skipIf(!haveReference)(
    'reaches the MSP cut’s API-only users and tenant revocation (issue 14, parts 1 and 2)',
    () => {
      const reached = new Set<string>(catalogue.operations.flatMap((op) => op.scc));
      const msp = operationIdsOf(CUTS.msp);
      const parts = ['getApiOnlyUsersInMspManagedTenant', 'revokeTenantFromMspPortal'];
      expect(parts.filter((id) => !msp.has(id))).toEqual([]);
      expect(parts.filter((id) => !reached.has(id))).toEqual([]);
    },
  );

  it.skipIf(!haveReference)(
    'names only operations of the reference (../shared/reference, three cuts)',
    () => {
      const inReference = new Set(Object.values(CUTS).flatMap((path) => [...operationIdsOf(path)]));
      expect(inReference.size).toBe(70);
      expect([...inReference].sort()).toEqual([...sccOperationIds].sort());
      const named = catalogue.operations.flatMap((op) => op.scc);
      expect(named.filter((id) => !inReference.has(id))).toEqual([]);
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

  it('needs viewer for reads and operator for changes; destructive ones can show their target', () => {
    const roles = Object.fromEntries(catalogue.operations.map((op) => [op.id, op.role]));
    expect(Object.entries(roles).filter(([, role]) => role !== 'viewer' && role !== 'operator')).toEqual([]);
    const destructive = catalogue.operations.filter((op) => op.destructive);
    expect(destructive.map((op) => op.id).sort()).toEqual([
      'deploy',
      'discard',
      'interfaces.delete',
      'tenants.remove',
      'tenants.users.remove',
    ]);
    for (const op of destructive) {
      expect(op.role).toBe('operator');
      expect(op.target).toBeDefined();
    }
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
          const issues = op.validate(parsed.raw).filter((i) => !/UUID such as/.test(i.message));
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
        '/fw tenants users remove <tenant> <username…>',
      ],
      [
        'gateway run cdfmc GET',
        'Missing `link`: the FMC API path, e.g. /api/fmc_platform/v1/info/serverversion.',
        '/fw gateway run <fmc-device> GET|POST|PUT|PATCH|DELETE <link> [<json-body>] [--async]',
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
