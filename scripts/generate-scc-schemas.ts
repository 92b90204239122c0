// Generates src/scc/generated/{models,inputs,operations}.ts from the vendor's OpenAPI description, then
// formats them with biome. The reference is the contract: field names, enums, constraints and status codes
// are taken from it, never typed by hand.
//   npm run generate:scc                               the client cuts beside the project (CLIENT_CUTS in scc-reference.ts)
//   npm run generate:scc -- <openapi.yaml> [more…]     the vendor's files instead (several are merged)
// SCC_OPENAPI (comma-separated files) also replaces the default. docs/developing/scc-client.md says where the
// vendor's files come from.
//
// Two flavours of each schema, because the two directions deserve different strictness:
// - models (responses): unknown fields kept, optional fields may be null, enum values open (the vendor
//   adds values), formats not enforced (its own examples break them). Required fields stay required.
// - inputs (request bodies): closed enums, patterns anchored, lengths, ranges and item counts enforced,
//   so bad input is refused before any call is made.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type JsonSchema,
  type Operation,
  ReferenceFileError,
  readSpec,
  refName,
  type Spec,
  specSourcesFrom,
} from './scc-reference.js';

type Mode = 'model' | 'input';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outDir = join(root, 'src/scc/generated');

const USAGE = `usage: npm run generate:scc [-- <openapi.yaml> [more files of the same description…]]
Writes src/scc/generated/ from the vendor's OpenAPI files (merged), by default the reference cuts beside the
project (SCC_OPENAPI, comma-separated, names others).`;

/**
 * Documented flaws of the vendor file (see ../shared/reference/README.md), corrected here and nowhere else.
 * CommandResponse.data: typed `object`, but the vendor's own timeout example carries a sentence there.
 */
const MODEL_OVERRIDES: Record<string, Record<string, string>> = {
  CommandResponse: { data: 'z.union([z.record(z.string(), z.unknown()), z.string()]).nullish()' },
};

/** The vendor's pattern is not anchored; the rule it states (1–50 of letters, digits, - and _) is. */
function anchored(pattern: string): string {
  const body = pattern.startsWith('^') ? pattern.slice(1) : pattern;
  return `^(?:${body.endsWith('$') ? body.slice(0, -1) : body})$`;
}

function zodFor(schema: JsonSchema, mode: Mode): string {
  let out: string;
  if (schema.$ref) {
    out = refName(schema.$ref);
  } else if (schema.enum) {
    const values = JSON.stringify(schema.enum);
    out = mode === 'input' ? `z.enum(${values})` : `openEnum(${values})`;
  } else {
    switch (schema.type) {
      case 'string': {
        out = 'z.string()';
        if (mode === 'input') {
          if (schema.format === 'uuid') out = 'z.guid()';
          if (schema.minLength !== undefined && schema.minLength > 0) out += `.min(${schema.minLength})`;
          if (schema.maxLength !== undefined) out += `.max(${schema.maxLength})`;
          if (schema.pattern) out += `.regex(new RegExp(${JSON.stringify(anchored(schema.pattern))}))`;
        }
        break;
      }
      case 'integer':
      case 'number': {
        out = schema.type === 'integer' ? 'z.number().int()' : 'z.number()';
        if (mode === 'input') {
          if (schema.minimum !== undefined) out += `.min(${schema.minimum})`;
          if (schema.maximum !== undefined) out += `.max(${schema.maximum})`;
        }
        break;
      }
      case 'boolean':
        out = 'z.boolean()';
        break;
      case 'array': {
        out = `z.array(${zodFor(schema.items ?? {}, mode)})`;
        if (mode === 'input') {
          if (schema.minItems !== undefined && schema.minItems > 0) out += `.min(${schema.minItems})`;
          if (schema.maxItems !== undefined) out += `.max(${schema.maxItems})`;
          if (schema.uniqueItems) out += '.refine(uniqueItems, { message: "items must be unique" })';
        }
        break;
      }
      default:
        out = objectFor(schema, mode, undefined);
    }
  }
  if (schema.nullable) out += '.nullable()';
  return out;
}

function objectFor(schema: JsonSchema, mode: Mode, name: string | undefined): string {
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const overrides = (name && mode === 'model' && MODEL_OVERRIDES[name]) || {};
    const fields = Object.entries(schema.properties).map(([key, prop]) => {
      const override = overrides[key];
      if (override) return `  ${key}: ${override},`;
      let zod = zodFor(prop, mode);
      if (!required.has(key)) zod += mode === 'input' ? '.optional()' : '.nullish()';
      // A schema that contains itself (a change item's children) refers to itself through a getter,
      // which zod reads lazily and types recursively.
      if (name && refsOf(prop, new Set()).has(name)) return `  get ${key}() {\n    return ${zod};\n  },`;
      return `  ${key}: ${zod},`;
    });
    const ctor = mode === 'input' ? 'z.object' : 'z.looseObject';
    return `${ctor}({\n${fields.join('\n')}\n})`;
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `z.record(z.string(), ${zodFor(schema.additionalProperties, mode)})`;
  }
  return 'z.record(z.string(), z.unknown())';
}

function refsOf(schema: JsonSchema | undefined, acc: Set<string>): Set<string> {
  if (!schema) return acc;
  if (schema.$ref) acc.add(refName(schema.$ref));
  refsOf(schema.items, acc);
  for (const prop of Object.values(schema.properties ?? {})) refsOf(prop, acc);
  if (typeof schema.additionalProperties === 'object') refsOf(schema.additionalProperties, acc);
  return acc;
}

/** Dependencies first, so every `const` is defined before use (only direct self-references occur). */
function topoSort(schemas: Record<string, JsonSchema>, names: Iterable<string>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`cycle through ${name}`);
    state.set(name, 'visiting');
    const schema = schemas[name];
    if (!schema) throw new Error(`unknown schema ${name}`);
    // Itself excepted: a self-reference is written as a getter (objectFor).
    const deps = [...refsOf({ ...schema, $ref: undefined }, new Set())].filter((dep) => dep !== name);
    for (const dep of deps.sort()) visit(dep);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of [...names].sort()) visit(name);
  return order;
}

function closure(schemas: Record<string, JsonSchema>, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop() as string; // the loop condition guarantees an element
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...refsOf(schemas[name], new Set()));
  }
  return seen;
}

function schemaModule(schemas: Record<string, JsonSchema>, names: Iterable<string>, mode: Mode): string {
  const header =
    mode === 'model'
      ? `// GENERATED by scripts/generate-scc-schemas.ts from the SCC OpenAPI reference. Do not edit.
// Response-side models: unknown fields are kept, optional fields may be null, enum values are open.
import { z } from 'zod';

/** An enum the vendor may extend: known values are typed, unknown ones still parse. */
function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  void values;
  // Known values stay visible to the type checker; any other string is accepted at run time.
  return z.string() as unknown as z.ZodType<T[number] | (string & {}), string>;
}
`
      : `// GENERATED by scripts/generate-scc-schemas.ts from the SCC OpenAPI reference. Do not edit.
// Request-side inputs: closed enums, anchored patterns, lengths, ranges and item counts enforced.
import { z } from 'zod';

function uniqueItems(items: readonly unknown[]): boolean {
  return new Set(items.map((item) => JSON.stringify(item))).size === items.length;
}
`;
  const parts = [header];
  for (const name of topoSort(schemas, names)) {
    const schema = schemas[name] as JsonSchema;
    const zod =
      schema.properties || schema.type === 'object' ? objectFor(schema, mode, name) : zodFor(schema, mode);
    const nullable = schema.nullable && !zod.endsWith('.nullable()') ? '.nullable()' : '';
    parts.push(`export const ${name} = ${zod}${nullable};\nexport type ${name} = z.infer<typeof ${name}>;\n`);
    if (schema.enum) parts.push(`export const ${name}Values = ${JSON.stringify(schema.enum)} as const;\n`);
  }
  return parts.join('\n');
}

function successSchemaName(op: Operation, status: string): string | null {
  const content = op.responses[status]?.content;
  const schema = content?.['application/json']?.schema ?? content?.['*/*']?.schema;
  return schema?.$ref ? refName(schema.$ref) : null;
}

function operationsModule(paths: Record<string, Record<string, Operation>>): string {
  const lines: string[] = [
    '// GENERATED by scripts/generate-scc-schemas.ts from the SCC OpenAPI reference. Do not edit.',
    '// One row per operation: method, path, parameters, request body and the success responses.',
    "import * as Input from './inputs.js';",
    "import * as Model from './models.js';",
    '',
    'export const sccOperations = {',
  ];
  const ids: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      ids.push(op.operationId);
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const query = params
        .filter((p) => p.in === 'query')
        .map((p) => {
          const array = p.schema?.type === 'array';
          return `{ name: ${JSON.stringify(p.name)}, required: ${Boolean(p.required)}, array: ${array} }`;
        });
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const body = bodySchema?.$ref ? `Input.${refName(bodySchema.$ref)}` : 'null';
      const responses = Object.keys(op.responses)
        .filter((status) => status.startsWith('2'))
        .map((status) => {
          const name = successSchemaName(op, status);
          return `${status}: ${name ? `Model.${name}` : 'null'}`;
        });
      lines.push(
        `  ${op.operationId}: {`,
        `    method: '${method.toUpperCase()}',`,
        `    path: '${path}',`,
        `    summary: ${JSON.stringify(op.summary ?? op.operationId)},`,
        `    pathParams: ${JSON.stringify(pathParams)},`,
        `    query: [${query.join(', ')}],`,
        `    body: ${body},`,
        `    bodyRequired: ${Boolean(op.requestBody?.required)},`,
        `    responses: { ${responses.join(', ')} },`,
        '  },',
      );
    }
  }
  lines.push('} as const;', '', 'export type SccOperationId = keyof typeof sccOperations;', '');
  lines.push(`export const sccOperationIds = ${JSON.stringify(ids.sort())} as const;`, '');
  return lines.join('\n');
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const options = args.filter((arg) => arg.startsWith('-'));
  if (options.length > 0) {
    process.stderr.write(`generate-scc: unknown option ${options.join(', ')}.\n${USAGE}\n`);
    return 2;
  }
  let spec: Spec;
  try {
    spec = readSpec(specSourcesFrom(args));
  } catch (error) {
    if (!(error instanceof ReferenceFileError)) throw error;
    process.stderr.write(`generate-scc: ${error.message}.\n`);
    return 2;
  }
  const schemas = spec.components.schemas;
  const inputRoots = new Set<string>();
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) {
      const body = op.requestBody?.content['application/json']?.schema;
      if (body?.$ref) inputRoots.add(refName(body.$ref));
    }
  }
  await writeFile(join(outDir, 'models.ts'), schemaModule(schemas, Object.keys(schemas), 'model'));
  await writeFile(join(outDir, 'inputs.ts'), schemaModule(schemas, closure(schemas, inputRoots), 'input'));
  await writeFile(join(outDir, 'operations.ts'), operationsModule(spec.paths));
  // Formatted here rather than by a second command in package.json, so `npm run generate:scc -- file.yaml`
  // hands its arguments to this script alone.
  execFileSync(join(root, 'node_modules/.bin/biome'), ['check', '--write', '--unsafe', outDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.stdout.write(`generated ${Object.keys(schemas).length} models and the operation table\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
