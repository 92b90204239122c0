// `/fw access request <asa> <tcp|udp|icmp|ip> <source> <destination> [<port|icmp-type>] --reason "…"`:
// "let X reach Y" from the ask to a verified rule on the firewall (issue 36). When it is asked, before
// anything is staged: every value is checked (accessDesign.ts), packet-tracer runs on the device with the
// input interface inferred as `/fw trace` infers it; traffic already allowed is said ("no change needed",
// by which line) and nothing is staged. Otherwise the rule is designed: it goes into the access group bound
// inbound to the input interface, directly above the line that denies the traffic today (so no deny above
// it matches the traced flow), never as a duplicate of an existing rule; an object whose content equals a
// host or CIDR is reused, else one is created by the documented convention; the remark names the
// requester, the ticket and the reason. The card shows the request, the verdict before, the commands fwbot
// predicts (marked so: SCC refuses packet-tracer on a device with undeployed changes, so SCC's own
// calculation can come only once the approved change is staged, and then it is shown in the thread before
// the deploy), the objects reused or created, the predicted verdict after, and the change windows.
//
// On approval (four eyes, tickets, windows as for any deploy), under the device's access hold (the
// per-device change lock, from the approved run to the verification's end): the objects and the rule are
// staged, SCC's calculated commands are read, the device is deployed, and the verification follows as
// declared later work (src/follow/accessVerify.ts). A device that had anything staged since the card was
// posted is refused at run time: two changes never go in one deploy unseen.
import { z } from 'zod';
import { assessAccessRisk } from '../access/risk.js';
import { defaultAccessRequests } from '../config/sections/access.js';
import { UserError } from '../model/errors.js';
import type { RenderMeta } from '../model/types.js';
import type { View, ViewBlock } from '../model/view.js';
import { accessGroupBindings } from '../render/accessRules.js';
import { announcement } from '../render/announce.js';
import { code, counted } from '../render/format.js';
import { parsePacketTracer } from '../render/packetTracer.js';
import { untrusted } from '../render/untrusted.js';
import { SccApiError, SccError } from '../scc/errors.js';
import type { AccessGroup, AccessRule, ObjectResponse } from '../scc/generated/models.js';
import { deviceKind, type ResolvedDevice } from '../scc/kinds.js';
import { allOf, exactLucene, fieldIs, toLucene } from '../scc/lucene.js';
import {
  ACCESS_PROTOCOLS,
  type AccessProtocol,
  cidrOf,
  type Endpoint,
  type NewObject,
  objectNameFor,
  parseEndpoint,
  predictedAccessCommands,
  remarkOf,
  ruleLine,
  sameRuleText,
  timeRangeFor,
  traceAddressOf,
} from './accessDesign.js';
import { scheduleExpiry } from './accessExpiries.js';
import { optionalText, redactedText, text } from './args.js';
import {
  type AsaCommand,
  DEFAULT_SOURCE_PORT,
  type IcmpType,
  type InterfaceName,
  type Port,
  parseAddress,
  parseIcmpType,
  parsePort,
  pickInterface,
  scriptOf,
  sendableInterfaceName,
} from './asaCommands.js';
import { DeviceWindowsFacts, deployWindows, refuseUnheld, windowNotes } from './deployWindows.js';
import { heldSentence, holderWords, holdKindOf } from './deviceHolds.js';
import { inferInputInterface } from './inputInterface.js';
import { ASA_PARAM } from './lookups.js';
import {
  defineOperation,
  type Operation,
  type OperationContext,
  type TargetRead,
  type TrackRequest,
} from './operation.js';
import { type CommandsFacts, PENDING_READS, pendingCommands } from './pendingCommands.js';
import {
  boundedPaginate,
  type DeviceRequirement,
  INTERFACE_LISTS,
  listDeviceInterfaces,
  resolveDevice,
} from './resolve.js';
import { isNotFound } from './sccErrors.js';
import { newestDeployRuns, requestTag, taggedRequest } from './stagedDevices.js';
import { changeRequestFor, ticketedDescription } from './tickets.js';
import { scheduleRecertification } from './timed/accessRecertify.js';
import { runCliLine } from './trace.js';
import { commandText } from './usage.js';

const ASA: DeviceRequirement = { kinds: ['asa'], why: 'access requests are for ASAs' };

const DAY = 24 * 60 * 60 * 1000;

/** Traffic a device lets through already: nothing is staged on it (`by`: the rule, in words). */
class AlreadyAllowed extends UserError {
  constructor(
    message: string,
    readonly by: string,
  ) {
    super(message);
  }
}

/** The access policy refuses the request: on every device alike, so a request on several is refused whole. */
class RiskRefused extends UserError {}

// ---------------------------------------------------------------------------------------------------
// The arguments: every value checked before anything is read from SCC.

const endpointArg = text().transform((typed, issue) => {
  const parsed = parseEndpoint(typed);
  if (parsed.ok) return parsed.value;
  issue.addIssue({ code: 'custom', message: parsed.reason });
  return z.NEVER;
});

const requestArgs = z
  .object({
    asa: optionalText(),
    devices: optionalText(),
    protocol: text().transform((typed, issue) => {
      const found = ACCESS_PROTOCOLS.find((p) => p === typed.toLowerCase());
      if (found) return found;
      issue.addIssue({ code: 'custom', message: `must be one of ${ACCESS_PROTOCOLS.join(', ')}.` });
      return z.NEVER;
    }),
    source: endpointArg,
    destination: endpointArg,
    port: optionalText(),
    reason: text()
      .pipe(redactedText)
      .refine((reason) => reason.length <= 200, {
        message: 'must say why the access is needed in at most 200 characters.',
      }),
    expires: optionalText().refine(
      (typed) => typed === undefined || /^\d{1,3}d$/.test(typed) || /^\d{4}-\d{2}-\d{2}$/.test(typed),
      { message: 'must be a number of days (`30d`) or a date (`2027-01-31`).' },
    ),
    in: optionalText().refine((typed) => typed === undefined || sendableInterfaceName(typed), {
      message: 'must be an interface name (nameif) such as outside.',
    }),
  })
  .transform((args, issue) => {
    const { protocol, port } = args;
    if ((args.asa === undefined) === (args.devices === undefined)) {
      issue.addIssue({
        code: 'custom',
        path: [args.asa === undefined ? 'asa' : 'devices'],
        message:
          args.asa === undefined
            ? 'is required: the ASA’s name or UUID, or `--devices <query>` for several ASAs.'
            : 'takes the place of the ASA: give one or the other, not both.',
      });
      return z.NEVER;
    }
    let number: number | undefined;
    if (protocol === 'tcp' || protocol === 'udp') {
      const parsed = port === undefined ? undefined : parsePort(port);
      if (!parsed?.ok) {
        issue.addIssue({
          code: 'custom',
          path: ['port'],
          message: parsed ? parsed.reason : `is required for ${protocol}: the destination port (443, https).`,
        });
        return z.NEVER;
      }
      number = parsed.value;
    } else if (protocol === 'icmp') {
      const parsed = parseIcmpType(port ?? 'echo');
      if (!parsed.ok) {
        issue.addIssue({ code: 'custom', path: ['port'], message: parsed.reason });
        return z.NEVER;
      }
      number = parsed.value;
    } else if (port !== undefined) {
      issue.addIssue({ code: 'custom', path: ['port'], message: 'takes no port for ip (every protocol).' });
      return z.NEVER;
    }
    return { ...args, port: number };
  });
type RequestArgs = z.infer<typeof requestArgs>;

/** When the access ends, from `30d` or a date, checked against now: undefined when none was asked. */
export function expiryOf(typed: string | undefined, now: number): number | undefined {
  if (typed === undefined) return undefined;
  const days = /^(\d{1,3})d$/.exec(typed);
  if (days) {
    const count = Number(days[1]);
    if (count < 1 || count > 365) throw new UserError('--expires takes 1 to 365 days (`30d`).');
    return now + count * DAY;
  }
  const at = Date.parse(`${typed}T00:00:00Z`);
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== typed)
    throw new UserError(`--expires: ${typed} is not a date.`);
  if (at <= now) throw new UserError(`--expires: ${typed} is not in the future.`);
  if (at > now + 366 * DAY) throw new UserError('--expires: at most a year from now.');
  return at;
}

// ---------------------------------------------------------------------------------------------------
// The facts the approver judges, kept with the approval.

const Ref = z.object({ uid: z.string(), name: z.string() });

const Side = z.object({
  /** What was typed, canonical (`198.51.100.0/24`, `PARTNER-NET`). */
  typed: z.string(),
  /** The object the rule names. */
  object: z.string(),
  /** Its UUID in SCC, when it exists already. */
  objectUid: z.string().optional(),
  /** How it came to be: an object named by the request, reused for equal content, or created by fwbot. */
  how: z.enum(['named', 'reused', 'created']),
  /** Its content (the CIDR or host of a created or reused one; the first element of a named one). */
  content: z.string(),
  /** The address packet-tracer is run with. */
  traceAddress: z.string(),
  /** Every address the object holds (hosts or CIDRs), for the risk check. */
  networks: z.array(z.string()),
  /**
   * A reused object of fwbot's naming that SCC holds but not on this device (made for the same access on
   * another ASA): it is added to this device as it is (SCC's targets), its definition among the commands.
   */
  addTarget: z.boolean().optional(),
});
type Side = z.infer<typeof Side>;

export const AccessRequestFacts = z.object({
  device: Ref,
  protocol: z.enum(ACCESS_PROTOCOLS),
  port: z.number().int().optional(),
  source: Side,
  destination: Side,
  /** The input interface, and whether it was inferred. */
  input: z.string(),
  inferred: z.boolean(),
  /** The access group bound inbound to the input interface. */
  group: Ref,
  /** What decided the trace today: the denying line (its rule) or the implicit deny at the list's end. */
  before: z.object({
    text: z.string().nullable(),
    ruleUid: z.string().nullable(),
    configLine: z.number().int().nullable(),
    index: z.number().int(),
  }),
  /** The rule's index in its list (its remark's; the rule takes the next). */
  index: z.number().int(),
  /**
   * Set by the read before the run when the denying rule moved since the card (another request's rule went
   * above it) and packet-tracer showed that it still decides the traffic: the rule goes directly above it
   * again, at its new place.
   */
  placedAgain: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
  rule: z.string(),
  remark: z.string(),
  /** The packet-tracer line, from the templates, run before and after. */
  script: z.string(),
  reason: z.string(),
  requester: z.string(),
  ticket: z.string().optional(),
  expiresAt: z.number().int().optional(),
  /** The ASA time-range ending at the expiry the rule names (the policy's `access.time_range_for_expiry`). */
  timeRange: z.object({ name: z.string(), line: z.string() }).optional(),
  /** SCC's configuration state of the device: SYNCED when the card was made (packet-tracer needs it). */
  configState: z.string(),
  windows: z.array(DeviceWindowsFacts).optional(),
  /** The risk check of the policy's `access:` section (src/access/risk.ts), made before anything is staged. */
  risk: z.object({
    outcome: z.enum(['allowed', 'extra-approval']),
    findings: z.array(z.object({ rule: z.string(), sentence: z.string() })),
    approvers: z.array(
      z.object({
        rule: z.object({ key: z.string(), approvers: z.array(z.string()), minApprovers: z.number().int() }),
        reason: z.string(),
      }),
    ),
  }),
});
export type AccessRequestFacts = z.infer<typeof AccessRequestFacts>;

/** The objects the deploy defines on the device: the ones fwbot creates, and existing ones it adds there. */
const created = (facts: AccessRequestFacts): NewObject[] =>
  [facts.source, facts.destination]
    .filter((side) => side.how === 'created' || side.addTarget === true)
    .map((side) => ({ name: side.object, cidr: side.content }))
    // The same host or network on both sides is one object.
    .filter((object, i, all) => all.findIndex((o) => o.name === object.name) === i);

export function predicted(facts: AccessRequestFacts): string[] {
  return predictedAccessCommands({
    acl: facts.group.name,
    index: facts.index,
    remark: facts.remark,
    rule: facts.rule,
    create: created(facts),
    timeRange: facts.timeRange,
  });
}

// ---------------------------------------------------------------------------------------------------
// Reading SCC: the objects, the interface, the trace, the rules.

type ObjectItem = ObjectResponse & { targetIds?: string[] | null; value?: { objectType?: string } | null };

const isNetwork = (item: ObjectItem) =>
  item.value?.objectType === 'NETWORK_OBJECT' || item.value?.objectType === 'NETWORK_GROUP';

/** Whether SCC says the object is on the device (its targets; a list may give their ids alone). */
function targets(item: ObjectItem, deviceUid: string): boolean {
  const ids = [...(item.targetIds ?? []), ...(item.targets ?? []).map((t) => t.id)];
  return ids.some((id) => id?.toLowerCase() === deviceUid.toLowerCase());
}

/** A network object whose whole content is this host or network. */
const sameContent = (item: ObjectItem, cidr: string) =>
  item.value?.objectType === 'NETWORK_OBJECT' &&
  (item.elements ?? []).length === 1 &&
  item.elements?.[0] === cidr;

async function objectsWhere(ctx: OperationContext, q: string): Promise<ObjectItem[]> {
  return (await boundedPaginate(ctx.scc, 'getObjects', { query: { q } }, 'objects')) as ObjectItem[];
}

async function sideOf(
  ctx: OperationContext,
  device: { uid: string; name: string },
  endpoint: Endpoint,
  which: string,
): Promise<Side> {
  if (endpoint.kind === 'object') {
    const found = (await objectsWhere(ctx, fieldIs('name', endpoint.name))).find(
      (item) => item.name === endpoint.name && isNetwork(item) && targets(item, device.uid),
    );
    if (!found)
      throw new UserError(
        `${which}: ${device.name} has no network object or group named “${endpoint.name}”. Give a host, a CIDR, or one of its objects (\`/fw objects ${device.name}\`).`,
      );
    const content = found.elements?.[0] ?? '';
    const traceAddress = traceAddressOf(content);
    if (!traceAddress)
      throw new UserError(
        `${which}: the object ${endpoint.name} holds ${content || 'nothing'}, which fwbot cannot trace (an IPv4 host or network is needed).`,
      );
    return {
      typed: endpoint.name,
      object: endpoint.name,
      ...(found.uid ? { objectUid: found.uid } : {}),
      how: 'named',
      content,
      traceAddress,
      networks: (found.elements ?? []).length > 0 ? [...(found.elements ?? [])] : [content],
    };
  }
  const cidr = cidrOf(endpoint);
  const traceAddress = traceAddressOf(cidr) ?? endpoint.address;
  // An object of the device whose whole content is this host or network is reused.
  const equal = (await objectsWhere(ctx, exactLucene('content', cidr))).filter(
    (item) =>
      item.value?.objectType === 'NETWORK_OBJECT' &&
      targets(item, device.uid) &&
      (item.elements ?? []).length === 1 &&
      item.elements?.[0] === cidr &&
      typeof item.name === 'string',
  );
  const reused = equal.sort((a, b) => String(a.name).localeCompare(String(b.name)))[0];
  if (reused?.name)
    return {
      typed: cidr,
      object: reused.name,
      ...(reused.uid ? { objectUid: reused.uid } : {}),
      how: 'reused',
      content: cidr,
      traceAddress,
      networks: [cidr],
    };
  const name = objectNameFor(endpoint);
  const taken = (await objectsWhere(ctx, fieldIs('name', name))).find((item) => item.name === name);
  // fwbot's own object for this content, made for another ASA: reused, and added to this one.
  if (taken && sameContent(taken, cidr))
    return {
      typed: cidr,
      object: name,
      ...(taken.uid ? { objectUid: taken.uid } : {}),
      how: 'reused',
      content: cidr,
      traceAddress,
      networks: [cidr],
      ...(targets(taken, device.uid) ? {} : { addTarget: true }),
    };
  if (taken)
    throw new UserError(
      `${which}: an object named ${name} exists with other content (${(taken.elements ?? []).join(', ') || 'none'}); fwbot will not change it. Name an object instead.`,
    );
  return { typed: cidr, object: name, how: 'created', content: cidr, traceAddress, networks: [cidr] };
}

/**
 * SCC's object operations answer only while the tenant's object sharing is on (getTenantSettings): a
 * request that must create an object, or add one to this device, is refused before anyone approves it.
 */
async function refuseWithoutSharing(ctx: OperationContext, sides: readonly Side[]): Promise<void> {
  const needs = sides.filter((side) => side.how === 'created' || side.addTarget === true);
  if (needs.length === 0) return;
  const settings = await ctx.scc.governance.tenantSettings();
  if (settings.objectSharingEnabled === true) return;
  const names = [...new Set(needs.map((side) => side.object))].join(' and ');
  throw new UserError(
    `Object sharing is off for this tenant in SCC, and SCC changes objects only while it is on, so fwbot cannot create ${names}: name existing network objects of the device instead, or ask an SCC admin to turn object sharing on.`,
  );
}

async function inputOf(
  ctx: OperationContext,
  device: { uid: string; name: string },
  source: string,
  typed: string | undefined,
): Promise<{ input: InterfaceName; inferred: boolean }> {
  const interfaces = (await listDeviceInterfaces(ctx.scc, device.uid)).filter(
    (i) => typeof i.iface.name === 'string' && sendableInterfaceName(i.iface.name),
  );
  const nameifs = interfaces.map((i) => i.iface.name ?? '').sort((a, b) => a.localeCompare(b));
  if (typed !== undefined) {
    const input = pickInterface(typed, nameifs);
    if (!input)
      throw new UserError(
        `in: ${device.name} has no interface named “${typed}”. Its interfaces: ${nameifs.join(', ')}.`,
      );
    return { input, inferred: false };
  }
  const found = inferInputInterface(
    source,
    interfaces.map((i) => i.iface),
  );
  const input = found === undefined ? undefined : pickInterface(found, nameifs);
  if (!input)
    throw new UserError(
      `No connected subnet of ${device.name} holds ${source}, so fwbot cannot tell where the traffic comes in: say it with --in (one of ${nameifs.join(', ')}).`,
    );
  return { input, inferred: true };
}

function traceCommand(
  protocol: AccessProtocol,
  port: number | undefined,
  input: InterfaceName,
  source: string,
  destination: string,
): AsaCommand {
  const address = (value: string) => {
    const parsed = parseAddress(value);
    if (!parsed.ok) throw new Error(`not an address: ${value}`);
    return parsed.value;
  };
  // `ip` (every protocol) is traced as an ICMP echo; only a line that permits ip then counts as allowing it.
  if (protocol === 'icmp' || protocol === 'ip')
    return {
      kind: 'packet-tracer',
      input,
      protocol: 'icmp',
      source: address(source),
      icmpType: (protocol === 'icmp' ? (port ?? 8) : 8) as IcmpType,
      destination: address(destination),
    };
  return {
    kind: 'packet-tracer',
    input,
    protocol,
    source: address(source),
    sourcePort: DEFAULT_SOURCE_PORT,
    destination: address(destination),
    destinationPort: (port ?? 0) as Port,
  };
}

async function rulesOf(ctx: OperationContext, device: { uid: string; name: string }): Promise<AccessRule[]> {
  return boundedPaginate(
    ctx.scc,
    'listAccessRules',
    { query: { q: fieldIs('entityUid', device.uid) } },
    `access rules of ${device.name}`,
  );
}

async function inboundGroup(
  ctx: OperationContext,
  device: { uid: string; name: string },
  input: string,
): Promise<AccessGroup> {
  const groups: AccessGroup[] = await boundedPaginate(
    ctx.scc,
    'listAccessGroups',
    { query: { q: fieldIs('entityUid', device.uid) } },
    `access groups of ${device.name}`,
  );
  const group = groups.find((g) => accessGroupBindings(g).includes(`in on ${input}`));
  if (!group)
    throw new UserError(
      `No access group is bound inbound to ${input} on ${device.name}: fwbot adds rules only to an existing one.`,
    );
  return group;
}

/** Why the traffic is allowed already, in a sentence; undefined when it is not (or not for all of `ip`). */
function allowedBy(
  protocol: AccessProtocol,
  verdict: ReturnType<typeof parsePacketTracer>,
  rules: readonly AccessRule[],
): string | undefined {
  if (verdict.action !== 'allow') return undefined;
  const decision = verdict.decision;
  if (decision?.kind === 'access-list' && decision.line) {
    if (protocol === 'ip' && !/\spermit\s+ip\s/.test(decision.line)) return undefined;
    const rule = rules.find(
      (r) => r.ruleConfigurationText && sameRuleText(r.ruleConfigurationText, decision.line ?? ''),
    );
    const line = rule?.ruleConfigurationLineNumber;
    return `allowed by ${line ? `line ${line} ` : ''}(${code(decision.line)})`;
  }
  if (protocol === 'ip') return undefined;
  if (decision?.kind === 'security-levels')
    return 'allowed by the interfaces’ security levels (no access list applies)';
  return 'allowed by an access list that printed no line';
}

/**
 * The policy's risk check, before packet-tracer and before anything is staged: a rule that refuses is said
 * in one sentence each; one that asks for an extra approver is kept for the card and the approval.
 */
function riskOf(
  ctx: OperationContext,
  args: RequestArgs,
  source: Side,
  destination: Side,
  expiresAt: number | undefined,
): AccessRequestFacts['risk'] {
  const verdict = assessAccessRisk(ctx.policy?.accessRequests ?? defaultAccessRequests, {
    protocol: args.protocol,
    source: source.typed,
    sourceNetworks: source.how === 'named' ? source.networks : undefined,
    destination: destination.typed,
    destinationNetworks: destination.how === 'named' ? destination.networks : undefined,
    port: args.protocol === 'tcp' || args.protocol === 'udp' ? args.port : undefined,
    expiresAt,
    now: ctx.now(),
  });
  if (verdict.outcome === 'refused')
    throw new RiskRefused(
      verdict.findings
        .filter((f) => f.action === 'refuse')
        .map((f) => f.sentence)
        .join(' '),
    );
  return {
    outcome: verdict.outcome,
    findings: verdict.findings.map((f) => ({ rule: f.rule, sentence: f.sentence })),
    approvers: (verdict.approvers ?? []).map((extra) => ({
      rule: {
        key: extra.rule.key,
        approvers: [...extra.rule.approvers],
        minApprovers: extra.rule.minApprovers,
      },
      reason: extra.reason,
    })),
  };
}

async function resolveRequest(
  ctx: OperationContext,
  args: RequestArgs,
): Promise<{ facts: TargetFacts; raw: Record<string, string> }> {
  if (args.devices !== undefined) return resolveOnDevices(ctx, args, args.devices);
  const found = await resolveDevice(ctx.scc, args.asa ?? '', ASA);
  return requestOn(ctx, args, found);
}

/** The request on one ASA, resolved: checked, traced, designed (or refused in a sentence). */
async function requestOn(
  ctx: OperationContext,
  args: RequestArgs,
  found: ResolvedDevice,
): Promise<{ facts: AccessRequestFacts; raw: Record<string, string> }> {
  const expiresAt = expiryOf(args.expires, ctx.now());
  const device = { uid: found.uid, name: found.name };
  const state = found.device.connectivityState ?? 'UNKNOWN';
  if (state !== 'ONLINE')
    throw new UserError(`${found.name} is ${state}: fwbot checks and changes nothing on it.`);
  const configState = found.device.configState ?? 'UNKNOWN';
  if (configState === 'NOT_SYNCED')
    throw new UserError(
      `${found.name} has changes staged in SCC that are not deployed: SCC refuses packet-tracer until they are, so fwbot cannot check the request. \`/fw changes ${found.name}\` shows them; deploy or discard them first.`,
    );
  const source = await sideOf(ctx, device, args.source, 'source');
  const destination = await sideOf(ctx, device, args.destination, 'destination');
  const risk = riskOf(ctx, args, source, destination, expiresAt);
  await refuseWithoutSharing(ctx, [source, destination]);
  const { input, inferred } = await inputOf(ctx, device, source.traceAddress, args.in);
  const command = traceCommand(
    args.protocol,
    args.port,
    input,
    source.traceAddress,
    destination.traceAddress,
  );
  const script = scriptOf(command);
  const verdict = parsePacketTracer(await runCliLine(ctx, device, script));
  const rules = await rulesOf(ctx, device);
  const allowed = allowedBy(args.protocol, verdict, rules);
  if (allowed)
    throw new AlreadyAllowed(
      `No change needed: ${device.name} already lets this through, ${allowed} (\`${script}\`). Nothing was staged.`,
      allowed,
    );
  if (verdict.action === undefined)
    throw new UserError(
      `fwbot could not read ${device.name}’s packet-tracer answer (\`${script}\`): nothing was staged.`,
    );
  const group = await inboundGroup(ctx, device, input);
  const inGroup = rules.filter((r) => r.accessGroupUid === group.uid).sort((a, b) => a.index - b.index);
  const decision = verdict.decision;
  let before: AccessRequestFacts['before'];
  if (decision?.kind === 'access-list' && decision.line && verdict.action === 'drop') {
    const deny = inGroup.find(
      (r) => r.ruleConfigurationText && sameRuleText(r.ruleConfigurationText, decision.line ?? ''),
    );
    if (!deny)
      throw new UserError(
        `${device.name} drops it by ${code(decision.line)}, which is not a rule of ${group.name} (bound inbound to ${input}): fwbot does not place a rule there.`,
      );
    before = {
      text: deny.ruleConfigurationText ?? decision.line,
      ruleUid: deny.uid ?? null,
      configLine: deny.ruleConfigurationLineNumber ?? null,
      index: deny.index,
    };
  } else if (
    decision?.kind === 'implicit-deny' ||
    (decision?.kind === 'access-list' && verdict.action === 'drop')
  ) {
    before = { text: null, ruleUid: null, configLine: null, index: (inGroup.at(-1)?.index ?? 0) + 1 };
  } else {
    throw new UserError(
      `${device.name} drops it, but not by an access rule (${verdict.dropReason ?? decision?.kind ?? 'no reason given'}): a new rule would not let it through.`,
    );
  }
  const timeRange =
    expiresAt !== undefined && ctx.policy?.accessRequests?.timeRangeForExpiry === true
      ? timeRangeFor(expiresAt)
      : undefined;
  const rule = `${ruleLine(group.name, {
    protocol: args.protocol,
    source: source.object,
    destination: destination.object,
    port: args.port,
  })}${timeRange ? ` time-range ${timeRange.name}` : ''}`;
  // Never a duplicate: a rule with the same words anywhere in the list (below the deny, shadowed) is said.
  const duplicate = inGroup.find(
    (r) => r.ruleConfigurationText && sameRuleText(r.ruleConfigurationText, rule),
  );
  if (duplicate)
    throw new UserError(
      `${group.name} already holds this rule at line ${duplicate.ruleConfigurationLineNumber ?? `#${duplicate.index}`}, below what denies the traffic, so it never matches: fwbot adds no duplicate. Remove it (\`/fw rules remove ${device.name} ${duplicate.ruleConfigurationLineNumber ?? duplicate.uid}\`) and ask again.`,
    );
  const ticket = ctx.ticket;
  const facts: AccessRequestFacts = {
    device,
    protocol: args.protocol,
    ...(args.port === undefined ? {} : { port: args.port }),
    source,
    destination,
    input,
    inferred,
    group: { uid: group.uid, name: group.name },
    before,
    index: before.index,
    rule,
    remark: remarkOf(ctx.actor.userId, ticket, args.reason),
    script,
    reason: args.reason,
    requester: ctx.actor.userId,
    ...(ticket === undefined ? {} : { ticket }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(timeRange ? { timeRange } : {}),
    configState,
    windows: await deployWindows(ctx, [device]),
    risk,
  };
  return {
    facts,
    raw: {
      asa: device.uid,
      protocol: args.protocol,
      source: source.typed,
      destination: destination.typed,
      ...(args.port === undefined || args.protocol === 'ip' ? {} : { port: String(args.port) }),
      reason: args.reason,
      ...(expiresAt === undefined ? {} : { expires: new Date(expiresAt).toISOString().slice(0, 10) }),
      in: input,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Read again before it runs, and what differs.

async function reread(
  ctx: OperationContext,
  before: AccessRequestFacts,
): Promise<TargetRead<AccessRequestFacts>> {
  let configState: string;
  try {
    const { data } = await ctx.scc.call('getDevice', { path: { deviceUid: before.device.uid } });
    configState = data.configState ?? 'UNKNOWN';
  } catch (error) {
    if (isNotFound(error)) return { found: false, reason: `${before.device.name} is no longer in SCC` };
    throw error;
  }
  let deny = before.before;
  if (before.before.ruleUid) {
    try {
      const rule = await ctx.scc.lookups.accessRule(before.before.ruleUid);
      deny = { ...deny, text: rule.ruleConfigurationText ?? deny.text, index: rule.index };
    } catch (error) {
      if (isNotFound(error))
        return {
          found: false,
          reason: `the rule that denied the traffic (${before.before.text}) no longer exists on ${before.device.name}: ask again`,
        };
      throw error;
    }
  }
  const again = await placeAgain(ctx, before, deny, configState);
  return {
    found: true,
    facts: {
      ...before,
      configState,
      before: deny,
      ...(again ? { index: again.to, placedAgain: again } : {}),
      windows: await deployWindows(ctx, [before.device]),
    },
  };
}

/**
 * The denying rule moved (rules went in above it, typically another request's that held the device first),
 * its text unchanged: when packet-tracer shows that it still decides the traffic, the rule goes directly
 * above it at its new place, so requests waiting their turn on one device go on instead of stopping. Nothing
 * when it did not move, when the device has undeployed changes (no packet-tracer then: the comparison says
 * so), or when another line decides now.
 */
async function placeAgain(
  ctx: OperationContext,
  approved: AccessRequestFacts,
  deny: AccessRequestFacts['before'],
  configState: string,
): Promise<{ from: number; to: number } | undefined> {
  if (deny.ruleUid === null || deny.index === approved.before.index) return undefined;
  if (!sameRuleText(deny.text ?? '', approved.before.text ?? '') || configState === 'NOT_SYNCED')
    return undefined;
  const verdict = parsePacketTracer(await runCliLine(ctx, approved.device, approved.script));
  const decision = verdict.decision;
  const line = decision?.kind === 'access-list' ? decision.line : undefined;
  if (verdict.action !== 'drop' || !line || !sameRuleText(line, deny.text ?? '')) return undefined;
  return { from: approved.index, to: deny.index };
}

export function compareRequests(before: AccessRequestFacts, after: AccessRequestFacts): string[] {
  const out: string[] = [];
  if (after.configState === 'NOT_SYNCED' && before.configState !== 'NOT_SYNCED')
    out.push(
      `something was staged on ${after.device.name} since the card was posted, and a deploy would carry it with this rule (\`/fw changes ${after.device.name}\`)`,
    );
  if (before.before.index !== after.before.index && after.placedAgain === undefined)
    out.push(
      `the rule that denies the traffic moved from #${before.before.index} to #${after.before.index} of ${before.group.name}`,
    );
  if ((before.before.text ?? '') !== (after.before.text ?? ''))
    out.push(
      `the rule that denies the traffic changed from “${before.before.text}” to “${after.before.text}”`,
    );
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The card.

function sideText(side: Side): string {
  if (side.how === 'named') return `${side.object} (named)`;
  if (side.how === 'reused' && side.addTarget)
    return `${side.typed} → ${side.object} (existing object reused, added to this device)`;
  if (side.how === 'reused') return `${side.typed} → ${side.object} (existing object reused)`;
  return `${side.typed} → ${side.object} (new object)`;
}

function service(facts: Pick<AccessRequestFacts, 'protocol' | 'port'>): string {
  if (facts.protocol === 'ip') return 'ip (every protocol)';
  if (facts.protocol === 'icmp') return `icmp type ${facts.port ?? 8}`;
  return `${facts.protocol}/${facts.port ?? '?'}`;
}

function beforeText(facts: AccessRequestFacts): string {
  const b = facts.before;
  if (b.text === null) return `DROP by the implicit deny at the end of ${facts.group.name}`;
  return `DROP by ${b.configLine === null ? `#${b.index}` : `line ${b.configLine}`} (${b.text})`;
}

export function describeRequest(facts: AccessRequestFacts, now: number) {
  const device = facts.device.name;
  const objects = [facts.source, facts.destination];
  const createdObjects = created(facts).filter((object) =>
    objects.some((side) => side.how === 'created' && side.object === object.name),
  );
  return {
    action: `let ${code(facts.source.typed)} reach ${code(facts.destination.typed)} on ${service(facts)} through ${code(device)} (access request)`,
    line: `access request on ${untrusted(device)}: ${untrusted(facts.rule)}`,
    fields: [
      { label: 'Device', value: device },
      { label: 'Service', value: service(facts) },
      { label: 'Source', value: sideText(facts.source) },
      { label: 'Destination', value: sideText(facts.destination) },
      { label: 'Reason', value: facts.reason },
      ...(facts.ticket ? [{ label: 'Ticket', value: facts.ticket }] : []),
      {
        label: 'Expires',
        value:
          facts.expiresAt === undefined
            ? 'never (a permanent rule)'
            : `${new Date(facts.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC: fwbot removes the rule then (in the change windows) and reminds the requester 3 days before`,
      },
      ...(facts.timeRange
        ? [
            {
              label: 'Time range',
              value: `${facts.timeRange.name} (${facts.timeRange.line}, the device's clock): the device stops matching the rule then`,
            },
          ]
        : []),
      {
        label: 'Input interface',
        value: `${facts.input}${facts.inferred ? ' (inferred from the source)' : ''}`,
      },
      { label: 'Verdict before', value: beforeText(facts) },
      {
        label: 'Placed',
        value: `#${facts.index} of ${facts.group.name}${facts.before.text === null ? ' (at its end)' : ', directly above the line that denies it'}`,
      },
      { label: 'Rule', value: facts.rule },
      { label: 'Remark', value: facts.remark },
      {
        label: 'Objects',
        value: objects.every((o) => o.how === 'named')
          ? 'named by the request'
          : `${
              objects
                .filter((o) => o.how === 'reused')
                .map((o) => o.object)
                .join(', ') || 'none'
            } reused; ${createdObjects.map((o) => o.name).join(', ') || 'none'} created`,
      },
      {
        label: 'Risk check',
        value:
          facts.risk.findings.length === 0
            ? 'no rule of the access policy is broken'
            : facts.risk.findings.map((f) => f.sentence).join(' '),
      },
      {
        label: 'Verdict after (predicted)',
        value: `ALLOW by the new rule at #${facts.index + 1} of ${facts.group.name}`,
      },
    ],
    warnings: [] as string[],
    code: [
      '! predicted by fwbot; SCC calculates the exact commands once the change is staged, shown before the deploy',
      ...predicted(facts),
      `! already staged on ${device}: nothing (packet-tracer ran, which SCC allows only then)`,
    ].join('\n'),
    notes: [
      `On approval fwbot stages the rule, shows SCC’s calculated commands in this thread, deploys ${code(device)} and runs \`${facts.script}\` again to verify. ${code(device)} is locked for other changes until then.`,
      ...windowNotes(facts.windows ?? [], undefined, undefined, now),
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// The run, once approved.

interface Staged {
  facts: AccessRequestFacts;
  ruleUid: string;
  ruleText: string;
  pending: CommandsFacts | undefined;
  transactionUid: string | undefined;
  holder: string;
}

/**
 * Keeps the record of the rule fwbot just created (src/access/records.ts: `/fw access list`, revoke, expiry),
 * once per rule: a run found again after a crash records it only if it is not there yet. A rule that
 * expires gets its removal at the expiry and its reminder three days before (accessExpiries.ts), scheduled
 * once too. Where fwbot keeps no records (the CLI, without Redis), nothing is kept; a record that cannot be
 * kept is logged, and the request goes on: the rule is in SCC and is deployed and verified all the same.
 */
async function recordRule(
  ctx: OperationContext,
  facts: AccessRequestFacts,
  ruleUid: string,
  ruleText: string,
): Promise<void> {
  const records = ctx.services?.accessRecords;
  if (!records || !ruleUid) return;
  try {
    const thread = ctx.approval?.thread;
    const record =
      (await records.find(ctx.profile, ruleUid)) ??
      (await records.add({
        profile: ctx.profile,
        ...(ctx.channelTenant ? { tenantUid: ctx.channelTenant } : {}),
        deviceUid: facts.device.uid,
        deviceName: facts.device.name,
        accessGroup: facts.group.name,
        ruleUid,
        protocol: facts.protocol,
        source: facts.source.typed,
        destination: facts.destination.typed,
        ...(facts.port === undefined ? {} : { port: String(facts.port) }),
        requester: facts.requester,
        ...(facts.ticket ? { ticket: facts.ticket } : {}),
        reason: facts.reason,
        createdAt: ctx.now(),
        ...(facts.expiresAt === undefined ? {} : { expiresAt: facts.expiresAt }),
        ...(thread
          ? {
              thread: {
                channel: thread.channelId,
                ts: thread.threadTs,
                ...(thread.teamId ? { teamId: thread.teamId } : {}),
              },
            }
          : {}),
      }));
    await scheduleExpiry(ctx, record, {
      ruleText,
      script: facts.script,
      approvalId: ctx.requestId,
      people: ctx.approval?.people,
      ticket: facts.ticket,
    });
    // A permanent rule is recertified every access.recertify_every (timed/accessRecertify.ts).
    await scheduleRecertification(ctx, record).catch((error: unknown) => {
      ctx.log.error({ err: error, ruleUid }, 'the access rule’s recertification was not scheduled');
    });
  } catch (error) {
    ctx.log.error({ err: error, ruleUid }, 'the access rule’s record (or its expiry) was not kept');
  }
}

/**
 * Creates fwbot's object on the device; when SCC refuses the name because the object exists now with the
 * same content (the same request made it on another ASA a moment ago), adds that object to this device.
 */
async function createOrAddObject(
  ctx: OperationContext,
  device: { uid: string; name: string },
  object: NewObject,
): Promise<string | undefined> {
  try {
    const { data } = await ctx.scc.call('createObject', {
      body: {
        name: object.name,
        value: { objectType: 'NETWORK_OBJECT', defaultContent: { literal: object.cidr } },
        targetIds: [device.uid],
      },
    });
    return data.uid ?? undefined;
  } catch (error) {
    if (!(error instanceof SccApiError) || (error.status !== 400 && error.status !== 409)) throw error;
    const same = (await objectsWhere(ctx, fieldIs('name', object.name))).find(
      (item) => item.name === object.name && sameContent(item, object.cidr),
    );
    if (!same?.uid) throw error;
    if (!targets(same, device.uid))
      await ctx.scc.call('createTargets', {
        path: { uid: same.uid },
        body: { targetsUuids: [device.uid] },
      });
    return same.uid;
  }
}

/**
 * A run no approval led to (the CLI's `--yes`) holds its ASA itself, under its request's id, as the
 * approvals' executor holds it for an approved one: until the verification ends (or the hold lapses), no
 * other change goes in its deploy. Held by other work, it is refused in one sentence.
 */
async function holdUnapproved(ctx: OperationContext, facts: AccessRequestFacts): Promise<void> {
  const holds = ctx.services?.holds;
  if (ctx.approval !== undefined || !holds) return;
  const now = ctx.now();
  const taken = await holds.take(
    {
      profile: ctx.profile,
      devices: [facts.device],
      holder: { kind: 'access', id: ctx.requestId, requesterId: ctx.actor.userId },
      reason: `access request on ${facts.device.name}`,
      until: now + (holdKindOf('access')?.maxMs ?? 0),
    },
    now,
  );
  if (!taken.taken) throw new UserError(heldSentence(taken.by, 'nothing was staged.'));
}

async function stageAndDeploy(ctx: OperationContext, facts: AccessRequestFacts): Promise<Staged> {
  refuseUnheld(ctx, facts);
  await holdUnapproved(ctx, facts);
  const uids = new Map<string, string>();
  for (const side of [facts.source, facts.destination])
    if (side.addTarget && side.objectUid && !uids.has(side.object)) {
      await ctx.scc.call('createTargets', {
        path: { uid: side.objectUid },
        body: { targetsUuids: [facts.device.uid] },
      });
      uids.set(side.object, side.objectUid);
    }
  for (const object of created(facts)) {
    if (uids.has(object.name)) continue;
    const uid = await createOrAddObject(ctx, facts.device, object);
    if (uid) uids.set(object.name, uid);
  }
  const operand = (side: Side) => {
    const uid = side.objectUid ?? uids.get(side.object);
    return { name: side.object, ...(uid ? { uid } : {}) };
  };
  const port =
    facts.protocol === 'tcp' || facts.protocol === 'udp' || facts.protocol === 'icmp'
      ? { destinationPort: { name: String(facts.port ?? 8) } }
      : {};
  const { data: rule } = await ctx.scc.call('createAccessRule', {
    body: {
      accessGroupUid: facts.group.uid,
      entityUid: facts.device.uid,
      index: facts.index,
      ruleAction: 'PERMIT',
      protocol: { name: facts.protocol },
      sourceNetwork: operand(facts.source),
      destinationNetwork: operand(facts.destination),
      ...port,
      remark: facts.remark,
      ...(facts.timeRange
        ? {
            ruleTimeRange: {
              name: facts.timeRange.name,
              type: 'TIME_RANGE',
              elements: [facts.timeRange.line],
            },
          }
        : {}),
    },
  });
  await recordRule(ctx, facts, rule.uid ?? '', rule.ruleConfigurationText ?? facts.rule);
  let pending: CommandsFacts | undefined;
  try {
    pending = await pendingCommands(ctx, facts.device.uid);
  } catch (error) {
    ctx.log.warn({ err: error }, 'pending commands not calculated after staging the access rule');
  }
  const label = `access request on ${facts.device.name}`;
  await changeRequestFor(ctx, label);
  const { data: transaction } = await ctx.scc.call('deployChangesToMultipleAsaDevices', {
    body: {
      deviceUids: [facts.device.uid],
      description: ticketedDescription(ctx.ticket, `${label} ${requestTag(ctx.requestId)}`),
    },
  });
  return {
    facts,
    ruleUid: rule.uid ?? '',
    ruleText: rule.ruleConfigurationText ?? facts.rule,
    pending,
    transactionUid: transaction.transactionUid ?? undefined,
    holder: ctx.requestId,
  };
}

export function renderStaged(staged: Staged, meta: RenderMeta): View {
  const { facts, pending } = staged;
  const device = facts.device.name;
  const view = announcement(
    {
      sentence: `add the access rule ${untrusted(staged.ruleText)} to ${untrusted(device)} and deploy it`,
      tense: 'asked',
      details: [
        ['Rule UUID', staged.ruleUid],
        ['Device UUID', facts.device.uid],
      ],
      next: 'fwbot follows the deploy, then runs packet-tracer again and says here whether the rule lets the traffic through.',
    },
    meta,
  );
  const blocks: ViewBlock[] = [...view.blocks];
  const again = facts.placedAgain;
  if (again)
    blocks.push({
      kind: 'text',
      text: `The rule that denies the traffic moved from #${again.from} to #${again.to} of ${code(facts.group.name)} since the card (rules went in above it); packet-tracer showed that it still decides, so the new rule goes directly above it, at #${again.to}.`,
    });
  if (pending === undefined)
    blocks.push({ kind: 'text', text: `SCC did not say which commands the deploy of ${code(device)} runs.` });
  else {
    blocks.push({
      kind: 'text',
      text: `SCC calculates that the deploy of ${code(device)} runs ${counted(pending.commands.length, 'command')} (${pending.status}):`,
    });
    blocks.push({ kind: 'code', text: pending.commands.join('\n'), filename: `${device}-access.txt` });
  }
  return { ...view, blocks };
}

/** The removal the *Remove the rule…* button runs: `rules remove`, governed like any. */
function removalCommand(staged: Staged): string {
  return commandText(
    { words: ['rules', 'remove'], params: [ASA_PARAM, { name: 'rule', kind: 'word', description: '' }] },
    { asa: staged.facts.device.uid, rule: staged.ruleUid },
  );
}

/** The deploy followed to its end, and the verification after it (which ends the device's access hold). */
function tracksOf(staged: Staged): TrackRequest[] {
  const { transactionUid } = staged;
  if (!transactionUid) return [];
  const label = `access request on ${staged.facts.device.name}`;
  return [
    { kind: 'deployment', transactionUid, label: `deploy for the ${label}` },
    {
      kind: 'access-verify',
      transactionUid,
      label,
      device: staged.facts.device,
      script: staged.facts.script,
      rule: { uid: staged.ruleUid, text: staged.ruleText },
      removal: removalCommand(staged),
      holder: staged.holder,
    },
  ];
}

/**
 * After a crash while the approved run was being sent: the deploy it started carries the request's id, and
 * the rule its words; both found, the deploy and the verification are followed as if nothing happened.
 * Otherwise nothing is sent again (a half-staged rule is for a person to look at: `/fw changes`).
 */
async function interrupted(ctx: OperationContext, facts: AccessRequestFacts) {
  const run = (await newestDeployRuns(ctx)).find(
    (item) => taggedRequest(item.description) === ctx.requestId && item.transactionUid,
  );
  if (!run?.transactionUid) return undefined;
  const rule = (await rulesOf(ctx, facts.device)).find(
    (r) => r.ruleConfigurationText && sameRuleText(r.ruleConfigurationText, facts.rule),
  );
  if (!rule?.uid) return undefined;
  // A crash between creating the rule and keeping its record: kept now (once per rule).
  await recordRule(ctx, facts, rule.uid, rule.ruleConfigurationText ?? facts.rule);
  const staged: Staged = {
    facts,
    ruleUid: rule.uid,
    ruleText: rule.ruleConfigurationText ?? facts.rule,
    pending: undefined,
    transactionUid: run.transactionUid,
    holder: ctx.requestId,
  };
  const text = `:white_check_mark: The access rule was staged and its deploy sent before fwbot restarted (deployment run ${code(run.uid ?? run.transactionUid)}); nothing was sent again. fwbot follows the deploy and verifies the rule here.`;
  return {
    view: {
      summary: `access request on ${facts.device.name}: deployed before fwbot restarted`,
      blocks: [{ kind: 'text' as const, text }],
      visibility: 'in_channel' as const,
    },
    track: tracksOf(staged),
  };
}

// ---------------------------------------------------------------------------------------------------
// The same access on several ASAs (`--devices <query>`): one card, a request per device.

/** At most this many ASAs in one request; a query that finds more is refused, with how many it found. */
export const MAX_ACCESS_DEVICES = 20;

export const AccessRequestsFacts = z.object({
  /** The device query as typed. */
  query: z.string(),
  /** One request per ASA that needs the rule: each staged, deployed and verified on its own. */
  requests: z.array(AccessRequestFacts).min(1),
  /** Their devices, which approver rules, windows and holds apply to. */
  devices: z.array(Ref),
  /** ASAs the query found that let the traffic through already: nothing is staged on them. */
  allowed: z.array(z.object({ device: z.string(), by: z.string() })),
  /** ASAs the query found that are left out, and why (held, changes not deployed, offline, …). */
  leftOut: z.array(z.object({ device: z.string(), why: z.string() })),
});
export type AccessRequestsFacts = z.infer<typeof AccessRequestsFacts>;

/** One ASA's request (named by `<asa>`), or the same request on several (`--devices`). */
const TargetFacts = z.union([AccessRequestFacts, AccessRequestsFacts]);
type TargetFacts = z.infer<typeof TargetFacts>;

/** The requests of the facts, one per device that gets a rule. */
export function requestsOf(facts: TargetFacts): AccessRequestFacts[] {
  return 'requests' in facts ? facts.requests : [facts];
}

/** The ASAs a device query finds (`name:asa-branch-*`, or text searched in names), the profile's only. */
async function asasMatching(ctx: OperationContext, query: string): Promise<ResolvedDevice[]> {
  const q = allOf(fieldIs('deviceType', 'ASA'), toLucene(query));
  const { data } = await ctx.scc.call('getDevices', {
    query: { q, limit: MAX_ACCESS_DEVICES + 1, offset: 0, sort: ['name:ASC'] },
  });
  const found = (data.items ?? [])
    .filter((device) => deviceKind(device) === 'asa' && device.uid)
    .map((device) => ({ uid: device.uid ?? '', name: device.name, kind: deviceKind(device), device }));
  if (found.length === 0)
    throw new UserError(`No ASA matches \`${query}\` (\`/fw devices ${query}\` lists what it finds).`);
  if (found.length > MAX_ACCESS_DEVICES)
    throw new UserError(
      `\`${query}\` matches ${data.count ?? `more than ${MAX_ACCESS_DEVICES}`} ASAs; one request takes at most ${MAX_ACCESS_DEVICES}. Narrow the query, or ask in several requests.`,
    );
  return found;
}

/**
 * The request on every ASA the query finds: each checked, traced and designed as one request is. A device
 * where the traffic is allowed already is said and gets nothing; one that cannot take the request now
 * (held by other work, changes not deployed, offline, no access group there) is left out, with why. The
 * access policy judges the request, not a device: its refusal refuses the whole request.
 */
async function resolveOnDevices(
  ctx: OperationContext,
  args: RequestArgs,
  query: string,
): Promise<{ facts: AccessRequestsFacts; raw: Record<string, string> }> {
  const found = await asasMatching(ctx, query);
  const requests: AccessRequestFacts[] = [];
  const allowed: AccessRequestsFacts['allowed'] = [];
  const leftOut: AccessRequestsFacts['leftOut'] = [];
  let raw: Record<string, string> | undefined;
  const holds = ctx.services?.holds;
  for (const device of found) {
    const hold = holds ? await holds.heldBy(ctx.profile, [device.uid], ctx.now()) : undefined;
    if (hold) {
      leftOut.push({ device: device.name, why: `held by ${holderWords(hold)}: ${untrusted(hold.reason)}` });
      continue;
    }
    try {
      const one = await requestOn(ctx, args, device);
      requests.push(one.facts);
      raw ??= one.raw;
    } catch (error) {
      if (error instanceof RiskRefused) throw error;
      if (error instanceof AlreadyAllowed) allowed.push({ device: device.name, by: error.by });
      else if (error instanceof UserError) leftOut.push({ device: device.name, why: error.message });
      else throw error;
    }
  }
  const said = [
    ...allowed.map((a) => `${code(a.device)} lets it through already, ${a.by}`),
    ...leftOut.map((l) => `${code(l.device)} is left out: ${l.why}`),
  ];
  if (requests.length === 0 || raw === undefined)
    throw new UserError(
      `Nothing to stage on the ${counted(found.length, 'ASA')} \`${query}\` finds:\n${said.map((line) => `• ${line}`).join('\n')}`,
    );
  const { asa: _asa, in: input, ...common } = raw;
  return {
    facts: {
      query,
      requests,
      devices: requests.map((r) => r.device),
      allowed,
      leftOut,
    },
    // Every device's own interface is found again from the source unless one was named for all.
    raw: {
      ...common,
      devices: query,
      ...(args.in === undefined || input === undefined ? {} : { in: input }),
    },
  };
}

async function rereadAll(ctx: OperationContext, before: TargetFacts): Promise<TargetRead<TargetFacts>> {
  if (!('requests' in before)) return reread(ctx, before);
  const requests: AccessRequestFacts[] = [];
  for (const part of before.requests) {
    const read = await reread(ctx, part);
    if (!read.found) return { found: false, reason: `${part.device.name}: ${read.reason}` };
    requests.push(read.facts);
  }
  return { found: true, facts: { ...before, requests } };
}

function compareAll(before: TargetFacts, after: TargetFacts): string[] {
  const was = requestsOf(before);
  const now = requestsOf(after);
  if (was.length !== now.length) return ['the devices of the request changed'];
  if (!('requests' in before))
    return compareRequests(was[0] ?? before, now[0] ?? (after as AccessRequestFacts));
  return was.flatMap((part, i) => {
    const other = now[i];
    return other ? compareRequests(part, other).map((why) => `${part.device.name}: ${why}`) : [];
  });
}

/** The card of a request on several ASAs: each device's verdict before, design and predicted verdict after. */
export function describeRequests(facts: AccessRequestsFacts, now: number) {
  const [first] = facts.requests;
  if (!first) throw new Error('an access request on several ASAs with none to change');
  const one = describeRequest(first, now);
  const names = facts.requests.map((r) => r.device.name);
  const keep = new Set(['Service', 'Reason', 'Ticket', 'Expires', 'Risk check']);
  const perDevice = facts.requests.map((part) => {
    const objects = [part.source, part.destination]
      .filter((side) => side.how !== 'named')
      .map((side) => `${side.object} (${side.how === 'reused' ? 'reused' : 'new'})`);
    return `• ${code(part.device.name)}: before ${beforeText(part)}; the rule goes at #${part.index} of ${code(part.group.name)} (inbound on ${code(part.input)}${part.inferred ? ', inferred' : ''})${objects.length > 0 ? `; objects ${objects.join(', ')}` : ''}; after (predicted): ALLOW by the new rule at #${part.index + 1}`;
  });
  return {
    action: `let ${code(first.source.typed)} reach ${code(first.destination.typed)} on ${service(first)} through ${counted(names.length, 'ASA')} (access request on ${names.map(code).join(', ')})`,
    line: `access request on ${untrusted(names.join(', '))}: ${untrusted(first.protocol)} ${untrusted(first.source.typed)} → ${untrusted(first.destination.typed)}`,
    fields: [
      { label: 'Devices', value: `${names.join(', ')} (${facts.query})` },
      { label: 'Source', value: first.source.typed },
      { label: 'Destination', value: first.destination.typed },
      ...one.fields.filter((field) => keep.has(field.label)),
      ...(facts.allowed.length > 0
        ? [
            {
              label: 'Allowed already (nothing staged)',
              value: facts.allowed.map((a) => `${a.device}: ${a.by}`).join('; '),
            },
          ]
        : []),
      ...(facts.leftOut.length > 0
        ? [{ label: 'Left out', value: facts.leftOut.map((l) => l.device).join(', ') }]
        : []),
    ],
    warnings: [] as string[],
    code: [
      '! predicted by fwbot; SCC calculates the exact commands once the change is staged, shown before each deploy',
      ...facts.requests.flatMap((part) => [
        `! ${part.device.name} (already staged: nothing)`,
        ...predicted(part),
      ]),
    ].join('\n'),
    notes: [
      `*Each device* (${counted(names.length, 'rule')}, one per ASA):`,
      ...perDevice,
      ...facts.leftOut.map((l) => `• ${code(l.device)} is left out: ${l.why}`),
      `On approval fwbot stages each rule, shows SCC’s calculated commands in this thread, deploys each ASA on its own and runs packet-tracer on it again to verify, saying here for each whether it is verified. Each ASA is locked for other changes until its own verification ends.`,
      ...windowNotes(
        facts.requests.flatMap((part) => part.windows ?? []),
        undefined,
        undefined,
        now,
      ),
    ],
  };
}

/** What the run on several ASAs did: the devices staged and deployed, and those that failed, with why. */
interface StagedMany {
  staged: Staged[];
  failed: { device: string; why: string }[];
}

/**
 * Stages and deploys each ASA on its own (its own deploy, so no deploy carries two devices' changes and
 * each verification follows its own). A device that fails is said, and its hold ends at once; the others
 * go on.
 */
async function stageAndDeployAll(ctx: OperationContext, facts: AccessRequestsFacts): Promise<StagedMany> {
  const staged: Staged[] = [];
  const failed: StagedMany['failed'] = [];
  for (const part of facts.requests) {
    try {
      staged.push(await stageAndDeploy(ctx, part));
    } catch (error) {
      const why =
        error instanceof UserError
          ? error.message
          : error instanceof SccError
            ? error.userMessage()
            : 'an unexpected error (see the logs)';
      ctx.log.warn(
        { err: error, device: part.device.uid },
        'access request not staged on one of its devices',
      );
      failed.push({ device: part.device.name, why });
      try {
        await ctx.services?.holds?.forceRelease(ctx.profile, part.device.uid, ctx.requestId);
      } catch (release) {
        ctx.log.warn({ err: release, device: part.device.uid }, 'device hold not released; it lapses');
      }
    }
  }
  if (staged.length === 0)
    throw new UserError(
      `Nothing was deployed: ${failed.map((f) => `${code(f.device)}: ${f.why}`).join('; ')}`,
    );
  return { staged, failed };
}

function renderStagedMany(result: StagedMany, meta: RenderMeta): View {
  const views = result.staged.map((staged) => renderStaged(staged, meta));
  const [first] = views;
  if (!first) throw new Error('no device was staged');
  const blocks: ViewBlock[] = views.flatMap((view) => view.blocks);
  if (result.failed.length > 0)
    blocks.push({
      kind: 'text',
      text: `:warning: Not staged, nothing deployed there:\n${result.failed.map((f) => `• ${code(f.device)}: ${f.why}`).join('\n')}`,
    });
  return {
    ...first,
    summary: `access request on ${counted(result.staged.length, 'ASA')}: staged and deploying`,
    blocks,
  };
}

/** After a crash on several ASAs: each device's deploy found by the request's id and its device's label. */
async function interruptedAll(ctx: OperationContext, facts: TargetFacts) {
  if (!('requests' in facts)) return interrupted(ctx, facts);
  const runs = (await newestDeployRuns(ctx)).filter(
    (item) => taggedRequest(item.description) === ctx.requestId && item.transactionUid,
  );
  const track: TrackRequest[] = [];
  const lines: string[] = [];
  for (const part of facts.requests) {
    const run = runs.find((item) =>
      (item.description ?? '').includes(`access request on ${part.device.name} `),
    );
    const rule = run
      ? (await rulesOf(ctx, part.device)).find(
          (r) => r.ruleConfigurationText && sameRuleText(r.ruleConfigurationText, part.rule),
        )
      : undefined;
    if (!run?.transactionUid || !rule?.uid) {
      lines.push(
        `• ${code(part.device.name)}: no deploy of this request found; nothing was sent again (\`/fw changes ${part.device.name}\` shows what is staged).`,
      );
      continue;
    }
    await recordRule(ctx, part, rule.uid, rule.ruleConfigurationText ?? part.rule);
    track.push(
      ...tracksOf({
        facts: part,
        ruleUid: rule.uid,
        ruleText: rule.ruleConfigurationText ?? part.rule,
        pending: undefined,
        transactionUid: run.transactionUid,
        holder: ctx.requestId,
      }),
    );
    lines.push(`• ${code(part.device.name)}: deployed before fwbot restarted; followed and verified here.`);
  }
  if (track.length === 0) return undefined;
  return {
    view: {
      summary: `access request on ${counted(facts.requests.length, 'ASA')}: found after fwbot restarted`,
      blocks: [
        {
          kind: 'text' as const,
          text: `:white_check_mark: fwbot restarted while this request ran; nothing was sent again:\n${lines.join('\n')}`,
        },
      ],
      visibility: 'in_channel' as const,
    },
    track,
  };
}

/** The extra approvers of every device's request, each rule once. */
function approversOf(facts: TargetFacts): AccessRequestFacts['risk']['approvers'] {
  const seen = new Set<string>();
  return requestsOf(facts)
    .flatMap((part) => part.risk.approvers)
    .filter((extra) => {
      if (seen.has(extra.rule.key)) return false;
      seen.add(extra.rule.key);
      return true;
    });
}

export const accessRequest = defineOperation({
  id: 'access.request',
  words: ['access', 'request'],
  area: 'policy',
  failure: 'Could not request the access',
  summary:
    'Request access through an ASA: checked with packet-tracer, a rule designed and approved, deployed and verified',
  params: [
    { ...ASA_PARAM, replacedBy: 'devices' },
    { name: 'protocol', kind: 'choice', choices: ACCESS_PROTOCOLS, description: 'tcp, udp, icmp or ip' },
    {
      name: 'source',
      kind: 'word',
      description: 'an IPv4 host, a CIDR, or an existing network object’s name',
    },
    {
      name: 'destination',
      kind: 'word',
      description: 'an IPv4 host, a CIDR, or an existing network object’s name',
    },
    {
      name: 'port',
      kind: 'word',
      optional: true,
      description:
        'the destination port for tcp and udp (443 or https); the ICMP type for icmp (echo by default)',
    },
    {
      name: 'reason',
      kind: 'word',
      flag: true,
      description: 'why the access is needed (in the rule’s remark)',
    },
    {
      name: 'expires',
      kind: 'word',
      flag: true,
      optional: true,
      description:
        'when the access should end: `30d` or a date; the rule is removed then, and the requester reminded 3 days before',
    },
    {
      name: 'in',
      kind: 'word',
      flag: true,
      optional: true,
      description: 'input interface (nameif); by default the one whose connected subnet holds the source',
    },
    {
      name: 'devices',
      kind: 'word',
      flag: true,
      optional: true,
      description: `instead of <asa>: the same access on every ASA a device query finds (\`name:asa-branch-*\`; at most ${MAX_ACCESS_DEVICES})`,
    },
  ],
  args: requestArgs,
  // The *Request access* form: `/fw access request` alone opens it. Its fields are the arguments, checked
  // by the same rules (a mistake is shown under its field, and what was typed stays).
  modal: {
    title: 'Request access',
    submit: 'Check and request',
    when: 'empty',
    fields: [
      {
        name: 'asa',
        label: 'ASA',
        input: 'device',
        optional: true,
        deviceQuery: 'deviceType:ASA',
        hint: 'The firewall the traffic goes through. For several, leave it empty and give a device query below.',
      },
      {
        name: 'devices',
        label: 'Or several ASAs (a device query)',
        input: 'text',
        optional: true,
        placeholder: 'name:asa-branch-*',
        hint: `The same access on every ASA the query finds, at most ${MAX_ACCESS_DEVICES}.`,
      },
      {
        name: 'protocol',
        label: 'Protocol',
        input: 'select',
        options: ACCESS_PROTOCOLS.map((p) => ({ label: p, value: p })),
        initial: 'tcp',
      },
      {
        name: 'source',
        label: 'Source',
        input: 'text',
        placeholder: '198.51.100.0/24',
        hint: 'An IPv4 host, a network in CIDR form, or the name of a network object of the ASA.',
      },
      {
        name: 'destination',
        label: 'Destination',
        input: 'text',
        placeholder: '172.20.41.5',
        hint: 'An IPv4 host, a network in CIDR form, or the name of a network object of the ASA.',
      },
      {
        name: 'port',
        label: 'Port or ICMP type',
        input: 'text',
        optional: true,
        placeholder: '443',
        hint: 'tcp and udp: the destination port (443 or https). icmp: the type (echo by default). ip: none.',
      },
      {
        name: 'reason',
        label: 'Reason',
        input: 'text',
        hint: 'Why the access is needed, at most 200 characters: it goes into the rule’s remark.',
      },
      {
        name: 'expires',
        label: 'Expires',
        input: 'text',
        optional: true,
        placeholder: '30d',
        hint: 'A number of days (30d) or a date (2027-01-31). Empty: a permanent rule.',
      },
      {
        name: 'in',
        label: 'Input interface',
        input: 'text',
        optional: true,
        placeholder: 'outside',
        hint: 'Where the traffic comes in (nameif). Empty: the interface whose connected subnet holds the source.',
      },
    ],
  },
  role: 'operator',
  // It grants access through a firewall: always a second person, who sees the rule and where it goes.
  approval: 'always',
  // The per-device change lock is a device hold, which lives in Redis: not in the CLI.
  needs: ['holds'],
  scc: [
    ...PENDING_READS,
    ...Object.values(INTERFACE_LISTS),
    'listAccessRules',
    'listAccessGroups',
    'fetchAccessRule',
    'getObjects',
    'executeCliCommand',
    'getCliResults',
    'getCliResult',
    'createObject',
    'createTargets',
    'createAccessRule',
    'deployChangesToMultipleAsaDevices',
    'getDeviceDeploymentRuns',
    'getTenantSettings',
    'getChangeRequests',
    'createChangeRequest',
  ],
  examples: [
    'access request asa-dc-03 tcp 198.51.100.0/24 172.20.41.5 8443 --in outside --reason "partner sync"',
    'access request --devices name:asa-* tcp 198.51.100.7 172.20.41.5 8443 --in outside --reason "partner sync"',
  ],
  changes: {
    devices: async (_ctx, _args, facts) => (facts ? requestsOf(facts).map((part) => part.device) : []),
    hold: {
      kind: 'access',
      reason: (facts) =>
        `access request on ${requestsOf(facts)
          .map((part) => part.device.name)
          .join(', ')}`,
    },
  },
  target: {
    facts: TargetFacts,
    resolve: resolveRequest,
    reread: rereadAll,
    compare: compareAll,
    describe: (facts, now) =>
      'requests' in facts ? describeRequests(facts, now) : describeRequest(facts, now),
    interrupted: interruptedAll,
    // A protected destination's own approvers, when the policy asks for them (the card says why).
    approvers: approversOf,
    timing: {
      at: () => undefined,
      breakGlass: () => undefined,
      windows: (ctx, facts) =>
        deployWindows(
          ctx,
          requestsOf(facts).map((part) => part.device),
        ),
    },
  },
  run: (ctx, _args, facts): Promise<Staged | StagedMany> =>
    'requests' in facts ? stageAndDeployAll(ctx, facts) : stageAndDeploy(ctx, facts),
  render: (result, _args, meta) =>
    'staged' in result ? renderStagedMany(result, meta) : renderStaged(result, meta),
  track: (result) => ('staged' in result ? result.staged.flatMap(tracksOf) : tracksOf(result)),
});

export const ACCESS_REQUEST_OPERATIONS: readonly Operation[] = [accessRequest];
