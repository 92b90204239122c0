// The vendor's OpenAPI files as fwbot reads them: which reference cuts the client is generated from (the
// one list, CLIENT_CUTS), every cut of the vendor commit (allCutPaths, the drift check's baseline), the shape
// of an OpenAPI 3.0 file (the parts fwbot reads, parsed with zod at the boundary), and the one merge of
// several files into one description. Shared by the generator (scripts/generate-scc-schemas.ts), the drift
// check (scripts/check-reference.ts) and the tests' contract (test/support/openapiContract.ts), so all three
// read the same cuts the same way.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_DIR = resolve(root, '../shared/reference');

/** A reference cut the client is generated from: all of it, or only the operations named. */
export interface ClientCut {
  /** The file in ../shared/reference/. */
  readonly file: string;
  /**
   * Only these operations of the file, with the schemas they reach: a cut fwbot has begun to use. Without
   * it, every operation of the file, each of which a command must reach and the simulator must answer.
   */
  readonly only?: readonly string[];
}

/**
 * The cuts the client is generated from, in this order (-subset: the operations behind fwbot's first
 * commands, with the transaction and inventory reads that following work and naming devices need;
 * -changes: staged changes and deploys; -msp: the MSP portal's reach; -events: the change and audit logs;
 * -lookups: search, access rules, objects and the ASA command line; -governance: change requests, tenant
 * settings, cancel; -response: incident response: remote-access VPN sessions, MFA events, reconnecting
 * an ASA, accepting its new certificate, and the Secure Device Connectors). Adding a cut is one line here; one
 * more operation of a cut named with `only` is one word. Every cut of the vendor commit, whether the client
 * is generated from it or not, is in allCutPaths(): what the drift check compares a newer vendor file with.
 */
export const CLIENT_CUTS: readonly ClientCut[] = [
  { file: 'scc-openapi-subset.yaml' },
  { file: 'scc-openapi-changes.yaml' },
  { file: 'scc-openapi-msp.yaml' },
  { file: 'scc-openapi-events.yaml' },
  { file: 'scc-openapi-lookups.yaml' },
  { file: 'scc-openapi-governance.yaml' },
  { file: 'scc-openapi-response.yaml' },
  { file: 'scc-openapi-upgrades.yaml' },
  { file: 'scc-openapi-access.yaml' },
];

/** A file to read, whole or only some of its operations (see ClientCut). */
export interface SpecSource {
  readonly path: string;
  readonly only?: readonly string[] | undefined;
}

/** SCC_OPENAPI names other files instead of the reference cuts (comma-separated, read whole), for every reader alike. */
function fromEnvironment(): string[] | undefined {
  return process.env.SCC_OPENAPI?.split(',').map((path) => path.trim());
}

/** What the client is generated from: the client cuts (each with its selection), or SCC_OPENAPI's files whole. */
export function clientSources(): SpecSource[] {
  const named = fromEnvironment();
  if (named) return named.map((path) => ({ path }));
  return CLIENT_CUTS.map((cut) => ({ path: resolve(REFERENCE_DIR, cut.file), only: cut.only }));
}

/** The files the client is generated from. */
export function clientCutPaths(): string[] {
  return clientSources().map((source) => source.path);
}

/** The description the client is generated from and the contract tests hold it to: the client cuts, merged. */
export function clientSpec(): Spec {
  return readSpec(clientSources());
}

/**
 * The vendor's OpenAPI files a script was given as arguments (read whole), resolved from the directory it
 * was run in (npm runs scripts from the project's root and keeps the caller's directory in INIT_CWD);
 * without any, the client's sources (clientSources).
 */
export function specSourcesFrom(
  args: readonly string[],
  cwd = process.env.INIT_CWD ?? process.cwd(),
): SpecSource[] {
  return args.length > 0 ? args.map((path) => ({ path: resolve(cwd, path) })) : clientSources();
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

function readSpecFile(path: string): Spec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
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

const COMPONENT_REF = /^#\/components\/(schemas|responses)\/(.+)$/;

/** Every component a value refers to, through `$ref`s, and the components those refer to in turn. */
function reachedComponents(spec: Spec, from: unknown): { schemas: Set<string>; responses: Set<string> } {
  const reached = { schemas: new Set<string>(), responses: new Set<string>() };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const inner of value) visit(inner);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const ref = key === '$ref' && typeof inner === 'string' ? COMPONENT_REF.exec(inner) : null;
      if (!ref) {
        visit(inner);
        continue;
      }
      const kind = ref[1] as 'schemas' | 'responses';
      const name = ref[2] ?? '';
      if (reached[kind].has(name)) continue;
      reached[kind].add(name);
      visit(spec.components[kind][name]);
    }
  };
  visit(from);
  return reached;
}

/** The file with only the operations named, and only the components they reach. */
function selected(spec: Spec, only: readonly string[], path: string): Spec {
  const wanted = new Set(only);
  const paths: Spec['paths'] = {};
  for (const [route, item] of Object.entries(spec.paths)) {
    const kept = Object.entries(item).filter(([, operation]) => wanted.delete(operation.operationId));
    if (kept.length > 0) paths[route] = Object.fromEntries(kept);
  }
  if (wanted.size > 0) throw new ReferenceFileError(`${path} has no operation ${[...wanted].join(', ')}`);
  const reached = reachedComponents(spec, paths);
  const pick = <T>(all: Record<string, T>, names: Set<string>) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name)));
  return {
    paths,
    components: {
      schemas: pick(spec.components.schemas, reached.schemas),
      responses: pick(spec.components.responses, reached.responses),
    },
  };
}

/**
 * The files as one description, each whole or only its selected operations; an operation or a component
 * defined twice differently is an error, never a choice. The one merge: the generator, the drift check and
 * the tests' contract all read the reference through it.
 */
export function readSpec(sources: readonly SpecSource[]): Spec {
  const merged: Spec = { paths: {}, components: { schemas: {}, responses: {} } };
  for (const { path, only } of sources) {
    const whole = readSpecFile(path);
    const spec = only ? selected(whole, only, path) : whole;
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

/** Whole files as one description (readSpec without selections). */
export function mergedSpec(paths: readonly string[]): Spec {
  return readSpec(paths.map((path) => ({ path })));
}
