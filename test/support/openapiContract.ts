// The SCC OpenAPI reference as an executable contract for tests: the description the client is generated
// from (the client cuts of scripts/scc-reference.ts, read and merged by its readSpec, as the generator reads
// them: one list, one merge), with its schemas compiled by ajv, answering "is this request / response one the
// reference allows?" as a list of violations (empty = valid). Shared by the client's and the simulator's
// contract tests, so both sides are held to the same files and neither copies them.
//
// The reference is not part of the repository (users' clones do not have it): callers ask
// `contractSkipReason()` first and skip with that message when it is absent.
import { existsSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { clientCutPaths, clientSpec, mergedSpec, type Spec } from '../../scripts/scc-reference.js';

/** The files the client is generated from: the client cuts beside the repository, or SCC_OPENAPI's files. */
export const REFERENCE_PATHS: readonly string[] = clientCutPaths();
/** The first (main) file of the reference, for messages. */
export const REFERENCE_PATH = REFERENCE_PATHS[0] ?? '';

/**
 * Where the vendor's file contradicts itself so that no real answer can pass, the contract holds the
 * sensible reading instead, and says so (README, "SCC simulator"):
 * getChangesDeployedInDeploymentRun's 200 declares its items as `oneOf: [FtdChangeItemDto, AsaChangeItemDto]`
 * with a stray `type: string` beside it, and the two alternatives overlap (no required fields; both
 * `deploymentType` enums list ASA_DEVICE_DEPLOY), so only an empty list validates. The description says the
 * `deploymentType` field on each item identifies which shape it is: the contract checks each item against
 * AsaChangeItemDto when it says ASA_DEVICE_DEPLOY, else against FtdChangeItemDto.
 */
export const SCHEMA_CORRECTIONS = [
  {
    operationId: 'getChangesDeployedInDeploymentRun',
    status: '200',
    flaw: 'items are `oneOf` two overlapping object schemas beside a stray `type: string`: only [] validates',
    items: {
      if: { properties: { deploymentType: { const: 'ASA_DEVICE_DEPLOY' } }, required: ['deploymentType'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else, not a promise
      then: { $ref: '#/components/schemas/AsaChangeItemDto' },
      else: { $ref: '#/components/schemas/FtdChangeItemDto' },
    },
  },
] as const;

/** Schemas whose `oneOf` alternatives overlap so that nothing validates: checked as `anyOf` (see correct()). */
export const OVERLAPPING_ONE_OF = ['ObjectContent', 'SingleContent'] as const;

/** One broken rule, readable on its own: `query.deviceUids/0: must match format "uuid"`. */
export type Violation = string;

export interface CapturedRequest {
  method: string;
  /** The path as sent on the wire (still percent-encoded), relative to the server URL (no `/firewall`). */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

export interface ResponseExample {
  status: string;
  /** `example` for a single example, otherwise the key under `examples`. */
  name: string;
  value: unknown;
}

export interface SchemaExample {
  status: string;
  /** Assembled from the `example` keywords inside the schema, as documentation renderers show it. */
  value: unknown;
}

export interface OpenApiContract {
  listOperationIds(): string[];
  /** Method and path template of an operation, e.g. `{ method: 'GET', path: '/v1/inventory/devices' }`. */
  route(operationId: string): { method: string; path: string };
  /** The operationId whose method and path template match a request, if any (literal paths win). */
  matchOperation(method: string, path: string): string | undefined;
  validateRequest(operationId: string, request: CapturedRequest): Violation[];
  validateResponse(operationId: string, status: number, body: unknown): Violation[];
  /** The statuses an operation declares, as written in the file ('200', '404', …). */
  declaredStatuses(operationId: string): string[];
  responseExamples(operationId: string): ResponseExample[];
  schemaExamples(operationId: string): SchemaExample[];
  /**
   * The parameters of a request made of the reference's own examples (else a parameter's default, else a
   * value of its schema's type, a UUID where it says uuid): every path parameter, and every query parameter
   * that is required or has an example or a default. What a derived contract row sends.
   */
  exampleParameters(operationId: string): ExampleParameters;
}

export interface ExampleParameters {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
}

/** Stands for a parameter the reference says is a UUID and gives no example of. */
export const EXAMPLE_UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** Undefined when the reference is readable; otherwise the message a test prints when it skips. */
export function contractSkipReason(path: string | readonly string[] = REFERENCE_PATHS): string | undefined {
  const paths = typeof path === 'string' ? [path] : path;
  const missing = paths.find((p) => !existsSync(p));
  if (missing === undefined) return undefined;
  const shown =
    paths === REFERENCE_PATHS && !process.env.SCC_OPENAPI
      ? `../shared/reference/${missing.split('/').pop() ?? ''}`
      : missing;
  return `skipped: ${shown} not found (the SCC OpenAPI reference is not part of the repository)`;
}

const cache = new Map<string, OpenApiContract>();

/**
 * Loads and compiles the client's description once (or, given files, those files whole, merged). Throws
 * with the skip reason when absent.
 */
export function loadOpenApiContract(path: string | readonly string[] = REFERENCE_PATHS): OpenApiContract {
  const paths = typeof path === 'string' ? [path] : [...path];
  const key = paths.join(',');
  const cached = cache.get(key);
  if (cached) return cached;
  const reason = contractSkipReason(paths);
  if (reason) throw new Error(reason);
  const spec = path === REFERENCE_PATHS ? clientSpec() : mergedSpec(paths);
  const contract = buildContract(correct(asDocument(spec)));
  cache.set(key, contract);
  return contract;
}

/**
 * The scripts' zod parse checked what they read and kept every other keyword as written (loose objects);
 * the contract reads a few more of them (a parameter's style and explode, a response's examples) through
 * its own types below.
 */
function asDocument(spec: Spec): OpenApiDocument {
  return spec as unknown as OpenApiDocument;
}

/**
 * Applies SCHEMA_CORRECTIONS where the flaw is present (a vendor fix makes them no-ops), and drops repeated
 * enum values (AsaChangeItemDto, FtdChangeItemDto and MspSecureClientUpgradeCompatibilityInfoDto list one
 * twice, which JSON Schema forbids and ajv refuses; the set of allowed values is the same).
 */
function correct(doc: OpenApiDocument): OpenApiDocument {
  const dedupeEnums = (value: unknown): void => {
    if (Array.isArray(value)) for (const inner of value) dedupeEnums(inner);
    if (!isSchema(value)) return;
    if (Array.isArray(value.enum)) value.enum = [...new Set(value.enum)];
    for (const [key, inner] of Object.entries(value))
      if (key !== 'example' && key !== 'enum') dedupeEnums(inner);
  };
  dedupeEnums(doc.components.schemas);
  dedupeEnums(doc.paths);
  // The lookups cut's object content is `oneOf` alternatives that overlap (ServiceObjectContent and
  // GroupContent require nothing, so every object matches both): no content can match exactly one. It is
  // read as `anyOf`: a content must still be one of the shapes the reference lists.
  for (const name of OVERLAPPING_ONE_OF) {
    const schema = doc.components.schemas[name];
    if (isSchema(schema) && Array.isArray(schema.oneOf)) {
      schema.anyOf = schema.oneOf;
      delete schema.oneOf;
    }
  }
  for (const correction of SCHEMA_CORRECTIONS) {
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        if (Array.isArray(operation) || operation.operationId !== correction.operationId) continue;
        const schema = jsonMedia(operation.responses[correction.status]?.content ?? {})?.schema;
        const items = schema?.items;
        if (schema && isSchema(items) && Array.isArray(items.oneOf) && items.type === 'string') {
          schema.items = structuredClone(correction.items) as unknown as JsonSchema;
        }
      }
    }
  }
  return doc;
}

// Convenience forms over the default reference, for tests that only need one call.
export const listOperationIds = (): string[] => loadOpenApiContract().listOperationIds();
export const validateRequest = (operationId: string, request: CapturedRequest): Violation[] =>
  loadOpenApiContract().validateRequest(operationId, request);
export const validateResponse = (operationId: string, status: number, body: unknown): Violation[] =>
  loadOpenApiContract().validateResponse(operationId, status, body);
export const responseExamples = (operationId: string): ResponseExample[] =>
  loadOpenApiContract().responseExamples(operationId);
export const schemaExamples = (operationId: string): SchemaExample[] =>
  loadOpenApiContract().schemaExamples(operationId);

// --- the OpenAPI 3.0 document, as far as this helper reads it ---

type JsonSchema = { [keyword: string]: unknown };

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  schema?: JsonSchema;
  style?: string;
  explode?: boolean;
}

interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface Response {
  $ref?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { schemas: Record<string, JsonSchema>; responses?: Record<string, Response> };
}

interface IndexedOperation {
  id: string;
  method: string;
  template: string;
  segments: string[];
  operation: Operation;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const SPEC_ID = 'https://fwbot.invalid/scc-openapi.json';
const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';

function buildContract(doc: OpenApiDocument): OpenApiContract {
  const ajv = createAjv();
  ajv.addSchema({ $id: SPEC_ID, definitions: rewriteRefs(doc.components.schemas) });
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const validatorFor = (schema: JsonSchema): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
      compiled.set(schema, validate);
    }
    return validate;
  };

  const operations = indexOperations(doc);
  const byId = new Map(operations.map((op) => [op.id, op]));
  const need = (operationId: string): IndexedOperation => {
    const op = byId.get(operationId);
    if (!op) throw new Error(`the reference has no operation ${operationId}`);
    return op;
  };

  const resolveResponse = (response: Response): Response => {
    if (!response.$ref) return response;
    const target = doc.components.responses?.[response.$ref.slice(RESPONSE_REF.length)];
    if (!response.$ref.startsWith(RESPONSE_REF) || !target) throw new Error(`unresolved ${response.$ref}`);
    return target;
  };

  const resolveSchema = (schema: JsonSchema): JsonSchema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const target = doc.components.schemas[ref.slice(SCHEMA_REF.length)];
    if (!ref.startsWith(SCHEMA_REF) || !target) throw new Error(`unresolved ${ref}`);
    return target;
  };

  const composeExample = (schema: JsonSchema, seen: ReadonlySet<JsonSchema> = new Set()): unknown => {
    if (seen.has(schema)) return undefined; // a recursive schema: stop where a renderer would
    const here = new Set(seen).add(schema);
    const resolved = resolveSchema(schema);
    if (resolved !== schema) return composeExample(resolved, here);
    if ('example' in schema) return schema.example;
    if (schema.type === 'array' && isSchema(schema.items)) {
      const item = composeExample(schema.items, here);
      return item === undefined ? undefined : [item];
    }
    if (isSchema(schema.properties)) {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!isSchema(property)) continue;
        const value = composeExample(property, here);
        if (value !== undefined) out[name] = value;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    return undefined;
  };

  return {
    listOperationIds: () => operations.map((op) => op.id).sort(),
    route: (operationId) => {
      const op = need(operationId);
      return { method: op.method, path: op.template };
    },
    matchOperation: (method, path) => {
      const candidates = operations.filter(
        (op) => op.method === method.toUpperCase() && matchPath(op.segments, path) !== undefined,
      );
      // A literal segment beats a parameter (`/tenants/create` is createTenant, not `/tenants/{tenantUid}`).
      candidates.sort((a, b) => literalCount(b.segments) - literalCount(a.segments));
      return candidates[0]?.id;
    },
    declaredStatuses: (operationId) => Object.keys(need(operationId).operation.responses),

    validateRequest(operationId, request) {
      const op = need(operationId);
      const violations: Violation[] = [];
      if (request.method.toUpperCase() !== op.method) {
        violations.push(`method: ${request.method.toUpperCase()} where the reference says ${op.method}`);
      }
      const pathValues = matchPath(op.segments, request.path);
      if (!pathValues) {
        violations.push(`path: ${request.path} does not match ${op.template}`);
      }
      const parameters = op.operation.parameters ?? [];
      for (const parameter of parameters) {
        const schema = parameter.schema ?? {};
        const where = `${parameter.in}.${parameter.name}`;
        let value: unknown;
        if (parameter.in === 'path') {
          if (!pathValues) continue;
          value = pathValues.get(parameter.name);
          if (value === null) {
            violations.push(`${where}: is not valid percent-encoding`);
            continue;
          }
        } else if (parameter.in === 'query') {
          const given = request.query.getAll(parameter.name);
          if (given.length === 0) {
            if (parameter.required) violations.push(`${where}: is required`);
            continue;
          }
          const explode = parameter.explode ?? (parameter.style ?? 'form') === 'form';
          if (resolveSchema(schema).type === 'array') {
            // form style, explode true (OpenAPI's default): one `name=value` pair per item.
            value = explode ? given : (given[0] ?? '').split(',');
          } else if (given.length > 1) {
            violations.push(`${where}: given ${given.length} times but takes one value`);
            continue;
          } else {
            value = given[0];
          }
          value = deserialize(resolveSchema(schema), value);
        } else {
          continue; // headers and cookies: none in the reference beyond Authorization
        }
        violations.push(...schemaViolations(validatorFor(schema), value, where));
      }
      const declaredQuery = new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of new Set(request.query.keys())) {
        if (!declaredQuery.has(name)) violations.push(`query.${name}: is not a parameter of ${operationId}`);
      }

      const requestBody = op.operation.requestBody;
      if (!requestBody) {
        if (request.body !== undefined) violations.push(`body: ${operationId} takes no request body`);
      } else if (request.body === undefined) {
        if (requestBody.required) violations.push('body: is required');
      } else {
        const schema = jsonMedia(requestBody.content)?.schema;
        if (schema) violations.push(...schemaViolations(validatorFor(schema), request.body, 'body'));
      }
      return violations;
    },

    validateResponse(operationId, status, body) {
      const op = need(operationId);
      const declared = op.operation.responses[String(status)] ?? op.operation.responses.default;
      if (!declared) {
        const statuses = Object.keys(op.operation.responses).join(', ');
        return [`status: ${status} is not declared by ${operationId} (declared: ${statuses})`];
      }
      const response = resolveResponse(declared);
      // A 204 never has a body (RFC 9110 §15.3.5), whatever content the reference declares for it (the
      // access cut's deleteObject declares `*/*` object content on its 204).
      if (!response.content || status === 204) {
        return body === undefined ? [] : [`body: status ${status} declares no content`];
      }
      const schema = jsonMedia(response.content)?.schema;
      if (!schema) return []; // content without a schema: any JSON is allowed
      return schemaViolations(validatorFor(schema), body, 'body');
    },

    responseExamples(operationId) {
      const examples: ResponseExample[] = [];
      for (const [status, declared] of Object.entries(need(operationId).operation.responses)) {
        for (const media of Object.values(resolveResponse(declared).content ?? {})) {
          if ('example' in media) examples.push({ status, name: 'example', value: media.example });
          for (const [name, example] of Object.entries(media.examples ?? {})) {
            if ('value' in example) examples.push({ status, name, value: example.value });
          }
        }
      }
      return examples;
    },

    exampleParameters(operationId) {
      const out: ExampleParameters = { path: {}, query: {} };
      for (const parameter of need(operationId).operation.parameters ?? []) {
        const schema = resolveSchema(parameter.schema ?? {});
        const given = parameter.example ?? schema.example ?? schema.default;
        if (parameter.in === 'path') {
          out.path[parameter.name] = String(given ?? valueOfType(schema));
        } else if (parameter.in === 'query' && (given !== undefined || parameter.required)) {
          const items = isSchema(schema.items) ? resolveSchema(schema.items) : {};
          if (schema.type !== 'array') out.query[parameter.name] = String(given ?? valueOfType(schema));
          else if (Array.isArray(given)) out.query[parameter.name] = given.map(String);
          else out.query[parameter.name] = [String(given ?? items.example ?? valueOfType(items))];
        }
      }
      return out;
    },

    schemaExamples(operationId) {
      const examples: SchemaExample[] = [];
      for (const [status, declared] of Object.entries(need(operationId).operation.responses)) {
        const schema = jsonMedia(resolveResponse(declared).content ?? {})?.schema;
        const value = schema ? composeExample(schema) : undefined;
        if (value !== undefined) examples.push({ status, value });
      }
      return examples;
    },
  };
}

/** A value of a schema's type, for a parameter the reference gives no example or default of. */
function valueOfType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if (schema.format === 'uuid') return EXAMPLE_UUID;
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  return 'example';
}

function createAjv(): Ajv {
  // strict: an OpenAPI keyword this helper does not know about fails loudly instead of being ignored.
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  // ajv-formats is CommonJS; under nodenext its plugin is the module's `default` export.
  addFormatsModule.default(ajv);
  // OpenAPI 3.0 annotations that are not JSON Schema draft-07 (ajv implements `nullable` itself, and
  // `deprecated` is already one of its metadata keywords).
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
  // OpenAPI's numeric formats: ranges for the integer ones, anything finite for the floating ones.
  const int32 = {
    type: 'number' as const,
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31,
  };
  ajv.addFormat('int32', int32);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: Number.isFinite });
  ajv.addFormat('double', { type: 'number', validate: Number.isFinite });
  return ajv;
}

/** Component refs point into the document registered under SPEC_ID; compiled schemas have no document. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isSchema(value)) return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF)) {
      out[key] = `${SPEC_ID}#/definitions/${inner.slice(SCHEMA_REF.length)}`;
    } else if (key === 'example' || key === 'examples') {
      out[key] = inner; // examples are data, not schemas: leave them as written
    } else {
      out[key] = rewriteRefs(inner);
    }
  }
  return out;
}

function indexOperations(doc: OpenApiDocument): IndexedOperation[] {
  const out: IndexedOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || Array.isArray(operation)) continue;
      out.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        template,
        segments: template.split('/'),
        operation,
      });
    }
  }
  return out;
}

/** Parameter values by name when the path fits the template; null marks a value that is not valid percent-encoding. */
function matchPath(segments: readonly string[], path: string): Map<string, string | null> | undefined {
  const given = path.split('/');
  if (given.length !== segments.length) return undefined;
  const values = new Map<string, string | null>();
  for (const [index, segment] of segments.entries()) {
    const actual = given[index] ?? '';
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name === undefined) {
      if (actual !== segment) return undefined;
      continue;
    }
    if (actual === '') return undefined;
    try {
      values.set(name, decodeURIComponent(actual));
    } catch {
      values.set(name, null);
    }
  }
  return values;
}

function literalCount(segments: readonly string[]): number {
  return segments.filter((segment) => !segment.startsWith('{')).length;
}

/** Query text to the typed value the schema describes, so ajv checks types rather than strings. */
function deserialize(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = isSchema(schema.items) ? schema.items : {};
    return value.map((item) => deserialize(items, item));
  }
  if (typeof value !== 'string') return value;
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function jsonMedia(content: Record<string, MediaType>): MediaType | undefined {
  return content['application/json'] ?? Object.values(content)[0];
}

function schemaViolations(validate: ValidateFunction, value: unknown, where: string): Violation[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${where}${error.instancePath} ${describeError(error)}`);
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    return `has unknown property '${String(params.additionalProperty)}'`;
  if (error.keyword === 'enum') return `${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return error.message ?? error.keyword;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
