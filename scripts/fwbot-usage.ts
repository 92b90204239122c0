// What fwbot does with the SCC API, read from fwbot itself rather than listed by hand: the SCC operations it
// calls and the zod models it parses their answers with. The reference drift check (check-reference.ts)
// judges a newer vendor file against this.
//
// Calls: every operation a catalogue operation declares in `scc: [...]`, plus every operation of the
// generated table that the rest of src/ names as a string literal (the client's area modules, the tracking
// workers' steps, Slack's option lists). The client can call nothing outside that table, so no other
// operation can be missed; naming an id in a string that never reaches `call` would only make the check
// stricter. The simulator and the generated files are not fwbot's callers and are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createCatalogue } from '../src/catalogue/index.js';
import { sccOperationIds } from '../src/scc/generated/operations.js';
import type { SccOperationId } from '../src/scc/operationTypes.js';
import { errorBodySchema, responseSchema } from '../src/scc/responseSchemas.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = join(root, 'src');
/** Not fwbot calling SCC: the SCC look-alike, and the files generated from the reference itself. */
const NOT_CALLERS = ['src/simulator/', 'src/scc/generated/'];

export interface FwbotUsage {
  /** The SCC operations fwbot calls, each with why the check thinks so (a catalogue operation or a file). */
  readonly calls: ReadonlyMap<string, readonly string[]>;
  /**
   * The zod schema fwbot parses an answer with: null for a status it expects without a body, undefined for
   * a success status it does not expect (the client refuses those).
   */
  responseModel(operationId: string, status: number): z.ZodType | null | undefined;
  /** The files of src/ (callers only) that name this word, e.g. a response field. */
  filesNaming(word: string): readonly string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

export function readFwbotUsage(): FwbotUsage {
  const sources = sourceFiles(SOURCE_DIR)
    .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }))
    .filter(({ file }) => !NOT_CALLERS.some((prefix) => file.startsWith(prefix)));
  const known = new Set<string>(sccOperationIds);
  const calls = new Map<string, string[]>();
  const note = (id: string, why: string) => calls.set(id, [...(calls.get(id) ?? []), why]);
  for (const op of createCatalogue().operations) for (const id of op.scc) note(id, `catalogue ${op.id}`);
  for (const { file, text } of sources) {
    for (const [, id] of text.matchAll(/['"]([A-Za-z]+)['"]/g)) {
      if (id && known.has(id) && !calls.get(id)?.includes(file)) note(id, file);
    }
  }
  const client = (id: string): id is SccOperationId => known.has(id);
  return {
    calls,
    responseModel: (operationId, status) => {
      if (!client(operationId)) return undefined;
      return status >= 400 ? errorBodySchema(status) : responseSchema(operationId, status);
    },
    filesNaming: (word) => {
      const pattern = new RegExp(`\\b${word.replace(/[^A-Za-z0-9_]/g, '')}\\b`);
      return sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
    },
  };
}

/** A zod schema as fwbot's models hold it (the core type: what unwrap(), element and shape give back). */
type Model = z.core.$ZodType;

/** Through the wrappers that do not change a value's shape (optional, nullable, default, lazy, pipes). */
function unwrapped(schema: Model): Model {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrapped(schema.unwrap());
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodReadonly) return unwrapped(schema.unwrap());
  if (schema instanceof z.ZodLazy) return unwrapped(schema.unwrap());
  if (schema instanceof z.ZodPipe) return unwrapped(schema.in);
  return schema;
}

/**
 * The model of a field inside a parsed model: undefined where fwbot does not model it (a loose object's
 * unknown field, inside an untyped record), which means fwbot accepts whatever is there.
 */
export function modelOfField(model: Model | undefined, field: string): Model | undefined {
  if (!model) return undefined;
  const inner = unwrapped(model);
  if (inner instanceof z.ZodObject) return (inner.shape as Record<string, Model>)[field];
  if (inner instanceof z.ZodUnion)
    for (const option of inner.options as readonly Model[]) {
      const found = modelOfField(option, field);
      if (found) return found;
    }
  return undefined;
}

export function modelOfItems(model: Model | undefined): Model | undefined {
  if (!model) return undefined;
  const inner = unwrapped(model);
  if (inner instanceof z.ZodArray) return inner.element as Model;
  if (inner instanceof z.ZodUnion)
    for (const option of inner.options as readonly Model[]) {
      const found = modelOfItems(option);
      if (found) return found;
    }
  return undefined;
}

export function modelOfValues(model: Model | undefined): Model | undefined {
  if (!model) return undefined;
  const inner = unwrapped(model);
  return inner instanceof z.ZodRecord ? (inner.valueType as Model) : undefined;
}

/** Whether fwbot's model takes this value where it stands; a place fwbot does not model takes anything. */
export function modelAccepts(model: Model | undefined, value: unknown): boolean {
  return model === undefined || z.safeParse(model, value).success;
}
