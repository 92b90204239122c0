// The risk check of an access request (issue 36, item 4), made before anything is staged: the profiles
// file's `access:` policy (src/config/sections/access.ts) applied to what the request asks for. Each rule
// that the request breaks is one finding, one sentence that names the rule; a rule's action decides the
// outcome: any `refuse` refuses the request, otherwise any `extra-approval` adds that rule's approvers
// (with the finding as the reason the card shows). Pure: the request's facts in, the verdict out.
import type { AccessProtocol, AccessRiskPolicy, RiskAction } from '../config/sections/access.js';
import type { ApproverRule } from '../config/sections/approvals.js';
import { UserError } from '../model/errors.js';
import {
  type Network,
  networksOverlap,
  networkText,
  networkWithin,
  parseNetwork,
} from '../model/networks.js';

export type { AccessProtocol, AccessRiskPolicy, RiskAction } from '../config/sections/access.js';

/** What the risk check needs to know of a request. */
export interface AccessRequestFacts {
  protocol: AccessProtocol;
  /** As the request names it: a host, a CIDR, `any`, or an object's name. */
  source: string;
  /** The addresses an object named as the source holds (hosts or CIDRs); absent: `source` is one. */
  sourceNetworks?: readonly string[] | undefined;
  destination: string;
  destinationNetworks?: readonly string[] | undefined;
  /** The tcp/udp port; absent: every port (an `ip` request opens every protocol as well). */
  port?: number | undefined;
  /** When the access ends (ms since the epoch); absent: it is permanent. */
  expiresAt?: number | undefined;
  /** The time of the check, for the longest expiry allowed. */
  now: number;
}

export interface RiskFinding {
  /** The rule's key in the profiles file: `access.forbidden_services[0]`. */
  rule: string;
  action: RiskAction;
  /** One sentence that names the rule and says what the request does against it. */
  sentence: string;
}

/** An approver rule the request needs besides the usual approvers, and the sentence that says why. */
export interface ExtraApprovers {
  rule: ApproverRule;
  reason: string;
}

export interface AccessRiskVerdict {
  outcome: 'allowed' | 'refused' | 'extra-approval';
  /** Every rule the request breaks, the refusing ones first, in the file's order. */
  findings: RiskFinding[];
  /** With `extra-approval`: who must approve besides the usual approvers, one entry per rule. */
  approvers?: ExtraApprovers[];
}

/** Checks a request against the policy. A source or destination that is no address throws a UserError. */
export function assessAccessRisk(policy: AccessRiskPolicy, request: AccessRequestFacts): AccessRiskVerdict {
  const source = endpoint('source', request.source, request.sourceNetworks);
  const destination = endpoint('destination', request.destination, request.destinationNetworks);
  const findings: (RiskFinding & { approvers?: ApproverRule | undefined })[] = [];
  const found = (
    rule: { key: string; action: RiskAction; approvers?: ApproverRule | undefined },
    name: string | undefined,
    what: string,
  ) => {
    const verb = rule.action === 'refuse' ? 'Refused by' : 'Needs an extra approval by';
    const named = name === undefined ? rule.key : `${rule.key} (${name})`;
    findings.push({
      rule: rule.key,
      action: rule.action,
      sentence: `${verb} ${named}: ${what}.`,
      approvers: rule.approvers,
    });
  };

  const outside = outsideNetworks(policy, source.networks);
  for (const service of policy.forbiddenServices) {
    if (!opens(request, service.protocol, service.ports)) continue;
    const words = serviceWords(service.protocol, service.ports);
    const how = openedBy(request, service.protocol, service.ports);
    if (service.from === 'anywhere') found(service, service.name, `${words} may not be opened${how}`);
    else if (outside.length > 0)
      found(
        service,
        service.name,
        `${words} may not be opened from outside the organisation’s networks${how}, and the source ${source.label} is outside them`,
      );
  }

  for (const [limit, side] of [
    [policy.minSourcePrefix, source],
    [policy.minDestinationPrefix, destination],
  ] as const) {
    if (limit === undefined) continue;
    const broad = side.networks.find((network) => {
      const least = network.family === 4 ? limit.ipv4 : limit.ipv6;
      return least !== undefined && network.prefix < least;
    });
    if (broad === undefined) continue;
    const least = broad.family === 4 ? limit.ipv4 : limit.ipv6;
    const width = broad.prefix === 0 ? 'every address' : `a /${broad.prefix}`;
    found(
      limit,
      undefined,
      `the ${side.side} ${side.label} is ${width}, broader than the /${least} the rule allows for IPv${broad.family}`,
    );
  }

  const reached = policy.protectedDestinations.filter((guarded) =>
    destination.networks.some((network) =>
      guarded.networks.some((inside) => networksOverlap(network, inside)),
    ),
  );
  for (const guarded of reached)
    found(
      guarded,
      guarded.name,
      `the destination ${destination.label} reaches into ${guarded.name} (${guarded.networks.map(networkText).join(', ')})${
        guarded.action === 'refuse' ? ', which takes no requests' : ''
      }`,
    );
  const toAny = policy.anySourceToProtected;
  if (toAny !== undefined && source.networks.some((network) => network.prefix === 0))
    for (const guarded of reached) {
      // An extra approval of this rule is the destination's own approvers'.
      const approvers =
        toAny.action === 'extra-approval' && guarded.approvers !== undefined
          ? { ...guarded.approvers, key: toAny.key }
          : undefined;
      found({ ...toAny, approvers }, undefined, `the source any may not reach the protected ${guarded.name}`);
    }

  const rule = policy.outsideSources;
  if (rule !== undefined && outside.length > 0) {
    const from = `the source ${source.label} is outside the organisation’s networks`;
    const limit = rule.atMostMs === undefined ? '' : ` within ${days(rule.atMostMs)}`;
    if (request.expiresAt === undefined)
      found(rule, undefined, `${from}, so the access must expire${limit} (--expires)`);
    else if (rule.atMostMs !== undefined && request.expiresAt - request.now > rule.atMostMs)
      found(
        rule,
        undefined,
        `${from}, so the access must expire${limit}, and this one lasts ${days(request.expiresAt - request.now)}`,
      );
  }

  return verdictOf(findings);
}

function verdictOf(findings: (RiskFinding & { approvers?: ApproverRule | undefined })[]): AccessRiskVerdict {
  const unique = findings.filter(
    (finding, index) =>
      findings.findIndex(
        (other) => other.sentence === finding.sentence && other.action === finding.action,
      ) === index,
  );
  const refusing = unique.filter((finding) => finding.action === 'refuse');
  const extra = unique.filter((finding) => finding.action === 'extra-approval');
  const plain = (finding: RiskFinding): RiskFinding => ({
    rule: finding.rule,
    action: finding.action,
    sentence: finding.sentence,
  });
  if (refusing.length > 0) return { outcome: 'refused', findings: [...refusing, ...extra].map(plain) };
  if (extra.length === 0) return { outcome: 'allowed', findings: [] };
  const approvers = extra.flatMap((finding) =>
    finding.approvers === undefined ? [] : [{ rule: finding.approvers, reason: finding.sentence }],
  );
  return { outcome: 'extra-approval', findings: extra.map(plain), approvers };
}

interface Endpoint {
  side: 'source' | 'destination';
  label: string;
  networks: Network[];
}

function endpoint(side: Endpoint['side'], text: string, held: readonly string[] | undefined): Endpoint {
  const label = text.trim();
  const parts = held ?? [label];
  if (parts.length === 0) throw new UserError(`The ${side} ${label} holds no addresses to check.`);
  const networks = parts.flatMap((part) => {
    const parsed = parseNetwork(part);
    if (parsed === undefined)
      throw new UserError(
        held === undefined
          ? `The ${side} ${label} is not a host, a CIDR or any; name an object by what it holds.`
          : `The ${side} ${label} holds ${part}, which is not a host or a CIDR.`,
      );
    return parsed;
  });
  return { side, label, networks };
}

/** The source's networks that are not wholly inside the organisation's networks. */
function outsideNetworks(policy: AccessRiskPolicy, networks: readonly Network[]): Network[] {
  return networks.filter(
    (network) => !policy.organisationNetworks.some((own) => networkWithin(network, own)),
  );
}

/** Whether the request opens (some of) the service: the same protocol or `ip`, and a port of it or every port. */
function opens(request: AccessRequestFacts, protocol: AccessProtocol, ports: readonly number[]): boolean {
  if (protocol !== 'ip' && request.protocol !== 'ip' && request.protocol !== protocol) return false;
  if (ports.length === 0 || request.port === undefined || request.protocol === 'ip') return true;
  return ports.includes(request.port);
}

/** ", and ip (every protocol and port) opens it" where the request is broader than the service. */
function openedBy(request: AccessRequestFacts, protocol: AccessProtocol, ports: readonly number[]): string {
  if (request.protocol === 'ip' && protocol !== 'ip') return ', and ip (every protocol and port) opens it';
  if (
    ports.length > 0 &&
    request.port === undefined &&
    (request.protocol === 'tcp' || request.protocol === 'udp')
  )
    return `, and ${request.protocol} without a port opens every port`;
  return '';
}

function serviceWords(protocol: AccessProtocol, ports: readonly number[]): string {
  if (protocol === 'ip') return 'any traffic';
  if (ports.length === 0) return protocol === 'icmp' ? 'icmp' : `any ${protocol} port`;
  return `${protocol} ${ports.length === 1 ? 'port' : 'ports'} ${ports.join(', ')}`;
}

function days(ms: number): string {
  const count = Math.ceil(ms / (24 * 60 * 60 * 1000));
  return `${count} ${count === 1 ? 'day' : 'days'}`;
}
