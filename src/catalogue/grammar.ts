// The /fw language: command text → the operation it names and its raw arguments. Words are matched
// longest first; the remaining tokens bind to the operation's params (positionals in order, an optional
// keyword only when it is one of its choices, a variadic last, `query`/`json` taking the rest of the line
// as typed) and to `--flag value` / `--flag=value` anywhere. Mistakes become UserErrors that say what to
// type instead: did-you-mean over words and choices, the usage line when an argument is missing.

import { UsageError, UserError } from '../model/errors.js';
import { stripSentinels } from '../model/marks.js';
import type { Operation, Param, RawArgs } from './operation.js';
import { isNearMiss, suggest } from './suggest.js';
import { sourceOf, type Token, tokenize } from './tokens.js';
import { COMMAND, usageLine } from './usage.js';

export interface ParsedCommand {
  op: Operation;
  raw: RawArgs;
  /** The surface should open the operation's modal (prefilled with `raw`) instead of running it. */
  modal: boolean;
}

interface WordNode {
  op?: Operation;
  /** Why the operation of these words does not run in this process (it lacks a service it needs). */
  absent?: string;
  children: Map<string, WordNode>;
}

/** An operation this process leaves out, and the sentence that says so to whoever types its words. */
export interface AbsentOperation {
  readonly words: readonly string[];
  readonly why: string;
}

export interface Grammar {
  parse(text: string): ParsedCommand;
}

const REST_KINDS = new Set<Param['kind']>(['query', 'json']);

export function createGrammar(
  operations: readonly Operation[],
  command: string = COMMAND,
  absent: readonly AbsentOperation[] = [],
): Grammar {
  const root: WordNode = { children: new Map() };
  const nodeOf = (words: readonly string[]) => {
    let node = root;
    for (const word of words) {
      const key = word.toLowerCase();
      let child = node.children.get(key);
      if (!child) {
        child = { children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    return node;
  };
  for (const op of operations) {
    const node = nodeOf(op.words);
    if (node.op) throw new Error(`two operations are declared with the words "${op.words.join(' ')}"`);
    node.op = op;
  }
  for (const left of absent) nodeOf(left.words).absent = left.why;
  const help = operations.find((op) => op.id === 'help');

  function helpFor(topic: string): ParsedCommand {
    if (!help) throw new UserError(`Unknown command. Try \`${command} help\`.`);
    return { op: help, raw: topic ? { topic } : {}, modal: false };
  }

  return {
    parse(typed) {
      // Slack can hand over text with a lone surrogate (a broken emoji); it would reach SCC's URL encoding
      // and throw there. Made well-formed once, here, everything after sees U+FFFD instead. The same
      // trimmed text is what tokens' positions point into, so rest-of-line arguments are sliced from it.
      // Every surface's command text passes here, so this is also where the characters fwbot wraps its
      // own mentions in are dropped: typed text can never make a live mention (render/mrkdwn.ts).
      const text = stripSentinels(typed.toWellFormed()).trim();
      const tokens = tokenize(text);
      let node = root;
      const words: string[] = [];
      let i = 0;
      for (; i < tokens.length; i += 1) {
        const token = tokens[i];
        const child = token && !token.quoted ? node.children.get(token.value.toLowerCase()) : undefined;
        if (!token || !child) break;
        node = child;
        words.push(token.value.toLowerCase());
      }
      const next = tokens[i];
      // Words of an operation this process leaves out: said in a sentence, not as an unknown command.
      if (!node.op && node.absent !== undefined) throw new UserError(node.absent);
      if (!node.op) {
        // A group of commands ("/fw tenants"): its help, or did-you-mean when something else follows.
        if (!next) return helpFor(words.join(' '));
        throw unknownCommand(words, next.value, node, command);
      }
      if (next && !next.quoted) {
        const typo = [...node.children.keys()].find((word) => isNearMiss(next.value, word));
        if (typo !== undefined) {
          throw new UserError(
            `Did you mean \`${command} ${[...words, typo].join(' ')}\`? (To pass “${next.value}” as an argument, quote it.)`,
            [[...words, typo].join(' ')],
          );
        }
      }
      const op = node.op;
      const raw = bindArguments(op, text, tokens.slice(i), command);
      return { op, raw, modal: wantsModal(op, raw) };
    },
  };
}

function unknownCommand(words: string[], typed: string, node: WordNode, command: string): UserError {
  const options = suggest(typed, [...node.children.keys()]);
  const known = words.length ? `\`${command} ${words.join(' ')}\` has no command “${typed}”.` : '';
  const unknown = words.length ? known : `There is no command “${typed}”.`;
  if (options.length === 0) {
    const topic = words.length ? ` ${words.join(' ')}` : '';
    return new UserError(`${unknown} See \`${command} help${topic}\`.`);
  }
  const lines = options.map((word) => [...words, word].join(' '));
  return new UserError(
    `${unknown} Did you mean ${lines.map((line) => `\`${command} ${line}\``).join(' or ')}?`,
    lines,
  );
}

/** Whether the parsed command should open its modal rather than run (see ModalSpec.when). */
export function wantsModal(op: Operation, raw: RawArgs): boolean {
  if (!op.modal) return false;
  if (op.modal.when === 'empty') return Object.values(raw).every((value) => value === undefined);
  // `incomplete`: any flag means "from the text" (its mistakes are usage errors, not a form); without
  // one, the form opens unless the positionals already make a call the operation accepts.
  const flagged = op.params.some((param) => param.flag && !param.hidden && raw[param.name] !== undefined);
  return !flagged && op.validate(raw).length > 0;
}

/** A required positional may be left to the modal when the modal has a field of that name. */
function modalFills(op: Operation, name: string): boolean {
  const fields = op.modal?.fields;
  return Array.isArray(fields) && fields.some((field: { name: string }) => field.name === name);
}

function bindArguments(op: Operation, text: string, tokens: readonly Token[], command: string): RawArgs {
  const raw: RawArgs = {};
  // Only a refusal shows the usage line: built then, not on every parse.
  const usage = () => usageLine(op, command);
  const fail = (arg: string | undefined, message: string) =>
    new UsageError(op.id, [{ arg, message }], usage());
  const flags = new Map(op.params.filter((p) => p.flag).map((p) => [p.name, p]));
  // A positional a given flag replaces takes no token (`access request --devices <query> tcp …`).
  const given = flagsGiven(tokens, flags);
  const positionals = op.params.filter((p) => !p.flag && !(p.replacedBy && given.has(p.replacedBy)));
  let position = 0;
  let flagsEnded = false;

  /** Binds the flag at tokens[k]; returns the index after it, or -1 when tokens[k] is not a flag. */
  const bindFlag = (k: number, dryRun: boolean): number => {
    const token = tokens[k];
    if (!token || token.quoted || flagsEnded || !token.value.startsWith('--') || token.value === '--')
      return -1;
    const [name = '', inline] = splitFlag(token.value.slice(2));
    const param = flags.get(name);
    if (!param) {
      if (dryRun) return -1;
      const close = suggest(name, [...flags.keys()], 1)[0];
      const known = [...flags.values()].filter((p) => !p.hidden).map((p) => `--${p.name}`);
      const hint = close ? ` Did you mean --${close}?` : known.length ? ` Flags: ${known.join(', ')}.` : '';
      throw fail(undefined, `unknown flag --${name}.${hint}`);
    }
    if (param.boolean) {
      if (inline !== undefined && !/^(true|false)$/i.test(inline)) {
        if (dryRun) return -1;
        throw fail(param.name, `--${name} takes no value (or =true / =false).`);
      }
      if (!dryRun) raw[param.name] = inline === undefined || inline.toLowerCase() === 'true';
      return k + 1;
    }
    const valueToken = inline === undefined ? tokens[k + 1] : undefined;
    if (inline === undefined && !valueToken) {
      if (dryRun) return -1;
      throw fail(param.name, `--${name} needs a value.`);
    }
    if (!dryRun) {
      if (raw[param.name] !== undefined) throw fail(param.name, `--${name} is given twice.`);
      raw[param.name] = normaliseChoice(param, inline ?? valueToken?.value ?? '', fail);
    }
    return inline === undefined ? k + 2 : k + 1;
  };

  /** The first index from which every token is a declared flag (with its value): where a rest ends. */
  const trailingFlagsFrom = (from: number): number =>
    firstTrailingRun(from, tokens.length, (k) => bindFlag(k, true));

  let k = 0;
  while (k < tokens.length) {
    const token = tokens[k];
    if (!token) break;
    if (!token.quoted && token.value === '--' && !flagsEnded) {
      flagsEnded = true;
      k += 1;
      continue;
    }
    const afterFlag = bindFlag(k, false);
    if (afterFlag >= 0) {
      k = afterFlag;
      continue;
    }
    let param = positionals[position];
    // An optional keyword binds only when the token is one of its choices; otherwise it is skipped.
    while (param?.kind === 'choice' && param.optional && !matchesChoice(param, token.value)) {
      const near = (param.choices ?? []).find((c) => isNearMiss(token.value, c));
      if (near !== undefined && !token.quoted) {
        throw fail(param.name, `did you mean “${near}”? (To search for “${token.value}”, quote it.)`);
      }
      position += 1;
      param = positionals[position];
    }
    if (!param) {
      const extra = tokens.slice(k).map((t) => t.value);
      const hint = positionals.length > 0 ? ' (Quote a value that has spaces.)' : '';
      throw fail(undefined, `too many arguments: ${extra.join(' ')}.${hint}`);
    }
    if (REST_KINDS.has(param.kind)) {
      const end = trailingFlagsFrom(k + 1);
      raw[param.name] = sourceOf(text, tokens.slice(k, end));
      k = end;
      position += 1;
      continue;
    }
    if (param.variadic) {
      // Appended in place: copying the list for each value would be quadratic in a long line.
      const previous = raw[param.name];
      if (Array.isArray(previous)) previous.push(token.value);
      else raw[param.name] = [token.value];
      k += 1;
      continue;
    }
    raw[param.name] = normaliseChoice(param, token.value, fail);
    position += 1;
    k += 1;
  }

  const missing = positionals.filter(
    (p) => !p.optional && raw[p.name] === undefined && !(op.modal && modalFills(op, p.name)),
  );
  if (missing.length > 0 && !(op.modal?.when === 'empty' && tokens.length === 0)) {
    throw new UsageError(
      op.id,
      missing.map((p) => ({ arg: p.name, message: `missing ${describe(p)}.` })),
      usage(),
    );
  }
  return raw;
}

/**
 * The first index in [from, length] from which `step` leads exactly to `length`, where step(k) is the
 * index after the item that starts at k (a flag and its value), or -1 when none starts there. Worked out
 * right to left, one step per index: trying each start in turn and stepping to the end from each would
 * be quadratic in the number of tokens (a long line of flags that ends in a word).
 */
export function firstTrailingRun(from: number, length: number, step: (k: number) => number): number {
  // reachesEnd[k - from]: stepping from k lands exactly on `length`.
  const reachesEnd = new Uint8Array(length - from + 1);
  reachesEnd[length - from] = 1;
  let first = length;
  for (let k = length - 1; k >= from; k -= 1) {
    const next = step(k);
    if (next > k && next <= length && reachesEnd[next - from] === 1) {
      reachesEnd[k - from] = 1;
      first = k;
    }
  }
  return first;
}

function describe(param: Param): string {
  return param.kind === 'choice' && param.choices ? `one of ${param.choices.join(', ')}` : param.description;
}

/** The declared flags the line gives (unquoted `--name` or `--name=…`, before any `--`). */
function flagsGiven(tokens: readonly Token[], flags: ReadonlyMap<string, Param>): Set<string> {
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.quoted) continue;
    if (token.value === '--') break;
    if (!token.value.startsWith('--')) continue;
    const [name = ''] = splitFlag(token.value.slice(2));
    if (flags.has(name)) given.add(name);
  }
  return given;
}

function splitFlag(body: string): [string, string | undefined] {
  const eq = body.indexOf('=');
  return eq < 0 ? [body, undefined] : [body.slice(0, eq), body.slice(eq + 1)];
}

function matchesChoice(param: Param, value: string): boolean {
  return (param.choices ?? []).some((choice) => choice.toLowerCase() === value.toLowerCase());
}

/** Choices are case-insensitive and bound with their declared spelling; a wrong one gets did-you-mean. */
function normaliseChoice(
  param: Param,
  value: string,
  fail: (arg: string | undefined, message: string) => UsageError,
): string {
  if (param.kind !== 'choice' || !param.choices) return value;
  const exact = param.choices.find((choice) => choice.toLowerCase() === value.toLowerCase());
  if (exact !== undefined) return exact;
  const near = suggest(value, param.choices, 1)[0];
  const hint = near ? ` Did you mean “${near}”?` : '';
  throw fail(param.name, `“${value}” is not one of ${param.choices.join(', ')}.${hint}`);
}
