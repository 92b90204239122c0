// What people type after a list command, turned into SCC's `q` (Lucene). Text without a colon is a
// search on the name: `acme eu` → `name:*acme\ eu*`. Text with a colon is already Lucene
// (`region:EU AND name:acme*`) and is passed through untouched, so every SCC field stays reachable.

// Characters that end or change a Lucene term. `*` and `?` are left alone so people can use wildcards;
// `-` and `+` are harmless inside a term, which here always starts with `*`.
const LUCENE_SPECIAL = /[\s\\!(){}[\]^"~:/&|]/g;

export function escapeLuceneTerm(text: string): string {
  return text.replace(LUCENE_SPECIAL, (c) => `\\${c}`);
}

/**
 * `q` for a typed query, or undefined when nothing was typed. Several fields are searched with OR
 * (an interface is known by its name and by its hardware name).
 */
export function toLucene(
  typed: string | undefined,
  field: string | readonly string[] = 'name',
): string | undefined {
  const text = typed?.trim();
  if (!text) return undefined;
  if (text.includes(':')) return text;
  const term = escapeLuceneTerm(text);
  const leading = term.startsWith('*') ? '' : '*';
  const trailing = term.endsWith('*') ? '' : '*';
  const fields = typeof field === 'string' ? [field] : field;
  return fields.map((name) => `${name}:${leading}${term}${trailing}`).join(' OR ');
}

/** A name matched exactly (case as stored), for resolving names: `name:"asa\"1"`. */
export function exactLucene(field: string, value: string): string {
  return `${field}:"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
