// The subset of Lucene query syntax SCC's `q` parameter accepts: `field:value`, `*`/`?` wildcards,
// quoted values, ranges `[a TO b]` / `{a TO b}` (mixed brackets allowed, `*` for an open end), AND / OR /
// NOT (also `&&`, `||`, a leading `-`), parentheses, and a field applied to a group of values
// (`asaFailoverMode:(ACTIVE_STANDBY OR ACTIVE_ACTIVE)`). Terms side by side mean AND.
// One reader for both sides: the simulator evaluates what it reads (src/simulator/lists/), and fwbot reads
// a query people typed and writes it again with printLucene (src/scc/lucene.ts), every value an escaped
// term and every group closed, so what someone typed can add terms but never break out of its place.
export type LuceneValue =
  | { kind: 'exact'; text: string; quoted: boolean }
  | { kind: 'wildcard'; text: string }
  | { kind: 'range'; lower?: string; upper?: string; lowerInclusive: boolean; upperInclusive: boolean };

export type LuceneQuery =
  | { kind: 'and'; left: LuceneQuery; right: LuceneQuery }
  | { kind: 'or'; left: LuceneQuery; right: LuceneQuery }
  | { kind: 'not'; query: LuceneQuery }
  | { kind: 'term'; field: string; value: LuceneValue };

export class LuceneSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'LuceneSyntaxError';
  }
}

const FIELD = /^[A-Za-z_][\w.]*/;

export function parseLucene(input: string): LuceneQuery {
  const parser = new Parser(input);
  const query = parser.parseOr();
  parser.skipSpace();
  if (!parser.atEnd()) parser.fail(`unexpected "${parser.rest().slice(0, 10)}"`);
  return query;
}

/** Every field a query refers to, so the caller can refuse unsearchable ones before evaluating. */
export function fieldsOf(query: LuceneQuery): string[] {
  switch (query.kind) {
    case 'term':
      return [query.field];
    case 'not':
      return fieldsOf(query.query);
    default:
      return [...fieldsOf(query.left), ...fieldsOf(query.right)];
  }
}

class Parser {
  private pos = 0;
  /** Inside `field:( … )`: the field every bare value of the group is about. */
  private groupField: string | undefined;

  constructor(private readonly input: string) {}

  atEnd(): boolean {
    return this.pos >= this.input.length;
  }

  rest(): string {
    return this.input.slice(this.pos);
  }

  fail(message: string): never {
    throw new LuceneSyntaxError(`${message} at position ${this.pos}`, this.pos);
  }

  skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.input[this.pos] ?? '')) this.pos += 1;
  }

  private keyword(...words: string[]): boolean {
    this.skipSpace();
    for (const word of words) {
      const next = this.input.slice(this.pos, this.pos + word.length);
      const after = this.input[this.pos + word.length] ?? ' ';
      const isSymbol = !/\w/.test(word);
      if (next === word && (isSymbol || /[\s(]/.test(after))) {
        this.pos += word.length;
        return true;
      }
    }
    return false;
  }

  parseOr(): LuceneQuery {
    let left = this.parseAnd();
    while (this.keyword('OR', '||')) left = { kind: 'or', left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): LuceneQuery {
    let left = this.parseUnary();
    for (;;) {
      if (this.keyword('AND', '&&')) {
        left = { kind: 'and', left, right: this.parseUnary() };
        continue;
      }
      this.skipSpace();
      const next = this.input[this.pos];
      // Juxtaposed terms: AND, unless what follows closes a group or is an OR.
      if (this.atEnd() || next === ')' || /^(OR\b|\|\|)/.test(this.rest())) return left;
      left = { kind: 'and', left, right: this.parseUnary() };
    }
  }

  private parseUnary(): LuceneQuery {
    if (this.keyword('NOT', '!')) return { kind: 'not', query: this.parseUnary() };
    this.skipSpace();
    if (this.input[this.pos] === '-') {
      this.pos += 1;
      return { kind: 'not', query: this.parseUnary() };
    }
    if (this.input[this.pos] === '(') {
      this.pos += 1;
      const inner = this.parseOr();
      this.skipSpace();
      if (this.input[this.pos] !== ')') this.fail('missing ")"');
      this.pos += 1;
      return inner;
    }
    return this.parseTerm();
  }

  private parseTerm(): LuceneQuery {
    this.skipSpace();
    if (this.atEnd()) this.fail('expected field:value');
    if (this.groupField !== undefined)
      return { kind: 'term', field: this.groupField, value: this.parseValue() };
    const field = FIELD.exec(this.rest())?.[0];
    if (field === undefined) this.fail('expected a field name');
    this.pos += field.length;
    if (this.input[this.pos] !== ':')
      this.fail(`expected ":" after field "${field}" (terms must be field:value)`);
    this.pos += 1;
    if (this.input[this.pos] === '(') return this.parseGroup(field);
    return { kind: 'term', field, value: this.parseValue() };
  }

  /** `field:(a OR b)`: the group's values, each a term on `field`, combined as written. */
  private parseGroup(field: string): LuceneQuery {
    this.pos += 1;
    this.groupField = field;
    const inner = this.parseOr();
    this.groupField = undefined;
    this.skipSpace();
    if (this.input[this.pos] !== ')') this.fail('missing ")"');
    this.pos += 1;
    return inner;
  }

  private parseValue(): LuceneValue {
    const c = this.input[this.pos];
    if (c === '[' || c === '{') return this.parseRange();
    if (c === '"') {
      const text = this.readQuoted();
      return { kind: 'exact', text, quoted: true };
    }
    const text = this.readBare();
    if (text === '') this.fail('expected a value');
    return /(?<!\\)[*?]/.test(text)
      ? { kind: 'wildcard', text }
      : { kind: 'exact', text: unescapeLucene(text), quoted: false };
  }

  private readQuoted(): string {
    this.pos += 1;
    let out = '';
    while (!this.atEnd() && this.input[this.pos] !== '"') {
      if (this.input[this.pos] === '\\') this.pos += 1;
      out += this.input[this.pos] ?? '';
      this.pos += 1;
    }
    if (this.atEnd()) this.fail('unterminated quoted value');
    this.pos += 1;
    return out;
  }

  private readBare(): string {
    const start = this.pos;
    while (!this.atEnd()) {
      const c = this.input[this.pos] ?? '';
      if (c === '\\') {
        this.pos += 2;
        continue;
      }
      if (/[\s()]/.test(c)) break;
      this.pos += 1;
    }
    return this.input.slice(start, this.pos);
  }

  private parseRange(): LuceneValue {
    const lowerInclusive = this.input[this.pos] === '[';
    this.pos += 1;
    this.skipSpace();
    const lower = this.readBound(/\s/);
    this.skipSpace();
    if (!/^TO\s/.test(this.rest())) this.fail('expected "TO" in range');
    this.pos += 2;
    this.skipSpace();
    const upper = this.readBound(/[\s\]}]/);
    this.skipSpace();
    const close = this.input[this.pos];
    if (close !== ']' && close !== '}') this.fail('expected "]" or "}" to close the range');
    this.pos += 1;
    return {
      kind: 'range',
      ...(lower === '*' ? {} : { lower }),
      ...(upper === '*' ? {} : { upper }),
      lowerInclusive,
      upperInclusive: close === ']',
    };
  }

  private readBound(stop: RegExp): string {
    if (this.input[this.pos] === '"') return this.readQuoted();
    const start = this.pos;
    while (!this.atEnd() && !stop.test(this.input[this.pos] ?? '')) this.pos += 1;
    const text = this.input.slice(start, this.pos);
    if (text === '') this.fail('expected a range bound');
    return unescapeLucene(text);
  }
}

function unescapeLucene(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** Words the syntax reads as operators: as a value, one is quoted. */
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'TO']);
/** Characters that end or change a term (the wildcards `*` and `?` are the caller's to keep or escape). */
export const TERM_SPECIAL = /[\s\\!(){}[\]^"~:/&|]/;

/** One character of a value, as a literal: escaped when the syntax would read it, `+`/`-` when it leads. */
function literal(char: string, leading: boolean): string {
  return TERM_SPECIAL.test(char) || char === '*' || char === '?' || (leading && /[+-]/.test(char))
    ? `\\${char}`
    : char;
}

function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A wildcard value as read (its escapes still in it): its `*` and `?` kept, everything else literal. */
function printWildcard(raw: string): string {
  const chars = [...raw];
  let out = '';
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    if (char === '\\') {
      i += 1;
      out += literal(chars[i] ?? '', out === '');
    } else out += char === '*' || char === '?' ? char : literal(char, out === '');
  }
  return out;
}

function printValue(value: LuceneValue): string {
  switch (value.kind) {
    case 'range': {
      const bound = (text: string | undefined) => (text === undefined ? '*' : quoted(text));
      const open = value.lowerInclusive ? '[' : '{';
      const close = value.upperInclusive ? ']' : '}';
      return `${open}${bound(value.lower)} TO ${bound(value.upper)}${close}`;
    }
    case 'exact':
      if (value.quoted || KEYWORDS.has(value.text)) return quoted(value.text);
      return [...value.text].map((char, i) => literal(char, i === 0)).join('');
    case 'wildcard':
      return printWildcard(value.text);
  }
}

function print(query: LuceneQuery, top: boolean): string {
  switch (query.kind) {
    case 'term':
      return `${query.field}:${printValue(query.value)}`;
    case 'not':
      return `NOT ${print(query.query, false)}`;
    default: {
      const text = `${print(query.left, false)} ${query.kind.toUpperCase()} ${print(query.right, false)}`;
      return top ? text : `(${text})`;
    }
  }
}

/**
 * A query written again from what was read: the same terms, each value an escaped term (or a quoted phrase,
 * or a range of quoted bounds), fields as read, every group in its own parentheses, operators as words.
 * Nothing in a value can be read as syntax, and the text as a whole is balanced.
 */
export function printLucene(query: LuceneQuery): string {
  return print(query, true);
}
