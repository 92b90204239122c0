// Which rule governs an operation in this deployment: its declaration (src/catalogue/operation.ts,
// `approval`) with what the policy file says about it (`approvals.operations.<id>`). The file may raise a
// policy default to four-eyes, lower a four-eyes default to a role that may run it alone, or to none; it
// can never lower an operation that always needs approval, nor govern one that declares no target.
import type { ApprovalRule, Operation, Role } from '../catalogue/operation.js';
import { ConfigError, type ConfigIssue } from '../config/issues.js';
import { ROLES } from '../model/types.js';

export type Governance =
  /** A second person with the approver role approves it. */
  | { readonly kind: 'four-eyes' }
  /** Someone holding this role runs it alone (the policy file lowered it); it is audited. */
  | { readonly kind: 'role'; readonly role: Role }
  /** The operation's own role check only. */
  | { readonly kind: 'none' };

export const FOUR_EYES: Governance = { kind: 'four-eyes' };
export const NONE: Governance = { kind: 'none' };

function fromWord(word: string): Governance | undefined {
  if (word === 'four-eyes') return FOUR_EYES;
  if (word === 'none') return NONE;
  return (ROLES as readonly string[]).includes(word) ? { kind: 'role', role: word as Role } : undefined;
}

function byDefault(rule: ApprovalRule): Governance {
  if (rule === 'always') return FOUR_EYES;
  if (rule === 'never') return NONE;
  return rule.default === 'four-eyes' ? FOUR_EYES : NONE;
}

/**
 * The rule of each operation, checked once at start-up: a policy entry naming an unknown operation, one
 * that lowers an `always` operation, or one that governs an operation that is never governed is refused
 * with a sentence naming the key.
 */
export function governanceOf(
  operations: readonly Operation[],
  configured: Readonly<Record<string, string>>,
): (op: Pick<Operation, 'id' | 'approval'>) => Governance {
  const byId = new Map(operations.map((op) => [op.id, op]));
  const rules = new Map<string, Governance>();
  const problems: ConfigIssue[] = [];
  for (const [id, word] of Object.entries(configured)) {
    const op = byId.get(id);
    const rule = fromWord(word);
    const problem = (text: string) =>
      problems.push({ source: 'FWBOT_PROFILES', key: `approvals.operations.${id}`, problem: text });
    if (!op) problem(`fwbot has no operation ${id} (see /fw help)`);
    else if (!rule) problem(`is not four-eyes, none or a role (${ROLES.join(', ')})`);
    else if (op.approval === 'always' && rule.kind !== 'four-eyes')
      problem(`${id} always needs a second person's approval; the policy cannot lower it`);
    else if (op.approval === 'never' && rule.kind !== 'none')
      problem(`${id} is not a governed operation (it changes neither a firewall nor anyone's access)`);
    else rules.set(id, rule);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return (op) => rules.get(op.id) ?? byDefault(op.approval);
}

/** The rule in words, for help and the docs' command table. */
export function describeGovernance(rule: Governance): string {
  switch (rule.kind) {
    case 'four-eyes':
      return 'a second person with the approver role approves it';
    case 'role':
      return `someone with the ${rule.role} role runs it alone (audited)`;
    case 'none':
      return 'the role check only';
  }
}
