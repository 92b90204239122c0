// The vendor's OpenAPI files as fwbot's scripts read them: where the reference cuts live, the shape of an
// OpenAPI 3.0 file (the parts the scripts use, parsed with zod at the boundary), and the merge of several
// files into one description. Shared by the generator (scripts/generate-scc-schemas.ts) and the drift check
// (scripts/check-reference.ts), so both read the cuts the same way.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_DIR = resolve(root, '../shared/reference');

/**
 * The cuts the client is generated from (-subset: the operations behind fwbot's commands, with the
 * transaction and inventory reads that following work and naming devices need; -changes: staged changes
 * and deploys; -msp: the MSP portal's reach; -events: the change and audit logs; -lookups: search, access
 * rules, objects and the ASA command line; -governance: change requests, tenant settings, cancel); they share identical component schemas and no path, so they
 * merge into one description.
 */
export const CLIENT_CUTS = [
  'scc-openapi-subset.yaml',
  'scc-openapi-changes.yaml',
  'scc-openapi-msp.yaml',
  'scc-openapi-events.yaml',
  'scc-openapi-lookups.yaml',
  'scc-openapi-governance.yaml',
];

/** SCC_OPENAPI names other files instead of the reference cuts (comma-separated), for every script alike. */
function fromEnvironment(): string[] | undefined {
  return process.env.SCC_OPENAPI?.split(',').map((path) => path.trim());
}

/** The files the client is generated from. */
export function clientCutPaths(): string[] {
  return fromEnvironment() ?? CLIENT_CUTS.map((file) => resolve(REFERENCE_DIR, file));
}

/**
 * The vendor's OpenAPI files a script was given as arguments, resolved from the directory it was run in
 * (npm runs scripts from the project's root and keeps the caller's directory in INIT_CWD); without any,
 * the reference cuts beside the project (clientCutPaths).
 */
export function specPathsFrom(
  args: readonly string[],
  cwd = process.env.INIT_CWD ?? process.cwd(),
): string[] {
  return args.length > 0 ? args.map((path) => resolve(cwd, path)) : clientCutPaths();
}

/**
 * Every cut of the vendor commit fwbot is built against (scc-openapi-*.yaml), or SCC_OPENAPI's files;
 * undefined when the reference folder is absent (a user's clone).
 */
export function allCutPaths(): string[] | undefined {
  const named = fromEnvironment();
  if (named) return named;
  if (!existsSync(REFERENCE_DIR)) return undefined;
  return readdirSync(REFERENCE_DIR)
    .filter((file) => /^scc-openapi-.*\.ya?ml$/.test(file))
    .sort()
    .map((file) => resolve(REFERENCE_DIR, file));
}

export interface JsonSchema {
  $ref?: string | undefined;
  type?: string | undefined;
  enum?: unknown[] | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
  uniqueItems?: boolean | undefined;
  nullable?: boolean | undefined;
  deprecated?: boolean | undefined;
  items?: JsonSchema | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  additionalProperties?: JsonSchema | boolean | undefined;
  allOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  anyOf?: JsonSchema[] | undefined;
}

/** Only what the scripts read is checked; everything else in a schema object is kept as it is. */
export const JsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    $ref: z.string().optional(),
    type: z.string().optional(),
    enum: z.array(z.unknown()).optional(),
    format: z.string().optional(),
    pattern: z.string().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    uniqueItems: z.boolean().optional(),
    nullable: z.boolean().optional(),
    deprecated: z.boolean().optional(),
    items: JsonSchema.optional(),
    properties: z.record(z.string(), JsonSchema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([JsonSchema, z.boolean()]).optional(),
    allOf: z.array(JsonSchema).optional(),
    oneOf: z.array(JsonSchema).optional(),
    anyOf: z.array(JsonSchema).optional(),
  }),
);

export const Parameter = z.looseObject({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  schema: JsonSchema.optional(),
});
export type Parameter = z.infer<typeof Parameter>;

const MediaType = z.looseObject({ schema: JsonSchema.optional() });

/** A response, or a `$ref` to one of components.responses. */
export const Response = z.looseObject({
  $ref: z.string().optional(),
  content: z.record(z.string(), MediaType).optional(),
});
export type Response = z.infer<typeof Response>;

export const Operation = z.looseObject({
  operationId: z.string(),
  summary: z.string().optional(),
  deprecated: z.boolean().optional(),
  parameters: z.array(Parameter).optional(),
  requestBody: z
    .looseObject({ required: z.boolean().optional(), content: z.record(z.string(), MediaType) })
    .optional(),
  responses: z.record(z.string(), Response),
});
export type Operation = z.infer<typeof Operation>;

export const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The keys of a path item other than its operations (summary, description, parameters, servers). */
const PathItem = z.record(z.string(), z.unknown());

const OpenApiFile = z.looseObject({
  paths: z.record(z.string(), PathItem),
  components: z
    .looseObject({
      schemas: z.record(z.string(), JsonSchema).optional(),
      responses: z.record(z.string(), Response).optional(),
    })
    .optional(),
});

export interface Spec {
  /** path → method (lower case) → operation, in the files' order. */
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, Response> };
}

/** A reference file that cannot be read as an OpenAPI description; the message is one sentence for a person. */
export class ReferenceFileError extends Error {
  override readonly name = 'ReferenceFileError';
}

export function refName(ref: string): string {
  const name = ref.split('/').pop();
  if (!name) throw new Error(`bad $ref ${ref}`);
  return name;
}

function problemAt(path: string, error: z.ZodError, within: readonly string[] = []): ReferenceFileError {
  const issue = error.issues[0];
  const where = [...within, ...(issue?.path ?? []).map(String)].join('.') || 'the top level';
  return new ReferenceFileError(
    `${path} is not an OpenAPI description fwbot can read: at ${where}, ${issue?.message ?? 'invalid'}`,
  );
}

async function readSpecFile(path: string): Promise<Spec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : `it cannot be read (${code ?? String(cause)})`;
    throw new ReferenceFileError(`${path}: ${why}`, { cause });
  }
  let document: unknown;
  try {
    // Warnings (ambiguous aliases and the like) are the YAML library's to print, not ours: errors are enough.
    document = parse(text, { logLevel: 'error' });
  } catch (cause) {
    const first = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]?.replace(/:$/, '');
    throw new ReferenceFileError(`${path} is not valid YAML: ${first}`, { cause });
  }
  if (typeof document !== 'object' || document === null || !('paths' in document))
    throw new ReferenceFileError(`${path} is not an OpenAPI description: it has no paths`);
  const file = OpenApiFile.safeParse(document);
  if (!file.success) throw problemAt(path, file.error);
  const paths: Spec['paths'] = {};
  for (const [route, item] of Object.entries(file.data.paths)) {
    const operations: Record<string, Operation> = {};
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const operation = Operation.safeParse(value);
      if (!operation.success) throw problemAt(path, operation.error, ['paths', route, method]);
      operations[method] = operation.data;
    }
    paths[route] = operations;
  }
  return {
    paths,
    components: {
      schemas: file.data.components?.schemas ?? {},
      responses: file.data.components?.responses ?? {},
    },
  };
}

/** The files as one description; an operation or a component defined twice differently is an error, never a choice. */
export async function mergedSpec(paths: readonly string[]): Promise<Spec> {
  const merged: Spec = { paths: {}, components: { schemas: {}, responses: {} } };
  for (const path of paths) {
    const spec = await readSpecFile(path);
    for (const [route, item] of Object.entries(spec.paths)) {
      // Cuts of one vendor file may share a path, each with its own methods (GET /v1/objects in -lookups,
      // POST in -access); the same method described twice must be described the same way.
      const into = merged.paths[route] ?? {};
      for (const [method, operation] of Object.entries(item)) {
        const known = into[method];
        if (known && JSON.stringify(known) !== JSON.stringify(operation))
          throw new ReferenceFileError(
            `${path}: ${method.toUpperCase()} ${route} differs from the one in an earlier file`,
          );
        into[method] = operation;
      }
      merged.paths[route] = into;
    }
    for (const kind of ['schemas', 'responses'] as const) {
      const into: Record<string, unknown> = merged.components[kind];
      for (const [name, component] of Object.entries(spec.components[kind])) {
        const known = into[name];
        if (known && JSON.stringify(known) !== JSON.stringify(component))
          throw new ReferenceFileError(`${path}: ${kind} ${name} differs from the one in an earlier file`);
        into[name] = component;
      }
    }
  }
  return merged;
}
