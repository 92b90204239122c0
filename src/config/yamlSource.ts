// A YAML text as the profiles file reader needs it: parsed with line numbers, its syntax problems
// described without quoting the text (the yaml library's messages may include a snippet of the source),
// and lookups from a key path back to the line it is on.
import {
  type Document,
  type ErrorCode,
  isMap,
  isPair,
  isScalar,
  LineCounter,
  type Node,
  parseDocument,
  visit,
  type YAMLError,
} from 'yaml';

// yaml messages that never contain text from the file. Others may (e.g. "Unexpected <source>"), so
// they are replaced by a description of their code alone.
const FIXED_MESSAGES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ALIAS_PROPS',
  'BAD_ALIAS',
  'BAD_INDENT',
  'BLOCK_AS_IMPLICIT_KEY',
  'BLOCK_IN_FLOW',
  'DUPLICATE_KEY',
  'MISSING_CHAR',
  'MULTILINE_IMPLICIT_KEY',
  'MULTIPLE_ANCHORS',
  'MULTIPLE_TAGS',
  'TAB_AS_INDENT',
]);

const CODE_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  BAD_DIRECTIVE: 'a %-directive is malformed',
  BAD_DQ_ESCAPE: 'a double-quoted string has an invalid escape sequence',
  BAD_PROP_ORDER: 'anchors and tags must come after the - or ? indicator',
  BAD_SCALAR_START: 'a plain value cannot start with this character; quote the value',
  BAD_COLLECTION_TYPE: 'a tag does not fit its collection',
  KEY_OVER_1024_CHARS: 'a key is longer than 1024 characters',
  MULTIPLE_DOCS: 'the file holds more than one document (---); keep everything in one',
  NON_STRING_KEY: 'keys must be plain text',
  RESOURCE_EXHAUSTION: 'too many aliases',
  TAG_RESOLVE_FAILED: 'a tag (!…) is not known',
  UNEXPECTED_TOKEN: 'unexpected characters',
};

function describe(error: YAMLError): string {
  if (FIXED_MESSAGES.has(error.code)) return error.message;
  return CODE_DESCRIPTIONS[error.code] ?? `syntax error (${error.code})`;
}

export interface SyntaxProblem {
  readonly line: number;
  readonly description: string;
}

export interface LocatedScalar {
  readonly value: string;
  readonly line: number;
  /** The keys of the mappings around it, outermost first. */
  readonly keys: readonly string[];
}

type Ranged = Node & { range: [number, number, number] };

function hasRange(node: unknown): node is Ranged {
  return typeof node === 'object' && node !== null && 'range' in node && Array.isArray(node.range);
}

export class YamlSource {
  private readonly lines = new LineCounter();
  private readonly doc: Document.Parsed;

  constructor(text: string) {
    // prettyErrors off: the pretty form appends the offending source line, which may hold a token.
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true });
  }

  /** Errors and warnings alike (an unknown tag, say): a settings file should mean exactly what it says. */
  syntaxProblems(): SyntaxProblem[] {
    return [...this.doc.errors, ...this.doc.warnings].map((error) => ({
      line: this.lineAt(error.pos[0]),
      description: describe(error),
    }));
  }

  /** The plain value; undefined for an empty file. Throws when aliases expand beyond reason. */
  toJS(): unknown {
    return this.doc.toJS({ maxAliasCount: 100 });
  }

  /** Every string scalar (keys and values), with where it is. */
  stringScalars(): LocatedScalar[] {
    const found: LocatedScalar[] = [];
    visit(this.doc, {
      Scalar: (_key, node, ancestors) => {
        if (typeof node.value !== 'string') return;
        const keys = ancestors
          .filter(isPair)
          .map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '?'));
        found.push({ value: node.value, line: hasRange(node) ? this.lineAt(node.range[0]) : 1, keys });
      },
    });
    return found;
  }

  /** The line of the node at `path`, or of its nearest ancestor that exists. */
  lineOf(path: readonly PropertyKey[]): number {
    for (let depth = path.length; depth > 0; depth--) {
      const node = this.doc.getIn(path.slice(0, depth), true);
      if (hasRange(node)) return this.lineAt(node.range[0]);
    }
    return 1;
  }

  /** The line of a key itself (for unknown and invalid keys, whose value may not even parse). */
  lineOfKey(parentPath: readonly PropertyKey[], key: string): number {
    const parent = parentPath.length === 0 ? this.doc.contents : this.doc.getIn(parentPath, true);
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      if (pair !== undefined && hasRange(pair.key)) return this.lineAt(pair.key.range[0]);
    }
    return this.lineOf(parentPath);
  }

  private lineAt(offset: number): number {
    return this.lines.linePos(offset).line;
  }
}
