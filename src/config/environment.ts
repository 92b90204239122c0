// The environment fwbot reads, as one: the one zod schema over every variable (each declared once, with its
// parser and its documentation, in src/config/variables/ by what it configures: SCC, Slack, Redis, the
// process), the configuration reference's rows in the page's order, and the snapshot of the raw values
// everything after works on. The rules over several variables at once are environmentRules.ts.
import { z } from 'zod';
import type { ConfigIssue } from './issues.js';
import { type ConfigVariable, presentValue } from './variables/declare.js';
import { processVariables } from './variables/process.js';
import { redisVariables } from './variables/redis.js';
import { sccVariables } from './variables/scc.js';
import { slackVariables } from './variables/slack.js';

/** Every variable, by what it configures: the page lists them in this order (SCC, Slack, Redis, the process). */
const variables = { ...sccVariables, ...slackVariables, ...redisVariables, ...processVariables };

export type VariableName = keyof typeof variables;

type SchemaShape = { [K in VariableName]: (typeof variables)[K]['schema'] };

function schemaShape(): SchemaShape {
  const entries = Object.entries(variables).map(([name, variable]) => [name, variable.schema]);
  // Object.fromEntries loses the per-key types; the mapped type above restores exactly what it built.
  return Object.fromEntries(entries) as SchemaShape;
}

/** The one schema over the environment. Each value is trimmed, and an empty value counts as unset. */
export const EnvSchema = z.object(schemaShape());
export type EnvValues = z.output<typeof EnvSchema>;

/** Every variable fwbot reads, in the order the configuration page lists them. */
export const configVariables: readonly ConfigVariable[] = Object.freeze(
  Object.entries(variables).map(([name, { schema: _schema, ...doc }]) => Object.freeze({ name, ...doc })),
);

// Object.keys widens to string[]; these are exactly the keys of `variables`.
export const variableNames = Object.keys(variables) as readonly VariableName[];

export const secretVariableNames: readonly VariableName[] = variableNames.filter(
  (name) => variables[name].secret,
);

function isVariableName(name: string): name is VariableName {
  return Object.hasOwn(variables, name);
}

export function exampleFor(name: VariableName): string {
  return `${name}=${variables[name].example}`;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** The raw values fwbot reads, copied once so that everything after works on one consistent snapshot. */
export type EnvSnapshot = Readonly<Record<VariableName, string | undefined>>;

export function snapshotEnvironment(env: Environment): EnvSnapshot {
  const entries = variableNames.map((name) => [name, env[name]] as const);
  // Object.fromEntries loses the key type; the entries are exactly one per variable name.
  return Object.fromEntries(entries) as Record<VariableName, string | undefined>;
}

export function isSet(snapshot: EnvSnapshot, name: VariableName): boolean {
  return presentValue(snapshot[name]) !== undefined;
}

export type ParsedEnvironment = { ok: true; values: EnvValues } | { ok: false; issues: ConfigIssue[] };

export function parseEnvironment(snapshot: EnvSnapshot): ParsedEnvironment {
  const result = EnvSchema.safeParse(snapshot);
  if (result.success) return { ok: true, values: result.data };
  const issues = result.error.issues.map((issue): ConfigIssue => {
    const name = String(issue.path[0]);
    // Custom messages come from the variables' checks; anything else is a value that was not text at all.
    const problem = issue.code === 'custom' ? issue.message : 'must be text';
    return isVariableName(name)
      ? { source: name, problem, example: exampleFor(name) }
      : { source: name, problem };
  });
  return { ok: false, issues };
}
