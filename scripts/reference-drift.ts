// What changed between the vendor's description fwbot is built against (the baseline) and a newer one, judged
// by what fwbot does with each part: the operations it calls, the parameters and request bodies it sends, the
// responses it reads. Pure: two merged descriptions and fwbot's usage in, findings out.
//
// A change breaks fwbot when fwbot could no longer do what it does: an operation it calls is gone, renamed
// or moved; something it sends is removed, newly required, narrowed or typed differently; something it
// reads is removed, made optional or retyped where fwbot's own zod model (the one the client parses with)
// would refuse the new answer. Where that model already takes the change (an optional field removed, a new
// value in an open enum), fwbot copes and the change is reported as such. Additions are information.
// Operations are matched by id, else by method and path (an operation renamed in place).
import type { FwbotUsage } from './fwbot-usage.js';
import { type JsonSchema, type Operation, type Parameter, refName, type Spec } from './scc-reference.js';
import { type Direction, type Finding, type Place, SchemaComparison } from './schema-drift.js';

export type { Finding, Severity } from './schema-drift.js';

export interface Drift {
  findings: Finding[];
  /** Operations of the newer description that the baseline does not have (fwbot calls none of them). */
  beyondBaseline: string[];
  /** Operations of the baseline that the newer description lacks and that fwbot does not call. */
  removedUnused: string[];
}

interface OperationEntry {
  id: string;
  method: string;
  path: string;
  operation: Operation;
}

function operationsOf(spec: Spec): Map<string, OperationEntry> {
  const entries = new Map<string, OperationEntry>();
  for (const [path, item] of Object.entries(spec.paths))
    for (const [method, operation] of Object.entries(item)) {
      const id = operation.operationId;
      entries.set(id, { id, method: method.toUpperCase(), path, operation });
    }
  return entries;
}

function jsonBody(
  content: Record<string, { schema?: JsonSchema | undefined }> | undefined,
): JsonSchema | undefined {
  return content?.['application/json']?.schema ?? content?.['*/*']?.schema;
}

/** The JSON schema of one response of an operation, following a `$ref` to components.responses. */
function responseBody(spec: Spec, operation: Operation, status: string): JsonSchema | undefined {
  const response = operation.responses[status];
  const target = response?.$ref ? spec.components.responses[refName(response.$ref)] : response;
  return jsonBody(target?.content);
}

/** Response statuses proper (`200`, `404`), not `default`. */
function statusesOf(operation: Operation): string[] {
  return Object.keys(operation.responses).filter((status) => /^\d{3}$/.test(status));
}

export function compareReferences(baseline: Spec, newer: Spec, usage: FwbotUsage): Drift {
  const findings = new Map<string, Finding>();
  const report = (finding: Finding): void => {
    const key = [finding.severity, finding.where, finding.change, finding.fwbot].join('|');
    const operations = new Set([...(findings.get(key)?.operations ?? []), ...finding.operations]);
    findings.set(key, { ...finding, operations: [...operations].sort() });
  };
  const baseOps = operationsOf(baseline);
  const newOps = operationsOf(newer);
  const newByRoute = new Map([...newOps.values()].map((entry) => [`${entry.method} ${entry.path}`, entry]));
  const called = [...baseOps.values()].filter((entry) => usage.calls.has(entry.id));
  const schemas = new SchemaComparison(baseline, newer, usage, reachOfSchemas(baseline, called), report);

  const own = (
    entry: OperationEntry,
    direction: Direction,
    owner: string,
    model?: Place['model'],
  ): Place => ({
    direction,
    operations: new Set([entry.id]),
    owner: `${entry.id} ${owner}`,
    path: '',
    model,
  });
  const note = (place: Place, severity: Finding['severity'], change: string, fwbot: string) =>
    report({ severity, operations: [...place.operations], where: place.owner, change, fwbot });

  function compareParameters(base: OperationEntry, next: OperationEntry): void {
    const key = (parameter: Parameter) => `${parameter.in} parameter ${parameter.name}`;
    const before = new Map((base.operation.parameters ?? []).map((parameter) => [key(parameter), parameter]));
    const after = new Map((next.operation.parameters ?? []).map((parameter) => [key(parameter), parameter]));
    for (const [name, parameter] of before) {
      const place = own(base, 'sends', name);
      const now = after.get(name);
      if (!now) {
        note(place, 'breaks', 'removed', 'fwbot sends it');
        continue;
      }
      if (!parameter.required && now.required)
        note(place, 'breaks', 'now required', 'fwbot sends it only when given');
      if (parameter.required && !now.required) note(place, 'added', 'now optional', 'fwbot sends it');
      if (!parameter.deprecated && now.deprecated) note(place, 'deprecated', 'deprecated', 'fwbot sends it');
      if (parameter.schema && now.schema) schemas.compare(parameter.schema, now.schema, place);
    }
    for (const [name, parameter] of after) {
      if (before.has(name)) continue;
      const place = own(base, 'sends', name);
      if (parameter.required) note(place, 'breaks', 'added, required', 'fwbot does not send it');
      else note(place, 'added', 'added, optional', 'fwbot does not send it');
    }
  }

  /** fwbot sends a body to every operation that takes one (the client's call requires it). */
  function compareRequestBody(base: OperationEntry, next: OperationEntry): void {
    const before = jsonBody(base.operation.requestBody?.content);
    const after = jsonBody(next.operation.requestBody?.content);
    const place = own(base, 'sends', 'request body');
    if (before && !after) note(place, 'breaks', 'no longer takes a JSON body', 'fwbot sends one');
    else if (!before && after) {
      const severity = next.operation.requestBody?.required ? 'breaks' : 'added';
      note(place, severity, 'now takes a JSON body', 'fwbot sends none');
    } else if (before && after) schemas.compare(before, after, place);
  }

  /** The client refuses a success status it was not generated with, and parses each with its own model. */
  function compareResponses(base: OperationEntry, next: OperationEntry): void {
    const before = statusesOf(base.operation);
    const after = statusesOf(next.operation);
    const place = (status: string) =>
      own(base, 'reads', `${status} response`, usage.responseModel(base.id, Number(status)) ?? undefined);
    for (const status of after.filter((s) => s.startsWith('2') && !before.includes(s)))
      if (usage.responseModel(base.id, Number(status)) === undefined)
        note(
          place(status),
          'breaks',
          'added',
          'fwbot refuses a success status the reference did not declare',
        );
    for (const status of before.filter((s) => s.startsWith('2') && !after.includes(s)))
      note(place(status), 'copes', 'removed', 'fwbot still takes it; SCC should no longer send it');
    for (const status of before.filter((s) => after.includes(s))) {
      const was = responseBody(baseline, base.operation, status);
      const now = responseBody(newer, next.operation, status);
      if (was && !now)
        note(place(status), 'copes', 'body no longer described', 'fwbot parses it with its own model');
      else if (!was && now) note(place(status), 'added', 'body now described', 'fwbot reads it');
      else if (was && now) schemas.compare(was, now, place(status));
    }
  }

  const matched = new Set<string>();
  for (const base of called) {
    const route = `${base.method} ${base.path}`;
    const next = newOps.get(base.id) ?? newByRoute.get(route);
    const self = { operations: [base.id], where: route };
    if (!next) {
      const was = base.operation.deprecated ? ' (it was deprecated)' : '';
      report({ ...self, severity: 'breaks', change: `removed${was}`, fwbot: 'fwbot calls it' });
      continue;
    }
    matched.add(next.id);
    if (next.id !== base.id)
      report({
        ...self,
        severity: 'breaks',
        change: `now operation ${next.id}`,
        fwbot: 'fwbot calls it by its id',
      });
    else if (`${next.method} ${next.path}` !== route)
      report({
        ...self,
        severity: 'breaks',
        change: `moved to ${next.method} ${next.path}`,
        fwbot: 'fwbot calls it',
      });
    if (!base.operation.deprecated && next.operation.deprecated)
      report({ ...self, severity: 'deprecated', change: 'deprecated', fwbot: 'fwbot calls it' });
    if (base.operation.deprecated && !next.operation.deprecated)
      report({ ...self, severity: 'added', change: 'no longer deprecated', fwbot: 'fwbot calls it' });
    compareParameters(base, next);
    compareRequestBody(base, next);
    compareResponses(base, next);
  }

  return {
    findings: [...findings.values()],
    beyondBaseline: [...newOps.keys()].filter((id) => !baseOps.has(id) && !matched.has(id)).sort(),
    removedUnused: [...baseOps.keys()].filter((id) => !newOps.has(id) && !usage.calls.has(id)).sort(),
  };
}

function refsIn(schema: JsonSchema | undefined, into: string[]): string[] {
  if (!schema) return into;
  if (schema.$ref) into.push(refName(schema.$ref));
  refsIn(schema.items, into);
  for (const inner of Object.values(schema.properties ?? {})) refsIn(inner, into);
  if (typeof schema.additionalProperties === 'object') refsIn(schema.additionalProperties, into);
  for (const inner of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    refsIn(inner, into);
  return into;
}

/** For each named schema, the operations fwbot calls that reach it, by what fwbot does with it there. */
function reachOfSchemas(
  spec: Spec,
  called: readonly OperationEntry[],
): Record<Direction, Map<string, Set<string>>> {
  const reach: Record<Direction, Map<string, Set<string>>> = { sends: new Map(), reads: new Map() };
  const mark = (direction: Direction, id: string, roots: readonly (JsonSchema | undefined)[]) => {
    const stack = roots.flatMap((root) => refsIn(root, []));
    const seen = new Set<string>();
    while (stack.length > 0) {
      const name = stack.pop() as string; // the loop condition guarantees an element
      if (seen.has(name)) continue;
      seen.add(name);
      reach[direction].set(name, (reach[direction].get(name) ?? new Set<string>()).add(id));
      refsIn(spec.components.schemas[name], stack);
    }
  };
  for (const { id, operation } of called) {
    const sent = [
      jsonBody(operation.requestBody?.content),
      ...(operation.parameters ?? []).map((p) => p.schema),
    ];
    mark('sends', id, sent);
    mark(
      'reads',
      id,
      statusesOf(operation).map((status) => responseBody(spec, operation, status)),
    );
  }
  return reach;
}
