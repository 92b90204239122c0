// The one list engine behind every SCC list route: `limit` (0–200, default 50) and `offset` (≥ 0)
// validation, `q` filtering over the fields a list declares searchable, repeated `sort=field:ASC|DESC`,
// and the `{count, limit, offset, items}` page where `count` is the total before paging.

import {
  fieldsOf,
  type LuceneQuery,
  LuceneSyntaxError,
  type LuceneValue,
  parseLucene,
} from '../../scc/luceneSyntax.js';
import { invalidInput } from '../errors.js';

export type FieldKind = 'string' | 'number' | 'date' | 'boolean';
type Scalar = string | number | boolean | null | undefined;

export interface FieldSpec<T> {
  kind: FieldKind;
  get: (item: T) => Scalar | readonly Scalar[];
}

export type FieldTable<T> = Record<string, FieldSpec<T>>;

export interface ListOptions<T> {
  /** Searchable and sortable fields. Lists without a table accept no `q` and no `sort`. */
  fields?: FieldTable<T>;
  /** Whether the operation declares `q` / `sort` (undeclared parameters are ignored, as SCC does). */
  search?: boolean;
  sort?: boolean;
}

export interface Page<T> {
  count: number;
  limit: number;
  offset: number;
  items: T[];
}

export const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;

export function parsePaging(query: URLSearchParams): { limit: number; offset: number } {
  return {
    limit: intParam(query, 'limit', DEFAULT_LIMIT, 0, MAX_LIMIT),
    offset: intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
    throw invalidInput(`${name} must be ${range}`, { [name]: { message: `must be ${range}`, value: raw } });
  }
  return value;
}

export function listPage<T>(
  query: URLSearchParams,
  items: readonly T[],
  options: ListOptions<T> = {},
): Page<T> {
  const { limit, offset } = parsePaging(query);
  const fields = options.fields ?? {};
  let selected = [...items];

  const q = options.search ? query.get('q') : null;
  if (q !== null && q.trim() !== '') {
    const parsed = parseQuery(q, fields);
    selected = selected.filter((item) => evaluate(parsed, item, fields));
  }

  const sorts = options.sort ? parseSorts(query.getAll('sort'), fields) : [];
  if (sorts.length > 0) {
    selected.sort((a, b) => {
      for (const { spec, descending } of sorts) {
        const x = first(spec.get(a));
        const y = first(spec.get(b));
        const missing = missingLast(x, y);
        if (missing !== 0) return missing;
        const order = compare(x, y, spec.kind);
        if (order !== 0) return descending ? -order : order;
      }
      return 0;
    });
  }

  return { count: selected.length, limit, offset, items: selected.slice(offset, offset + limit) };
}

/** The items a `q` selects (400 for a malformed query or an unknown field, as for a list). */
export function matching<T>(q: string, items: readonly T[], fields: FieldTable<T>): T[] {
  if (q.trim() === '') return [...items];
  const parsed = parseQuery(q, fields);
  return items.filter((item) => evaluate(parsed, item, fields));
}

function parseQuery<T>(q: string, fields: FieldTable<T>): LuceneQuery {
  let parsed: LuceneQuery;
  try {
    parsed = parseLucene(q);
  } catch (error) {
    if (error instanceof LuceneSyntaxError) {
      throw invalidInput(`Invalid query: ${error.message}`, {
        q: { message: error.message, position: error.position },
      });
    }
    throw error;
  }
  const searchable = Object.keys(fields);
  for (const field of fieldsOf(parsed)) {
    if (!(field in fields)) {
      throw invalidInput(
        `Field '${field}' is not searchable. Searchable fields: ${searchable.join(', ') || '(none)'}`,
        { q: { field, searchableFields: searchable } },
      );
    }
  }
  for (const term of terms(parsed)) checkValue(term.field, term.value, fields[term.field]?.kind ?? 'string');
  return parsed;
}

function terms(query: LuceneQuery): { field: string; value: LuceneValue }[] {
  if (query.kind === 'term') return [query];
  if (query.kind === 'not') return terms(query.query);
  return [...terms(query.left), ...terms(query.right)];
}

/** Rejects values that can never be compared with the field (e.g. `mtu:abc`, `submissionTime:[x TO y]`). */
function checkValue(field: string, value: LuceneValue, kind: FieldKind): void {
  const bad = (text: string, what: string) =>
    invalidInput(`Invalid value '${text}' for ${what} field '${field}'`, {
      q: { field, value: text, expected: what },
    });
  const check = (text: string | undefined) => {
    if (text === undefined) return;
    if (kind === 'number' && !Number.isFinite(Number(text))) throw bad(text, 'number');
    if (kind === 'date' && Number.isNaN(Date.parse(text))) throw bad(text, 'date');
    if (kind === 'boolean' && text !== 'true' && text !== 'false') throw bad(text, 'boolean');
  };
  if (value.kind === 'exact') check(value.text);
  if (value.kind === 'range') {
    check(value.lower);
    check(value.upper);
  }
  if (value.kind === 'wildcard' && (kind === 'number' || kind === 'boolean')) throw bad(value.text, kind);
}

function evaluate<T>(query: LuceneQuery, item: T, fields: FieldTable<T>): boolean {
  switch (query.kind) {
    case 'and':
      return evaluate(query.left, item, fields) && evaluate(query.right, item, fields);
    case 'or':
      return evaluate(query.left, item, fields) || evaluate(query.right, item, fields);
    case 'not':
      return !evaluate(query.query, item, fields);
    case 'term': {
      const spec = fields[query.field];
      if (spec === undefined) return false;
      const raw = spec.get(item);
      const values = Array.isArray(raw) ? raw : [raw];
      return values.some((v: Scalar) => v !== null && v !== undefined && matches(v, query.value, spec.kind));
    }
  }
}

function matches(actual: string | number | boolean, value: LuceneValue, kind: FieldKind): boolean {
  if (value.kind === 'wildcard') return wildcardRegex(value.text).test(String(actual));
  if (value.kind === 'exact') {
    if (kind === 'number') return Number(actual) === Number(value.text);
    if (kind === 'boolean') return String(actual) === value.text;
    if (kind === 'date') {
      const t = toTime(actual);
      if (/^\d{4}-\d{2}-\d{2}$/.test(value.text)) return new Date(t).toISOString().startsWith(value.text);
      return t === Date.parse(value.text);
    }
    return String(actual).toLowerCase() === value.text.toLowerCase();
  }
  const lower = value.lower === undefined ? undefined : bound(value.lower, kind, false);
  const upper = value.upper === undefined ? undefined : bound(value.upper, kind, value.upperInclusive);
  const x =
    kind === 'date' ? toTime(actual) : kind === 'number' ? Number(actual) : String(actual).toLowerCase();
  if (lower !== undefined && (value.lowerInclusive ? x < lower : x <= lower)) return false;
  if (upper !== undefined && (value.upperInclusive ? x > upper : x >= upper)) return false;
  return true;
}

/** A date-only upper bound that is inclusive covers that whole day. */
function bound(text: string, kind: FieldKind, inclusiveUpper: boolean): string | number {
  if (kind === 'number') return Number(text);
  if (kind === 'date') {
    const t = Date.parse(text);
    return inclusiveUpper && /^\d{4}-\d{2}-\d{2}$/.test(text) ? t + 86_399_999 : t;
  }
  return text.toLowerCase();
}

function toTime(value: string | number | boolean): number {
  return typeof value === 'number' ? value : Date.parse(String(value));
}

function wildcardRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      source += (pattern[i + 1] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 1;
    } else if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

interface SortKey<T> {
  spec: FieldSpec<T>;
  descending: boolean;
}

function parseSorts<T>(raw: string[], fields: FieldTable<T>): SortKey<T>[] {
  const sortable = Object.keys(fields);
  return raw
    .flatMap((s) => s.split(','))
    .filter((s) => s.trim() !== '')
    .map((s) => {
      const match = /^\s*([\w.]+)(?::(ASC|DESC))?\s*$/i.exec(s);
      const field = match?.[1];
      if (field === undefined) {
        throw invalidInput(`Invalid sort '${s}': expected field:ASC or field:DESC`, { sort: { value: s } });
      }
      const spec = fields[field];
      if (spec === undefined) {
        throw invalidInput(
          `Field '${field}' is not sortable. Sortable fields: ${sortable.join(', ') || '(none)'}`,
          {
            sort: { field, sortableFields: sortable },
          },
        );
      }
      return { spec, descending: (match?.[2] ?? 'ASC').toUpperCase() === 'DESC' };
    });
}

function first(value: Scalar | readonly Scalar[]): Scalar {
  return Array.isArray(value) ? (value as readonly Scalar[])[0] : (value as Scalar);
}

/** Items without a value for the sort key come last whichever the direction. */
function missingLast(a: Scalar, b: Scalar): number {
  const noA = a === null || a === undefined;
  const noB = b === null || b === undefined;
  return noA === noB ? 0 : noA ? 1 : -1;
}

function compare(a: Scalar, b: Scalar, kind: FieldKind): number {
  if (a === null || a === undefined || b === null || b === undefined) return 0;
  if (kind === 'number') return Number(a) - Number(b);
  if (kind === 'date') return toTime(a) - toTime(b);
  if (kind === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base', numeric: true });
}
