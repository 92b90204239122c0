// The answers of `trace` and `show` as views: the verdict card of a packet-tracer run (allowed or dropped,
// the phase that decided, the access-list line that matched with a button to that rule, the NAT applied,
// the interfaces, the drop reason, and the command that ran, with the device's output after it), the
// question asked when fwbot cannot tell the input interface (one button per interface), and a show
// command's output under the command.

import type { CodePreview, View, ViewBlock } from '../model/view.js';
import { code, counted } from './format.js';
import type { TraceDecision, TracePhase, TraceVerdict } from './packetTracer.js';
import { commandButton } from './paging.js';
import { untrusted } from './untrusted.js';

export interface TraceQuestion {
  kind: 'question';
  device: { uid: string; name: string };
  source: string;
  /** One per nameif of the device, each with the trace's command line and `--in <nameif>`. */
  choices: { nameif: string; commandText: string }[];
}

export interface TraceAnswer {
  kind: 'verdict';
  device: { uid: string; name: string };
  /** The command line sent to the device, exactly. */
  script: string;
  input: string;
  /** The input interface came from the source's connected subnet, not from `--in`. */
  inferred: boolean;
  verdict: TraceVerdict;
  /** The device's output as SCC returned it (bounded by the operation). */
  output: string;
  /** The access rule whose configuration is the matched line, when SCC lists it. */
  rule?: {
    uid: string;
    commandText: string;
    /** Its line in the configuration and its place in its access list (what `/fw rules` shows). */
    configLine?: number | undefined;
    index?: number | undefined;
  };
}

export type TraceResult = TraceQuestion | TraceAnswer;

export interface ShowResult {
  device: { uid: string; name: string };
  script: string;
  output: string;
  /** What a message shows when the output is too long for it: the lines the command is run for. */
  preview?: CodePreview;
  /** What fwbot read in the answer, one sentence (`show shun`: how many addresses are blocked). */
  reading?: string;
}

/** Buttons per actions block: well inside Slack's 25, and a readable row on a phone. */
const BUTTONS_PER_ROW = 10;

export function renderTraceQuestion(question: TraceQuestion): View {
  const device = untrusted(question.device.name);
  const buttons = question.choices.flatMap((choice) => {
    const button = commandButton(choice.nameif, choice.commandText);
    return button ? [button] : [];
  });
  const blocks: ViewBlock[] = [
    {
      kind: 'text',
      text:
        `No connected subnet of *${device}* holds ${code(question.source)}, so fwbot cannot tell which ` +
        'interface the packet comes in on. Which one? (Or add `--in <interface>` to the command.)',
    },
  ];
  for (let start = 0; start < buttons.length; start += BUTTONS_PER_ROW)
    blocks.push({ kind: 'actions', buttons: buttons.slice(start, start + BUTTONS_PER_ROW) });
  if (buttons.length === 0)
    blocks.push({ kind: 'context', text: `${device} lists no interface with a name to trace from.` });
  return {
    summary: `${question.device.name}: which interface does ${question.source} come in on?`,
    blocks,
    visibility: 'ephemeral',
  };
}

/** ` (phase 3, ACCESS-LIST)`; the subtype too where it tells more than the type (`NAT rpf-check`). */
function where(phase: TracePhase | undefined, withSubtype = false, more = ''): string {
  if (!phase) return '';
  const name = [phase.type || 'unnamed', withSubtype ? phase.subtype : ''].filter((p) => p !== '').join(' ');
  return ` (phase ${phase.number}, ${untrusted(name)}${more})`;
}

/** The translation rule a NAT phase names: its `nat (…)` line, else its first configuration line. */
function natRule(phase: TracePhase): string | undefined {
  const lines = phase.config.map((l) => l.trim()).filter((l) => l !== '');
  return lines.find((l) => /^nat\s/.test(l)) ?? lines[0];
}

function decidedBy(answer: TraceAnswer, decision: TraceDecision): string {
  const { verdict } = answer;
  const input = untrusted(verdict.inputInterface ?? answer.input);
  switch (decision.kind) {
    case 'access-list': {
      const named = decision.ruleName ? `, rule ${untrusted(decision.ruleName)}` : '';
      if (decision.line === undefined) {
        const acl = decision.acl ? ` ${code(decision.acl)}` : '';
        return `by an access list${acl}${where(decision.phase)}; the device did not print which line`;
      }
      const rule = answer.rule;
      const place =
        rule?.index !== undefined && decision.acl ? ` (#${rule.index} of ${untrusted(decision.acl)})` : '';
      const at = rule?.configLine !== undefined ? `line ${rule.configLine}${place}, ` : '';
      return `by ${at}${code(decision.line)}${where(decision.phase, false, named)}`;
    }
    case 'implicit-deny': {
      const acl = decision.acl ? ` of access list ${code(decision.acl)}` : '';
      return `by the implicit deny at the end${acl}${where(decision.phase)}: no line of the access list on ${input} permits it`;
    }
    case 'security-levels':
      return `by the interfaces’ security levels: no access-list line took part (no access list applies to it on ${input})`;
    case 'nat': {
      const phase = decision.phase;
      if (!phase) return 'by address translation: no translation rule was found for it';
      const rule = natRule(phase);
      const shown = rule ? `: ${code(rule)}` : '';
      return phase.result === 'DROP'
        ? `by address translation${where(phase, true)}${shown}`
        : `by address translation: the rule of phase ${phase.number}${rule ? `, ${code(rule)},` : ''} found no translation for it`;
    }
    case 'no-route':
      return decision.phase
        ? `: no route to the destination${where(decision.phase)}`
        : ': no route to the destination (the device printed no phase)';
    case 'phase':
      return `at phase ${decision.phase.number}, ${untrusted([decision.phase.type, decision.phase.subtype].filter((p) => p !== '').join(' '))}`;
    case 'drop-reason':
      return verdict.dropReason
        ? `after every phase allowed it, for ${code(verdict.dropReason)}`
        : 'after every phase allowed it';
  }
}

/** Why an answer gives no verdict, in a sentence. */
function noVerdict(device: string, unreadable: TraceVerdict['unreadable']): string {
  if (unreadable === 'xml')
    return `The answer of *${device}* is packet-tracer’s XML form, which fwbot does not read, so it cannot say whether the packet passes. The output is below.`;
  if (unreadable === 'partial')
    return `The answer of *${device}* is not whole (its phases or its final \`Action:\` line are missing or out of order), so fwbot cannot say whether the packet passes. The output is below.`;
  return `The answer of *${device}* has no \`Action:\` line, so fwbot cannot say whether the packet passes. The output is below.`;
}

export function renderTrace(answer: TraceAnswer): View {
  const { verdict } = answer;
  const name = answer.device.name;
  const device = untrusted(name);
  const action = verdict.action?.toUpperCase();
  const blocks: ViewBlock[] = [
    { kind: 'header', text: action ? `${action} on ${name}` : `No verdict from ${name}` },
  ];
  if (action) {
    const how = verdict.decision ? decidedBy(answer, verdict.decision) : '';
    const joined = how === '' || how.startsWith(':') ? how : ` ${how}`;
    blocks.push({ kind: 'text', text: `*${verdict.action === 'allow' ? 'Allowed' : 'Dropped'}*${joined}.` });
  } else {
    blocks.push({ kind: 'text', text: noVerdict(device, verdict.unreadable) });
  }
  const fields = [
    {
      label: 'Input interface',
      value: `${untrusted(verdict.inputInterface ?? answer.input)}${answer.inferred ? ' (its subnet holds the source)' : ''}`,
    },
    { label: 'Output interface', value: verdict.outputInterface ? untrusted(verdict.outputInterface) : '—' },
  ];
  if (verdict.nat.length > 0) fields.push({ label: 'NAT', value: verdict.nat.map(untrusted).join('\n') });
  if (verdict.dropReason) fields.push({ label: 'Drop reason', value: untrusted(verdict.dropReason) });
  blocks.push({ kind: 'fields', fields });
  blocks.push({
    kind: 'context',
    text: `Ran ${code(answer.script)} on ${device} (${counted(verdict.phases.length, 'phase')}).`,
  });
  const show = answer.rule ? commandButton('Show rule', answer.rule.commandText) : undefined;
  if (show) blocks.push({ kind: 'actions', buttons: [show] });
  if (answer.output.trim() !== '')
    blocks.push({ kind: 'code', text: answer.output, filename: 'packet-tracer.txt' });
  const flow = answer.script.replace(/^packet-tracer input /, '');
  return {
    summary: `${name}: ${action ?? 'no verdict'} for ${flow}`,
    blocks,
    visibility: 'ephemeral',
  };
}

export function renderShowOutput(result: ShowResult): View {
  const name = result.device.name;
  const blocks: ViewBlock[] = [{ kind: 'header', text: `${result.script} on ${name}` }];
  if (result.reading !== undefined) blocks.push({ kind: 'text', text: result.reading });
  if (result.output.trim() === '') {
    if (result.reading === undefined)
      blocks.push({ kind: 'text', text: `*${untrusted(name)}* answered with nothing.` });
  } else
    blocks.push({
      kind: 'code',
      text: result.output,
      filename: `${result.script.replace(/[^a-z0-9]+/gi, '-')}.txt`,
      ...(result.preview ? { preview: result.preview } : {}),
    });
  return { summary: `${name}: ${result.script}`, blocks, visibility: 'ephemeral' };
}
