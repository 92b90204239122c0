// How one environment variable is declared: its documentation (the row of the configuration reference) and
// its parser, together, so the schema, the error examples and the configuration page cannot drift apart;
// and the checks several variables share (a whole number in a range, on/off, a Slack id, a secret kept
// wrapped). The variables themselves are declared by what they configure, in this folder; environment.ts
// makes the one schema of them.
import { z } from 'zod';
import { accept, type Checked, checkedString, refuse } from '../issues.js';
import { Secret } from '../secret.js';

/** One row of the configuration reference. */
export interface ConfigVariable {
  readonly name: string;
  /** When the variable must be set, in plain words; 'never' when it is optional. */
  readonly requiredWhen: string;
  /** The value used when it is unset, exactly as one would write it. */
  readonly default: string | undefined;
  readonly example: string;
  readonly description: string;
  /** True when the value must never be logged (fwbot keeps it wrapped in a Secret). */
  readonly secret: boolean;
}

type VariableDoc = Omit<ConfigVariable, 'name' | 'default'>;

/** Unset and empty mean the same: `FOO=` in a compose file or .env should not count as a value. */
export function presentValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function optionalVariable<T>(doc: VariableDoc, check: (raw: string) => Checked<T>) {
  return { ...doc, default: undefined, schema: z.preprocess(presentValue, checkedString(check).optional()) };
}

export function defaultedVariable<T>(
  doc: VariableDoc,
  defaultValue: string,
  check: (raw: string) => Checked<T>,
) {
  // The documented default goes through the same parser as a value that was set, so the two cannot differ.
  const schema = z.preprocess((value) => presentValue(value) ?? defaultValue, checkedString(check));
  return { ...doc, default: defaultValue, schema };
}

export function secret(check: (raw: string) => Checked<string>): (raw: string) => Checked<Secret> {
  return (raw) => {
    const result = check(raw);
    return result.ok ? accept(new Secret(result.value)) : result;
  };
}

export function integerBetween(min: number, max: number): (raw: string) => Checked<number> {
  return (raw) => {
    if (!/^\d+$/.test(raw)) return refuse(`must be a whole number from ${min} to ${max}`);
    const value = Number(raw);
    return value >= min && value <= max ? accept(value) : refuse(`must be from ${min} to ${max}`);
  };
}

export function slackId(shape: RegExp, what: string): (raw: string) => Checked<string> {
  return (raw) => (shape.test(raw) ? accept(raw) : refuse(`must be ${what}`));
}

export function checkSwitch(raw: string): Checked<boolean> {
  const value = raw.toLowerCase();
  if (value === 'on') return accept(true);
  if (value === 'off') return accept(false);
  return refuse('must be on or off');
}
