// How commands are written back as text: usage lines for help and usage errors, and the command line of
// a parsed request (the "Share in channel" button and the console's history carry it). Both derive from
// an operation's words and params only, so they can never disagree with the grammar.
import type { Param, RawArgs } from '../model/types.js';

/** The slash command the bot answers to; the console prints the same language without the slash. */
export const COMMAND = '/fw';

interface Declared {
  words: readonly string[];
  params: readonly Param[];
}

function placeholder(param: Param): string {
  if (param.choices && param.kind === 'choice') return param.choices.join('|');
  if (param.kind === 'query') return param.name;
  const name = param.variadic ? `${param.name}…` : param.name;
  return `<${name}>`;
}

/** `--version …`: the flag's name already says what goes there. */
function flagUsage(param: Param): string {
  return param.boolean ? `--${param.name}` : `--${param.name} …`;
}

/** `/fw tenants create [<name>] [--display-name <display-name>] …`; hidden params are left out. */
export function usageLine(op: Declared, command: string = COMMAND): string {
  const parts = [command, ...op.words];
  for (const param of op.params) {
    if (param.hidden) continue;
    const text = param.flag ? flagUsage(param) : placeholder(param);
    parts.push(param.optional || (param.flag && param.boolean) ? `[${text}]` : text);
  }
  return parts.join(' ');
}

const PLAIN = /^[^\s"'\\“”‘’]+$/;

/** Quotes a value so that the grammar reads it back as one token. */
export function quoteToken(value: string): string {
  if (value !== '' && PLAIN.test(value)) return value;
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The command line with the command name: `/fw tenants list acme`. */
export function commandLine(op: Declared, raw: RawArgs, command: string = COMMAND): string {
  return `${command} ${commandText(op, raw)}`;
}

/**
 * The text after the command name that the grammar parses back into the same raw arguments (positionals
 * in order, then flags). Rest-of-line values (`query`, `json`) are written as typed, since they are read raw.
 */
export function commandText(op: Declared, raw: RawArgs): string {
  const parts = [...op.words];
  const flags: string[] = [];
  for (const param of op.params) {
    const value = raw[param.name];
    if (value === undefined || value === false || value === '') continue;
    if (param.flag) {
      if (value === true) flags.push(`--${param.name}`);
      else if (typeof value === 'string') flags.push(`--${param.name}`, quoteToken(value));
      continue;
    }
    if (param.kind === 'query' || param.kind === 'json') {
      if (typeof value === 'string') parts.push(value);
    } else if (Array.isArray(value)) {
      parts.push(...value.map(quoteToken));
    } else if (typeof value === 'string') {
      parts.push(quoteToken(value));
    }
  }
  return [...parts, ...flags].join(' ');
}
