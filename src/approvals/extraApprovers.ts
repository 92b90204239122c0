// Extra approvers: approver rules an operation's target adds to a request besides its usual approvers (the
// channel's approver role or the `approvals.approvers` rules), each with the sentence the card shows as
// the reason (an access request that reaches a protected destination: src/access/risk.ts). A request with
// extra approvers needs its usual approvals plus `minApprovers` distinct people of each extra rule, nobody
// counted twice. Whether a person's approval still counts is a matching of the approvers to those places:
// an approval that fills no open place (a second usual approver while the PCI owner is still missing) is
// refused, so when the count is reached every place is filled.
import { untrusted } from '../render/untrusted.js';
import { principalMention } from './approvers.js';
import type { Authorizer, RoleCheck } from './authorizer.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';

export type ExtraApproverRule = NonNullable<ApprovalRequest['extraApprovers']>[number];

/** How many of the request's approvals are the usual ones (the rest are the extra rules'). */
export function usualApprovalsNeeded(request: ApprovalRequest): number {
  const extra = (request.extraApprovers ?? []).reduce((sum, rule) => sum + rule.minApprovers, 0);
  return Math.max((request.approvalsNeeded ?? 1) - extra, 0);
}

/** Which places a person may fill: the usual ones (their check passes), and each extra rule they are in. */
export interface Eligibility {
  usual: boolean;
  rules: boolean[];
}

export async function eligibilityOf(
  request: ApprovalRequest,
  usualCheck: RoleCheck,
  authorizer: Authorizer,
): Promise<Eligibility> {
  const usual = await authorizer(usualCheck);
  const rules: boolean[] = [];
  for (const rule of request.extraApprovers ?? [])
    rules.push(await authorizer({ ...usualCheck, among: rule.principals }));
  return { usual, rules };
}

/**
 * Whether these approvers (each with what they may fill) fit into distinct places: the usual ones, then
 * `minApprovers` per extra rule. Kuhn's augmenting paths; a request has a handful of places.
 */
export function fits(request: ApprovalRequest, people: readonly Eligibility[]): boolean {
  const places: number[] = [];
  for (let i = 0; i < usualApprovalsNeeded(request); i += 1) places.push(-1);
  (request.extraApprovers ?? []).forEach((rule, index) => {
    for (let i = 0; i < rule.minApprovers; i += 1) places.push(index);
  });
  const filledBy = new Array<number>(places.length).fill(-1);
  const may = (person: number, place: number) => {
    const rule = places[place] ?? -1;
    const who = people[person];
    return who !== undefined && (rule === -1 ? who.usual : who.rules[rule] === true);
  };
  const assign = (person: number, seen: boolean[]): boolean => {
    for (let place = 0; place < places.length; place += 1) {
      if (seen[place] || !may(person, place)) continue;
      seen[place] = true;
      const other = filledBy[place] ?? -1;
      if (other === -1 || assign(other, seen)) {
        filledBy[place] = person;
        return true;
      }
    }
    return false;
  };
  return people.every((_, person) => assign(person, new Array<boolean>(places.length).fill(false)));
}

/** The extra rules in words for the card: who, by which rule, and why (its sentence names what the request typed). */
export function extraApproversWords(record: ApprovalRecord): string[] {
  return (record.request.extraApprovers ?? []).map(
    (rule) =>
      `Also needs ${rule.minApprovers === 1 ? 'one' : String(rule.minApprovers)} of ${rule.principals.map(principalMention).join(', ')} (\`${rule.key}\`): ${untrusted(rule.reason)}`,
  );
}
