// Who may approve a request and how many must: the channel's approver role by default, or the people that
// `approvals.approvers` rules scoped to the target name (src/config/profilesFileSchema.ts), with the
// largest `min_approvers` of the matching rules; with `customer_approvers`, one approval from each side
// (the MSP's and the customer's). The decisions and the executor ask the same question through one
// RoleCheck, so a re-check before execution is the same check as the click.
import type { ApproverRule } from '../config/profilesFileSchema.js';
import { isSlackUserGroupId } from '../config/slackIds.js';
import { userMention } from '../render/mrkdwn.js';
import type { Authorizer, RoleCheck } from './authorizer.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';
import type { ApproverSide } from './store.js';

/** The check an approver of this request must pass: among the rule's principals, or the channel's role. */
export function approverCheck(
  request: ApprovalRequest,
  userId: string,
  origin: { external?: boolean | undefined } = {},
): RoleCheck {
  return {
    userId,
    role: 'approver',
    channelId: request.channelId,
    teamId: request.teamId,
    ...(origin.external === true ? { external: true } : {}),
    ...(request.approverRule ? { among: request.approverRule.principals } : {}),
  };
}

/** A user id or a user-group id as Slack shows it: `<@U…>` or `<!subteam^S…>`. */
export function principalMention(principal: string): string {
  return isSlackUserGroupId(principal) ? `<!subteam^${principal}>` : userMention(principal);
}

/**
 * The check of the customer's side of a request that needs both (`customer_approvers`): among the customer's
 * people named by the rule. Being named is their grant, external or not (see RoleCheck.customerSide); that
 * the click came from the tenant's own card is the decisions' check, as only they see the click.
 */
export function customerCheck(
  request: ApprovalRequest,
  userId: string,
  origin: { external?: boolean | undefined } = {},
): RoleCheck | undefined {
  if (!request.customerSide) return undefined;
  return {
    ...approverCheck(request, userId, origin),
    among: request.customerSide.principals,
    customerSide: true,
  };
}

/** How far the two sides of a request that needs both are covered, from its `approverSides` letters. */
export function sidesCovered(sides: string): 'both' | 'msp' | 'customer' | 'either' | 'none' {
  const count = (letter: string) => [...sides].filter((side) => side === letter).length;
  const [m, c, e] = [count('m'), count('c'), count('e')];
  // Someone named on both sides (through user groups) covers whichever side the others leave open.
  if ((m >= 1 && c >= 1) || (e >= 1 && (m >= 1 || c >= 1)) || e >= 2) return 'both';
  if (m >= 1) return 'msp';
  if (c >= 1) return 'customer';
  return e >= 1 ? 'either' : 'none';
}

/**
 * Who a request still waits for, in words ("one of the customer's approvers (contoso-eu)"), or undefined
 * when the approvals it has are enough.
 */
export function stillNeeded(record: ApprovalRecord): string | undefined {
  const { request } = record;
  const needed = request.approvalsNeeded ?? 1;
  const more = Math.max(needed - (record.approvers?.length ?? 0), 0);
  const customer = request.customerSide;
  const others = (n: number) => `${n} more ${n === 1 ? 'approver' : 'approvers'}`;
  if (!customer) return more > 0 ? others(more) : undefined;
  const theirs = `one of the customer’s approvers (${customer.tenant})`;
  const ours = 'one of the MSP’s approvers';
  const words: string[] = [];
  const covered = sidesCovered(record.approverSides ?? '');
  if (covered === 'none') words.push(ours, theirs);
  else if (covered === 'msp') words.push(theirs);
  else if (covered === 'customer') words.push(ours);
  else if (covered === 'either') words.push('one more approver of either side');
  const rest = more - words.length;
  if (rest > 0) words.push(others(rest));
  return words.length === 0 ? undefined : words.join(' and ');
}

/**
 * Before a request runs: the side an approver still stands for, of the side they were counted for (a
 * request without sides: `m` when they still pass the rule or role that let them approve); undefined when
 * they no longer do. Where they clicked was checked at the click and is not asked again.
 */
export async function sideStillHeld(
  record: ApprovalRecord,
  approver: string,
  origin: { external?: boolean | undefined },
  authorizer: Authorizer,
): Promise<ApproverSide | undefined> {
  const { request } = record;
  const counted = request.customerSide ? record.approverSides?.[approversOf(record).indexOf(approver)] : 'm';
  const msp = counted !== 'c' && (await authorizer(approverCheck(request, approver, origin)));
  const check = counted === 'm' ? undefined : customerCheck(request, approver, origin);
  const customer = check !== undefined && (await authorizer(check));
  if (msp && customer) return 'e';
  if (msp) return 'm';
  return customer ? 'c' : undefined;
}

/**
 * The grants to re-check before a held request runs, as timed work re-checks them ahead of it (the reminder
 * before a scheduled run): the requester's role, and each approver's side as they were counted for it (an
 * approver counted for either side: either check). The run itself re-checks with sideStillHeld.
 */
export function grantsToRecheck(
  record: ApprovalRecord,
  externals: ReadonlySet<string>,
): (RoleCheck | RoleCheck[])[] {
  const { request } = record;
  const requester: RoleCheck = {
    userId: request.requesterId,
    role: request.role,
    channelId: request.channelId,
    teamId: request.teamId,
    ...(request.external === true ? { external: true } : {}),
  };
  const approvers = approversOf(record).map((approver, i) => {
    const origin = { external: externals.has(approver) };
    const counted = request.customerSide ? record.approverSides?.[i] : 'm';
    const customer = counted === 'm' ? undefined : customerCheck(request, approver, origin);
    const usual = approverCheck(request, approver, origin);
    // An extra rule's approver (src/approvals/extraApprovers.ts) stands by being among that rule.
    const extra = (request.extraApprovers ?? []).map((rule) => ({ ...usual, among: rule.principals }));
    return [...(counted === 'c' ? [] : [usual]), ...(customer ? [customer] : []), ...extra];
  });
  return [requester, ...approvers];
}

/** Everyone who approved so far (older records hold only `decidedBy`). */
export function approversOf(record: ApprovalRecord): string[] {
  if (record.approvers && record.approvers.length > 0) return record.approvers;
  return record.state !== 'pending' && record.decidedBy && record.decidedBy !== 'fwbot'
    ? [record.decidedBy]
    : [];
}

/** What a request touches, for approver rules: its devices (and their managed tenant), its tenant. */
export interface RequestScope {
  profile: string;
  /** Devices of this profile's tenant: matched against a rule's device query by SCC itself. */
  devices: { uid: string; name: string }[];
  /** Managed tenants (MSP portal) by name: a tenant target, or the tenants of managed devices. */
  tenants: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function named(value: unknown): { uid: string; name: string } | undefined {
  if (!isRecord(value) || typeof value.uid !== 'string' || typeof value.name !== 'string') return undefined;
  return { uid: value.uid, name: value.name };
}

/**
 * The scope of a target's facts, read by the shapes every target in the catalogue uses (src/catalogue/):
 * a `device` or `devices` with uid and name (a managed device's with `tenantName`), a `tenant` with a name,
 * or a device as the whole facts (uid, name, kind).
 */
export function scopeOfFacts(profile: string, facts: unknown, channelTenant?: string): RequestScope {
  // A customer channel's call acts on its tenant whatever its facts say (a device of the tenant's own
  // profile does not name its tenant), so rules on that tenant cover it.
  const scope: RequestScope = { profile, devices: [], tenants: channelTenant ? [channelTenant] : [] };
  if (!isRecord(facts)) return scope;
  const candidates = [
    facts.device,
    ...(Array.isArray(facts.devices) ? facts.devices : []),
    typeof facts.kind === 'string' ? facts : undefined,
  ];
  for (const candidate of candidates) {
    const device = named(candidate);
    if (!device) continue;
    if (isRecord(candidate) && typeof candidate.tenantName === 'string')
      scope.tenants.push(candidate.tenantName);
    else scope.devices.push(device);
  }
  const tenant = named(facts.tenant);
  if (tenant) scope.tenants.push(tenant.name);
  return scope;
}

/** Asks SCC whether a device is among those a device query finds (SCC's own Lucene, as /fw devices uses). */
export type DeviceQueryCheck = (query: string, deviceUid: string) => Promise<boolean>;

/** Who approves a request of this scope, by the rules that cover it; undefined when none does. */
export interface ScopedApprovers {
  principals: string[];
  rules: string[];
  minApprovers: number;
  /** The customer's side, when a matching rule names `customer_approvers`: their people, its tenants and rules. */
  customer?: { principals: string[]; tenants: string[]; rules: string[] };
}

async function covers(rule: ApproverRule, scope: RequestScope, inQuery: DeviceQueryCheck): Promise<boolean> {
  if (rule.profile !== undefined && rule.profile !== scope.profile) return false;
  if (rule.tenant !== undefined) {
    const wanted = rule.tenant.toLowerCase();
    if (!scope.tenants.some((tenant) => tenant.toLowerCase() === wanted)) return false;
  }
  if (rule.devices !== undefined) {
    const query = rule.devices;
    let any = false;
    for (const device of scope.devices) {
      if (await inQuery(query, device.uid)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

/**
 * Every rule that covers the scope (each given part must match; a device query matches when any of the
 * request's devices is among what it finds): all their approvers, the largest min_approvers.
 */
export async function scopedApprovers(
  rules: readonly ApproverRule[],
  scope: RequestScope,
  inQuery: DeviceQueryCheck,
): Promise<ScopedApprovers | undefined> {
  const matching: ApproverRule[] = [];
  for (const rule of rules) if (await covers(rule, scope, inQuery)) matching.push(rule);
  if (matching.length === 0) return undefined;
  const customers = matching.filter((rule) => rule.customerApprovers !== undefined);
  return {
    principals: [...new Set(matching.flatMap((rule) => rule.approvers))],
    rules: matching.map((rule) => rule.key),
    minApprovers: Math.max(...matching.map((rule) => rule.minApprovers)),
    ...(customers.length > 0
      ? {
          customer: {
            principals: [...new Set(customers.flatMap((rule) => rule.customerApprovers ?? []))],
            tenants: [
              ...new Set(customers.flatMap((rule) => (rule.tenant === undefined ? [] : [rule.tenant]))),
            ],
            rules: customers.map((rule) => rule.key),
          },
        }
      : {}),
  };
}
