// One schema of the reference against its newer version, field by field, judged by what fwbot does at that
// place: sends it (a parameter, a request body) or reads it (a response, parsed with fwbot's zod model).
// Used by reference-drift.ts for every parameter, body and response of the operations fwbot calls; a named
// schema is compared once per direction, whichever operation reaches it first.
import type { z } from 'zod';
import { type FwbotUsage, modelAccepts, modelOfField, modelOfItems, modelOfValues } from './fwbot-usage.js';
import { type JsonSchema, refName, type Spec } from './scc-reference.js';

export type Direction = 'sends' | 'reads';
export type Severity = 'breaks' | 'copes' | 'deprecated' | 'added';

export interface Finding {
  severity: Severity;
  /** The operations fwbot calls that reach the changed part. */
  operations: readonly string[];
  /** The part: `POST /v1/msp/tenants`, `MspCreateTenantInput.addOns`, `createTenant query parameter limit`. */
  where: string;
  /** What changed, e.g. `removed`, `possibly renamed a → b`, `now required`. */
  change: string;
  /** What fwbot does with it and what that means, e.g. `fwbot reads it; its model requires it`. */
  fwbot: string;
}

export interface Place {
  direction: Direction;
  operations: ReadonlySet<string>;
  /** The named schema, or the operation's own part when the schema is inline. */
  owner: string;
  /** Inside the owner: `.field`, `[]` for items, `.*` for a map's values. */
  path: string;
  /** Reads only: fwbot's model at this place (undefined: fwbot does not model it, so takes anything). */
  model: z.core.$ZodType | undefined;
}

/** A value of each JSON type, to ask fwbot's model whether it would take a field retyped so. */
const SAMPLE_OF_KIND: Record<string, unknown> = {
  string: 'x',
  integer: 1,
  number: 1.5,
  boolean: true,
  array: [],
  object: {},
};

const BOUNDS = [
  { key: 'maxLength', upper: true },
  { key: 'maximum', upper: true },
  { key: 'maxItems', upper: true },
  { key: 'minLength', upper: false },
  { key: 'minimum', upper: false },
  { key: 'minItems', upper: false },
] as const;

function list(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function kindOf(schema: JsonSchema): string {
  if (schema.type) return schema.type;
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items) return 'array';
  if (schema.oneOf || schema.anyOf) return 'one of several';
  return 'anything';
}

/** Follows $refs (keeping the last name) and folds allOf into one object with every part's fields. */
function resolved(spec: Spec, schema: JsonSchema): { schema: JsonSchema; name?: string } {
  let current = schema;
  let name: string | undefined;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    name = refName(current.$ref);
    current = spec.components.schemas[name] ?? {};
  }
  if (current.allOf) {
    const parts = [current, ...current.allOf.map((part) => resolved(spec, part).schema)];
    current = {
      ...current,
      allOf: undefined,
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
      required: parts.flatMap((part) => part.required ?? []),
    };
  }
  return name ? { schema: current, name } : { schema: current };
}

/** Two fields with the same signature are candidates for a rename: same named schema, type, items, format. */
function signature(spec: Spec, schema: JsonSchema): string {
  const { schema: inner, name } = resolved(spec, schema);
  const kind = kindOf(inner);
  const items = kind === 'array' && inner.items ? `<${signature(spec, inner.items)}>` : '';
  return `${name ?? ''}:${kind}${items}:${inner.format ?? ''}`;
}

function describe(spec: Spec, schema: JsonSchema): string {
  const { schema: inner, name } = resolved(spec, schema);
  if (name) return name;
  const kind = kindOf(inner);
  return kind === 'array' && inner.items ? `array of ${describe(spec, inner.items)}` : kind;
}

export class SchemaComparison {
  private readonly visited = new Set<string>();

  constructor(
    private readonly baseline: Spec,
    private readonly newer: Spec,
    private readonly usage: FwbotUsage,
    /** For each named schema of the baseline, the operations fwbot calls that reach it, by direction. */
    private readonly reach: Record<Direction, ReadonlyMap<string, ReadonlySet<string>>>,
    private readonly report: (finding: Finding) => void,
  ) {}

  private at(place: Place, severity: Severity, change: string, fwbot: string): void {
    const where = place.owner + place.path;
    this.report({ severity, operations: [...place.operations], where, change, fwbot });
  }

  compare(baseSchema: JsonSchema, newSchema: JsonSchema, outer: Place): void {
    const base = resolved(this.baseline, baseSchema);
    const next = resolved(this.newer, newSchema);
    let place = outer;
    if (base.name) {
      const key = `${outer.direction}|${base.name}|${next.name ?? '(inline)'}`;
      if (this.visited.has(key)) return;
      this.visited.add(key);
      if (next.name && next.name !== base.name)
        this.at(
          outer,
          'added',
          `now refers to schema ${next.name} instead of ${base.name}`,
          'same on the wire',
        );
      const operations = this.reach[outer.direction].get(base.name) ?? outer.operations;
      place = { ...outer, operations, owner: base.name, path: '' };
    }
    const b = base.schema;
    const n = next.schema;
    if (kindOf(b) !== kindOf(n)) {
      this.retyped(place, kindOf(b), kindOf(n));
      return;
    }
    if (!b.deprecated && n.deprecated)
      this.at(place, 'deprecated', 'deprecated', `fwbot ${place.direction} it`);
    this.compareNullable(b, n, place);
    this.compareEnum(b, n, place);
    if (place.direction === 'sends') this.compareConstraints(b, n, place);
    if (b.properties || n.properties) this.compareFields(b, n, place);
    if (b.items && n.items)
      this.compare(b.items, n.items, { ...place, path: `${place.path}[]`, model: modelOfItems(place.model) });
    if (typeof b.additionalProperties === 'object' && typeof n.additionalProperties === 'object')
      this.compare(b.additionalProperties, n.additionalProperties, {
        ...place,
        path: `${place.path}.*`,
        model: modelOfValues(place.model),
      });
    this.compareAlternatives(b.oneOf ?? b.anyOf ?? [], n.oneOf ?? n.anyOf ?? [], place);
  }

  private retyped(place: Place, before: string, after: string): void {
    const change = `type changed from ${before} to ${after}`;
    if (place.direction === 'sends')
      this.at(place, after === 'anything' ? 'added' : 'breaks', change, 'fwbot sends it');
    else if (modelAccepts(place.model, SAMPLE_OF_KIND[after] ?? Symbol(after)))
      this.at(place, 'copes', change, 'fwbot reads it; its model takes the new type');
    else this.at(place, 'breaks', change, 'fwbot reads it; its model refuses the new type');
  }

  private compareNullable(b: JsonSchema, n: JsonSchema, place: Place): void {
    if (Boolean(b.nullable) === Boolean(n.nullable)) return;
    if (place.direction === 'sends') {
      if (b.nullable) this.at(place, 'breaks', 'no longer accepts null', 'fwbot sends it');
      else this.at(place, 'added', 'now accepts null', 'fwbot sends it');
    } else if (!b.nullable) {
      if (modelAccepts(place.model, null))
        this.at(place, 'copes', 'may now be null', 'fwbot reads it; its model takes null');
      else this.at(place, 'breaks', 'may now be null', 'fwbot reads it; its model refuses null');
    }
  }

  /** fwbot sends only values of the old list (its inputs are closed enums); its response models are open. */
  private compareEnum(b: JsonSchema, n: JsonSchema, place: Place): void {
    if (!b.enum && !n.enum) return;
    const sends = place.direction === 'sends';
    if (!n.enum) {
      this.at(place, 'added', 'no longer limited to a list of values', `fwbot ${place.direction} it`);
      return;
    }
    if (!b.enum) {
      const fwbot = sends ? 'fwbot sends it unchecked' : 'fwbot reads it';
      this.at(place, sends ? 'breaks' : 'added', `now limited to ${list(n.enum)}`, fwbot);
      return;
    }
    const before = b.enum;
    const after = n.enum;
    const removed = before.filter((value) => !after.includes(value));
    const added = after.filter((value) => !before.includes(value));
    if (sends) {
      if (removed.length > 0) this.at(place, 'breaks', `value ${list(removed)} removed`, 'fwbot sends it');
      if (added.length > 0) this.at(place, 'added', `value ${list(added)} added`, 'fwbot does not send it');
      return;
    }
    if (removed.length > 0)
      this.at(place, 'copes', `value ${list(removed)} removed`, 'fwbot reads it; SCC will no longer say it');
    const refused = added.filter((value) => !modelAccepts(place.model, value));
    const taken = added.filter((value) => !refused.includes(value));
    if (refused.length > 0)
      this.at(place, 'breaks', `value ${list(refused)} added`, 'fwbot reads it; its model refuses it');
    if (taken.length > 0)
      this.at(place, 'added', `value ${list(taken)} added`, 'fwbot reads it; its enums are open');
  }

  /** What SCC accepts, narrowed (fwbot checks its input against the old bounds) or widened. */
  private compareConstraints(b: JsonSchema, n: JsonSchema, place: Place): void {
    for (const { key, upper } of BOUNDS) {
      const before = b[key];
      const after = n[key];
      if (before === after) continue;
      const narrower =
        after !== undefined && (before === undefined || (upper ? after < before : after > before));
      this.at(
        place,
        narrower ? 'breaks' : 'added',
        `${key} ${before ?? 'none'} → ${after ?? 'none'}`,
        'fwbot sends it',
      );
    }
    for (const key of ['pattern', 'format'] as const) {
      if (b[key] === n[key]) continue;
      const change = `${key} ${b[key] ?? 'none'} → ${n[key] ?? 'none'}`;
      this.at(place, n[key] ? 'breaks' : 'added', change, 'fwbot sends it');
    }
    if (!b.uniqueItems && n.uniqueItems)
      this.at(place, 'breaks', 'items must now be unique', 'fwbot sends it');
  }

  private compareFields(b: JsonSchema, n: JsonSchema, place: Place): void {
    const before = b.properties ?? {};
    const after = n.properties ?? {};
    const requiredBefore = new Set(b.required ?? []);
    const requiredAfter = new Set(n.required ?? []);
    const sends = place.direction === 'sends';
    const field = (name: string): Place => ({
      ...place,
      path: `${place.path}.${name}`,
      model: sends ? undefined : modelOfField(place.model, name),
    });
    const added = Object.keys(after).filter((name) => !(name in before));
    const renamedTo = new Set<string>();
    for (const [name, schema] of Object.entries(before)) {
      if (name in after) continue;
      const twins = added.filter(
        (other) =>
          !renamedTo.has(other) &&
          signature(this.newer, after[other] as JsonSchema) === signature(this.baseline, schema),
      );
      for (const twin of twins) renamedTo.add(twin);
      const change = twins.length > 0 ? `possibly renamed ${name} → ${twins.join(' or ')}` : 'removed';
      if (sends) this.at(field(name), 'breaks', change, 'fwbot sends it');
      else this.readerLosesField(field(name), change, requiredBefore.has(name));
    }
    for (const name of added.filter((other) => !renamedTo.has(other))) {
      const type = describe(this.newer, after[name] as JsonSchema);
      if (sends && requiredAfter.has(name))
        this.at(field(name), 'breaks', `added, required (${type})`, 'fwbot does not send it');
      else if (sends) this.at(field(name), 'added', `added, optional (${type})`, 'fwbot leaves it out');
      else this.at(field(name), 'added', `added (${type})`, 'fwbot keeps it untyped (its models are loose)');
    }
    for (const [name, schema] of Object.entries(before)) {
      const now = after[name];
      if (!now) continue;
      const inner = field(name);
      const wasRequired = requiredBefore.has(name);
      const isRequired = requiredAfter.has(name);
      if (sends && !wasRequired && isRequired)
        this.at(inner, 'breaks', 'now required', 'fwbot sends it only when given');
      if (sends && wasRequired && !isRequired) this.at(inner, 'added', 'now optional', 'fwbot sends it');
      if (!sends && wasRequired && !isRequired) this.readerLosesField(inner, 'now optional', true);
      if (!sends && !wasRequired && isRequired)
        this.at(inner, 'added', 'now always present', 'fwbot reads it');
      this.compare(schema, now, inner);
    }
  }

  /**
   * A field fwbot reads may now be missing. Its model decides: where the model requires the field, every answer
   * would be refused; where the field is optional, parsing goes on and fwbot's code must do without it, so the
   * line says where the code names it (a person judges whether it still does its work then).
   */
  private readerLosesField(place: Place, change: string, wasRequired: boolean): void {
    if (!modelAccepts(place.model, undefined)) {
      this.at(place, 'breaks', change, 'fwbot reads it; its model requires it');
      return;
    }
    const files = this.usage.filesNaming(place.path.split('.').pop() ?? '');
    const shown = files.slice(0, 2).join(', ') + (files.length > 2 ? ` and ${files.length - 2} more` : '');
    const named =
      files.length === 0 ? 'its code never names it' : `named in ${shown}: check they do without it`;
    const how = wasRequired ? 'its model takes it missing' : 'optional in its model';
    this.at(place, 'copes', change, `fwbot reads it; ${how}; ${named}`);
  }

  /** oneOf / anyOf: alternatives are matched by the schema they name, else by position. */
  private compareAlternatives(before: JsonSchema[], after: JsonSchema[], place: Place): void {
    if (before.length === 0 && after.length === 0) return;
    const label = (schema: JsonSchema, index: number) =>
      schema.$ref ? refName(schema.$ref) : `alternative ${index + 1}`;
    const baseLabels = before.map(label);
    const newLabels = after.map(label);
    const sends = place.direction === 'sends';
    baseLabels.forEach((name, index) => {
      const match = newLabels.indexOf(name);
      if (match >= 0) this.compare(before[index] as JsonSchema, after[match] as JsonSchema, place);
      else if (sends) this.at(place, 'breaks', `${name} no longer accepted`, 'fwbot sends it');
      else this.at(place, 'copes', `${name} no longer answered`, 'fwbot reads it');
    });
    for (const name of newLabels.filter((name) => !baseLabels.includes(name))) {
      if (sends) this.at(place, 'added', `${name} now accepted too`, 'fwbot does not send it');
      else this.at(place, 'breaks', `${name} may now be answered`, 'fwbot reads it; its model may refuse it');
    }
  }
}
