// Who may approve a request and how many must: the channel's approver role by default, or the people that
// `approvals.approvers` rules scoped to the target name (src/config/profilesFileSchema.ts), with the
// largest `min_approvers` of the matching rules. The decisions and the executor ask the same question
// through one RoleCheck, so a re-check before execution is the same check as the click.
import type { ApproverRule } from '../config/profilesFileSchema.js';
import { isSlackUserGroupId } from '../config/slackIds.js';
import { userMention } from '../render/mrkdwn.js';
import type { RoleCheck } from './authorizer.js';
import type { ApprovalRecord, ApprovalRequest } from './record.js';

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
export function scopeOfFacts(profile: string, facts: unknown): RequestScope {
  const scope: RequestScope = { profile, devices: [], tenants: [] };
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
  return {
    principals: [...new Set(matching.flatMap((rule) => rule.approvers))],
    rules: matching.map((rule) => rule.key),
    minApprovers: Math.max(...matching.map((rule) => rule.minApprovers)),
  };
}
