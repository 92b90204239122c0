// The one way anything reaches SCC's `q` (Lucene). What people type after a list command: text without a
// colon is a search on a field (`acme eu` → `name:*acme\ eu*`); text with a colon is read as Lucene
// (`region:EU AND name:acme*`: field:value terms, AND / OR / NOT, parentheses; luceneSyntax.ts) and
// written again with every value an escaped term and every group closed, so every SCC field stays
// reachable while nothing typed is ever syntax of its own: `x) OR (entityUid:*` is refused, not obeyed.
// A fixed clause and a typed one are joined with allOf, each in its own parentheses; a single value from
// SCC or a person goes in with fieldIs or exactLucene.
import { UserError } from '../model/errors.js';
import {
  type LuceneQuery,
  LuceneSyntaxError,
  parseLucene,
  printLucene,
  TERM_SPECIAL,
} from './luceneSyntax.js';

const SPECIAL = new RegExp(TERM_SPECIAL.source, 'g');

/** Escapes what would end or change a term; `*` and `?` are left alone so people can use wildcards. */
export function escapeLuceneTerm(text: string): string {
  return text.replace(SPECIAL, (c) => `\\${c}`);
}

/** `field:value` for one value (a UUID SCC gave, a ticket): the value a term, nothing in it syntax. */
export function fieldIs(field: string, value: string): string {
  const term = escapeLuceneTerm(value).replace(/[*?]/g, (c) => `\\${c}`);
  return `${field}:${/^[+-]/.test(term) ? `\\${term}` : term}`;
}

/** Text searched on `field` (or several, with OR), a part of the value: `name:*acme\ eu*`. Never Lucene. */
export function containing(typed: string, field: string | readonly string[] = 'name'): string {
  const term = escapeLuceneTerm(typed.trim());
  const leading = term.startsWith('*') ? '' : '*';
  const trailing = term.endsWith('*') ? '' : '*';
  const fields = typeof field === 'string' ? [field] : field;
  return fields.map((name) => `${name}:${leading}${term}${trailing}`).join(' OR ');
}

/**
 * A typed query read as Lucene and written again (printLucene). A query fwbot cannot read is refused in a
 * sentence that says what it reads, before SCC is asked.
 */
export function typedLucene(text: string): { q: string; query: LuceneQuery } {
  let query: LuceneQuery;
  try {
    query = parseLucene(text);
  } catch (error) {
    if (!(error instanceof LuceneSyntaxError)) throw error;
    throw new UserError(
      `fwbot reads a query with a colon as Lucene and cannot read \`${text}\`: ${error.message}. Write ` +
        'field:value terms joined by AND, OR and NOT, in parentheses where needed (`ruleAction:DENY AND ' +
        'NOT isActiveRule:false`), or text without a colon for a plain search.',
    );
  }
  return { q: printLucene(query), query };
}

/**
 * `q` for a typed query, or undefined when nothing was typed: text without a colon searched on `field`
 * (several with OR, as an interface is known by its name and its hardware name), text with a colon read
 * as Lucene and written again (typedLucene).
 */
export function toLucene(
  typed: string | undefined,
  field: string | readonly string[] = 'name',
): string | undefined {
  const text = typed?.trim();
  if (!text) return undefined;
  return text.includes(':') ? typedLucene(text).q : containing(text, field);
}

/** Whether a clause is one term (`entityUid:…`), which needs no parentheses of its own. */
function isOneTerm(clause: string): boolean {
  try {
    return parseLucene(clause).kind === 'term';
  } catch {
    return false;
  }
}

/**
 * Clauses that must all hold, each but a single term in its own parentheses (a typed one cannot reach past
 * its own); the absent ones left out. Undefined when none is given.
 */
export function allOf(...clauses: (string | undefined)[]): string | undefined {
  const given = clauses.filter((clause): clause is string => clause !== undefined && clause !== '');
  if (given.length <= 1) return given[0];
  return given.map((clause) => (isOneTerm(clause) ? clause : `(${clause})`)).join(' AND ');
}

/** A name matched exactly (case as stored), for resolving names: `name:"asa\"1"`. */
export function exactLucene(field: string, value: string): string {
  return `${field}:"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
