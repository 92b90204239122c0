// `trace` and `show`: the ASA's packet-tracer and a fixed set of read-only show commands, run through SCC's
// command line (`executeCliCommand`, a transaction followed in place, then the result by execution). What
// is sent is built only from the templates in asaCommands.ts and values that passed their grammar
// (traceArgs.ts); the device must be an ASA, online and without undeployed changes (undeployedChanges.ts),
// and an input interface must be one of its own, all before anything is sent. Without `--in`, the input
// interface is the one whose connected subnet holds the source (inputInterface.ts); when none does, the
// answer asks, one button per interface.
import type { SmokeFlow } from '../config/sections/upgrades.js';
import { maskDeviceOutput } from '../model/configSecrets.js';
import { UserError } from '../model/errors.js';
import { code, counted } from '../render/format.js';
import { parsePacketTracer } from '../render/packetTracer.js';
import { renderShowOutput, renderTrace, renderTraceQuestion, type TraceResult } from '../render/trace.js';
import { untrusted } from '../render/untrusted.js';
import type { AccessRule } from '../scc/generated/models.js';
import { escapeLuceneTerm } from '../scc/lucene.js';
import {
  type AsaCommand,
  DEFAULT_SOURCE_PORT,
  type InterfaceName,
  PROTOCOLS,
  pickInterface,
  previewLines,
  SHOW_COMMANDS,
  SHOW_TOPICS,
  type ShowCommand,
  scriptOf,
  sendableInterfaceName,
} from './asaCommands.js';
import { parseShowShun } from './asaShunOutput.js';
import { DEVICE } from './common.js';
import { inferInputInterface } from './inputInterface.js';
import { defineOperation, type Operation, type OperationContext, type Param } from './operation.js';
import {
  boundedPaginate,
  type DeviceRequirement,
  INTERFACE_LISTS,
  listDeviceInterfaces,
  type ResolvedDevice,
  type ResolvedInterface,
  resolveDevice,
} from './resolve.js';
import { type ShowRequest, showArgs, type TraceFlow, traceArgs } from './traceArgs.js';
import { refuseUndeployed, undeployedRefusal } from './undeployedChanges.js';
import { commandText, quoteToken } from './usage.js';

const ASA: DeviceRequirement = { kinds: ['asa'], why: 'packet-tracer and show commands run on ASAs' };

/** packet-tracer takes seconds on a busy ASA; SCC's own command line gives up after a minute and a half. */
const CLI_FOLLOW = { intervalMs: 250, maxIntervalMs: 2_000, maxWaitMs: 90_000 } as const;

/** More of a device's answer than this is not shown (it is read whole for the verdict first). */
const OUTPUT_LIMIT = 20_000;

/**
 * The device's answer as shown: at most OUTPUT_LIMIT characters, cut after the last whole line that fits
 * (within a line only when the first line alone is longer), saying so when it was cut.
 */
export function shownOutput(output: string): string {
  if (output.length <= OUTPUT_LIMIT) return output;
  const length = output.length.toLocaleString('en-US');
  const lineEnd = output.lastIndexOf('\n', OUTPUT_LIMIT);
  const end = lineEnd > 0 ? lineEnd : OUTPUT_LIMIT;
  const where = lineEnd > 0 ? 'cut here' : 'cut within its first line';
  return `${output.slice(0, end).replace(/\r$/, '')}\n… (${where}: the answer is ${length} characters long)`;
}

const DEVICE_READS = ['getDevices', 'getDevice'] as const;
const CLI_CALLS = ['executeCliCommand', 'getTransaction', 'getCliResults', 'getCliResult'] as const;
const INTERFACE_READS = Object.values(INTERFACE_LISTS);

// ---------------------------------------------------------------------------------------------------
// Before anything is sent: the device is an ASA, online, and the input interface is its own.

async function onlineAsa(ctx: OperationContext, typed: string): Promise<ResolvedDevice> {
  const found = await resolveDevice(ctx.scc, typed, ASA);
  const state = found.device.connectivityState ?? 'UNKNOWN';
  if (state !== 'ONLINE') throw new UserError(`${found.name} is ${state}: fwbot sends nothing to it.`);
  // SCC would refuse the command line of a device with undeployed changes: said now, nothing sent.
  refuseUndeployed(found);
  return found;
}

/** The device's interfaces that have a nameif fwbot could send, by nameif. */
function namedInterfaces(all: readonly ResolvedInterface[]): ResolvedInterface[] {
  return all.filter((i) => typeof i.iface.name === 'string' && sendableInterfaceName(i.iface.name));
}

function nameifsOf(all: readonly ResolvedInterface[]): string[] {
  return namedInterfaces(all)
    .map((i) => i.iface.name ?? '')
    .sort((a, b) => a.localeCompare(b));
}

function unknownInterface(device: ResolvedDevice, typed: string, known: readonly string[]): UserError {
  const shown = known.slice(0, 20).join(', ');
  return new UserError(
    `in: ${device.name} has no interface named “${typed}”. Its interfaces: ${shown || 'none with a name'}.`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Running one command line: the transaction, followed in place, then the device's result.

async function runScript(
  ctx: OperationContext,
  device: ResolvedDevice,
  command: AsaCommand,
): Promise<string> {
  return runCliLine(ctx, device, scriptOf(command));
}

/**
 * Runs one line built by asaCommands.ts (scriptOf or shunScriptOf, never text a person typed) on one ASA
 * and returns its answer; SCC's refusal of a device with undeployed changes is said as that sentence.
 */
export async function runCliLine(
  ctx: Pick<OperationContext, 'scc' | 'signal'>,
  device: { uid: string; name: string },
  script: string,
): Promise<string> {
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  const transaction = await ctx.scc.lookups
    .executeCli({ deviceUids: [device.uid], script }, signal)
    .catch((error: unknown) => {
      throw undeployedRefusal(error, device);
    });
  if (!transaction.transactionUid)
    throw new UserError(`SCC accepted \`${script}\` for ${device.name} but gave no transaction to follow.`);
  const ended = await ctx.scc.transactions.follow(transaction.transactionUid, { ...CLI_FOLLOW, ...signal });
  if (ended.cdoTransactionStatus !== 'DONE') {
    const said = ended.errorMessage ? `: ${ended.errorMessage}` : '';
    throw new UserError(
      `SCC could not run \`${script}\` on ${device.name} (${ended.cdoTransactionStatus ?? 'UNKNOWN'}${said}).`,
    );
  }
  const executionUid = ended.entityUid ?? '';
  const page = await ctx.scc.lookups.cliResults(
    { q: `executionUid:${escapeLuceneTerm(executionUid)}` },
    signal,
  );
  const listed = (page.items ?? []).find((item) => item.deviceUid === device.uid);
  // A list may leave the output out of its items (a large answer): then the result is read on its own.
  const result =
    listed && listed.result == null && listed.errorMsg == null
      ? await ctx.scc.lookups.cliResult(listed.uid, signal)
      : listed;
  if (!result)
    throw new UserError(
      `SCC ran \`${script}\` on ${device.name} but has no result for it (execution ${executionUid}).`,
    );
  if (result.errorMsg) throw new UserError(`${device.name} could not run \`${script}\`: ${result.errorMsg}`);
  return result.result ?? '';
}

/** Whitespace-insensitive, and without the `line N` SCC's copy of a rule may carry. */
function ruleText(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(access-list \S+) line \d+ /, '$1 ');
}

/** The access rule whose configuration is `line`, to link the card to it; none when SCC does not say. */
async function matchingRule(
  ctx: OperationContext,
  device: ResolvedDevice,
  line: string,
): Promise<AccessRule | undefined> {
  try {
    const rules: AccessRule[] = await boundedPaginate(
      ctx.scc,
      'listAccessRules',
      { query: { q: `entityUid:${escapeLuceneTerm(device.uid)}` } },
      `access rules of ${device.name}`,
    );
    const wanted = ruleText(line);
    return rules.find(
      (rule) => rule.ruleConfigurationText && ruleText(rule.ruleConfigurationText) === wanted,
    );
  } catch (error) {
    // The verdict stands without the link: the card says the line as the device printed it.
    ctx.log.warn({ err: error, deviceUid: device.uid }, 'access rules not read for a trace');
    return undefined;
  }
}

/** packet-tracer's template filled with a flow's validated values (a trace's, a smoke trace's) and its input. */
export function commandFor(flow: SmokeFlow, input: InterfaceName): AsaCommand {
  const { source, destination } = flow;
  if (flow.protocol === 'icmp')
    return { kind: 'packet-tracer', input, protocol: 'icmp', source, icmpType: flow.icmpType, destination };
  return {
    kind: 'packet-tracer',
    input,
    protocol: flow.protocol,
    source,
    sourcePort: flow.sourcePort ?? DEFAULT_SOURCE_PORT,
    destination,
    destinationPort: flow.port,
  };
}

const TRACE_PARAMS: readonly Param[] = [
  DEVICE,
  { name: 'protocol', kind: 'choice', choices: PROTOCOLS, description: 'tcp, udp or icmp' },
  { name: 'source', kind: 'word', description: 'source IP address (IPv4 or IPv6)' },
  {
    name: 'destination',
    kind: 'word',
    description:
      'destination IP address; a source port, when given, goes before it: <source> <source-port> <destination> <port>',
  },
  {
    name: 'port',
    kind: 'word',
    description: 'destination port (1–65535 or a name such as https), or for icmp the ICMP type (8 or echo)',
  },
  {
    name: 'final-port',
    kind: 'word',
    optional: true,
    hidden: true,
    description: 'the destination port, when a source port is given',
  },
  {
    name: 'in',
    kind: 'word',
    flag: true,
    optional: true,
    description: 'input interface (nameif); by default the one whose connected subnet holds the source',
  },
];

/** The trace again as a command line, from the validated values, with `--in` (the question's buttons). */
function traceWith(device: ResolvedDevice, flow: TraceFlow, nameif: string): string {
  const target =
    flow.protocol === 'icmp'
      ? { destination: flow.destination, port: String(flow.icmpType) }
      : flow.sourcePort === undefined
        ? { destination: flow.destination, port: String(flow.port) }
        : { destination: String(flow.sourcePort), port: flow.destination, 'final-port': String(flow.port) };
  return commandText(
    { words: ['trace'], params: TRACE_PARAMS },
    { device: device.name, protocol: flow.protocol, source: flow.source, ...target, in: nameif },
  );
}

/** The input interface: `--in` from the device's own list, else the connected subnet that holds the source. */
async function inputInterface(
  ctx: OperationContext,
  device: ResolvedDevice,
  flow: TraceFlow,
): Promise<{ input: InterfaceName; inferred: boolean } | { nameifs: string[] }> {
  const interfaces = await listDeviceInterfaces(ctx.scc, device.uid);
  const nameifs = nameifsOf(interfaces);
  if (flow.in !== undefined) {
    const input = pickInterface(flow.in, nameifs);
    if (!input) throw unknownInterface(device, flow.in, nameifs);
    return { input, inferred: false };
  }
  const found = inferInputInterface(
    flow.source,
    namedInterfaces(interfaces).map((i) => i.iface),
  );
  const input = found === undefined ? undefined : pickInterface(found, nameifs);
  return input ? { input, inferred: true } : { nameifs };
}

export const traceOperation = defineOperation({
  id: 'trace',
  words: ['trace'],
  area: 'policy',
  summary: 'Trace a packet through an ASA (packet-tracer): allowed or dropped, and by which rule',
  failure: 'Could not trace the packet on the ASA',
  params: TRACE_PARAMS,
  args: traceArgs,
  role: 'viewer',
  approval: 'never',
  scc: [...DEVICE_READS, ...INTERFACE_READS, ...CLI_CALLS, 'listAccessRules'],
  examples: [
    'trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside',
    'trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 https',
    'trace asa-hq-01 udp 10.1.100.25 51000 8.8.8.8 53',
    'trace asa-hq-01 icmp 10.1.100.25 8.8.8.8 echo',
  ],
  // The question's buttons run it again with `--in`.
  offeredAsButton: true,
  async run(ctx, flow): Promise<TraceResult> {
    const device = await onlineAsa(ctx, flow.device);
    const who = { uid: device.uid, name: device.name };
    const found = await inputInterface(ctx, device, flow);
    if ('nameifs' in found) {
      return {
        kind: 'question',
        device: who,
        source: flow.source,
        choices: found.nameifs.map((nameif) => ({ nameif, commandText: traceWith(device, flow, nameif) })),
      };
    }
    const command = commandFor(flow, found.input);
    const output = await runScript(ctx, device, command);
    const verdict = parsePacketTracer(output);
    const decision = verdict.decision;
    const line = decision?.kind === 'access-list' ? decision.line : undefined;
    const rule = line ? await matchingRule(ctx, device, line) : undefined;
    return {
      kind: 'verdict',
      device: who,
      script: scriptOf(command),
      input: found.input,
      inferred: found.inferred,
      verdict,
      output: shownOutput(output),
      ...(rule
        ? {
            rule: {
              uid: rule.uid,
              // The line people see in `/fw rules` (design of issue 27); the UUID when SCC gives no line.
              commandText: `rules show ${quoteToken(device.name)} ${rule.ruleConfigurationLineNumber ?? rule.uid}`,
              configLine: rule.ruleConfigurationLineNumber ?? undefined,
              index: rule.index,
            },
          }
        : {}),
    };
  },
  render: (result) => (result.kind === 'question' ? renderTraceQuestion(result) : renderTrace(result)),
});

/** `show interface`: the name as the device spells it, a nameif or a hardware name of its own. */
async function showInterfaceName(
  ctx: OperationContext,
  device: ResolvedDevice,
  typed: string,
): Promise<InterfaceName> {
  const interfaces = await listDeviceInterfaces(ctx.scc, device.uid);
  const names = interfaces
    .flatMap((i) => [i.iface.name, i.iface.hardwareName])
    .filter((n): n is string => !!n);
  const name = pickInterface(typed, names);
  if (name) return name;
  throw new UserError(
    `target: ${device.name} has no interface named “${typed}” (by name or hardware name). Its interfaces: ` +
      `${nameifsOf(interfaces).slice(0, 20).join(', ') || 'none with a name'}.`,
  );
}

async function showCommand(
  ctx: OperationContext,
  device: ResolvedDevice,
  request: ShowRequest,
): Promise<ShowCommand> {
  switch (request.topic) {
    case 'route':
    case 'conn':
    case 'xlate':
      return { kind: 'show', topic: request.topic, address: request.address };
    case 'interface':
      return { kind: 'show', topic: 'interface', name: await showInterfaceName(ctx, device, request.name) };
    case 'failover':
    case 'version':
    case 'shun':
      return { kind: 'show', topic: request.topic };
  }
}

/** What `show shun` says, as a sentence: the addresses blocked now, and that a reload or failover loses them. */
function shunReading(device: string, output: string): string {
  const { shuns, unread } = parseShowShun(output);
  const sources = [...new Set(shuns.map((s) => s.source))];
  const unreadNote = unread.length > 0 ? ` (${counted(unread.length, 'line')} fwbot could not read)` : '';
  if (sources.length === 0) return `*${untrusted(device)}* blocks no address with a shun${unreadNote}.`;
  return `*${untrusted(device)}* blocks ${counted(sources.length, 'address', 'addresses')} with a shun: ${sources.map((a) => code(a)).join(', ')}${unreadNote}. Shuns are lost on a reload or a failover.`;
}

export const showOperation = defineOperation({
  id: 'show',
  words: ['show'],
  area: 'policy',
  summary: 'Run a read-only show command on an ASA: route, conn, xlate, failover, interface, version or shun',
  failure: 'Could not run the show command on the ASA',
  params: [
    DEVICE,
    { name: 'topic', kind: 'choice', choices: SHOW_TOPICS, description: 'what to show' },
    {
      name: 'target',
      kind: 'word',
      optional: true,
      description: 'an IP address (route: IPv4; conn, xlate: IPv4 or IPv6) or an interface name (interface)',
    },
  ],
  args: showArgs,
  role: 'viewer',
  approval: 'never',
  scc: [...DEVICE_READS, ...INTERFACE_READS, ...CLI_CALLS],
  examples: [
    'show asa-hq-01 route 8.8.8.8',
    'show asa-hq-01 conn 10.1.100.25',
    'show asa-hq-01 xlate 172.16.0.10',
    'show asa-hq-01 interface outside',
    'show asa-hq-01 failover',
    'show asa-hq-01 version',
    'show asa-hq-01 shun',
  ],
  async run(ctx, request) {
    const device = await onlineAsa(ctx, request.device);
    const command = await showCommand(ctx, device, request);
    // Masked before anything is kept or shown: the private answer, the shared one and the file alike.
    const serialNumbers = ctx.policy?.deviceOutput?.serialNumbers === 'shown';
    const output = shownOutput(maskDeviceOutput(await runScript(ctx, device, command), { serialNumbers }));
    const lines = previewLines(command.topic, output);
    return {
      device: { uid: device.uid, name: device.name },
      script: scriptOf(command),
      output,
      ...(command.topic === 'shun' ? { reading: shunReading(device.name, output) } : {}),
      ...(lines.length > 0 ? { preview: { lines, what: SHOW_COMMANDS[command.topic].preview.what } } : {}),
    };
  },
  render: (result) => renderShowOutput(result),
});

export const TRACE_OPERATIONS: readonly Operation[] = [traceOperation, showOperation];
