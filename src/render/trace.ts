// The answers of `trace` and `show` as views: the verdict card of a packet-tracer run (allowed or dropped,
// the phase that decided, the access-list line that matched with a button to that rule, the NAT applied,
// the interfaces, the drop reason, and the command that ran, with the device's output after it), the
// question asked when fwbot cannot tell the input interface (one button per interface), and a show
// command's output under the command.

import type { View, ViewBlock } from '../model/view.js';
import { code, counted } from './format.js';
import type { TraceVerdict } from './packetTracer.js';
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

function decidedBy(answer: TraceAnswer): string {
  const { verdict } = answer;
  const phase = verdict.deciding;
  const where = phase ? ` (phase ${phase.number}, ${untrusted(phase.type || 'unnamed')})` : '';
  const list = verdict.accessList;
  if (list?.line) {
    const rule = answer.rule;
    const place = rule?.index !== undefined && list.acl ? ` (#${rule.index} of ${untrusted(list.acl)})` : '';
    const at = rule?.configLine !== undefined ? `line ${rule.configLine}${place}, ` : '';
    return `by ${at}${code(list.line)}${where}`;
  }
  if (list?.implicit) {
    const acl = list.acl ? ` of access list ${code(list.acl)}` : '';
    const input = untrusted(verdict.inputInterface ?? answer.input);
    return verdict.action === 'drop'
      ? `by the implicit deny at the end${acl}${where}: no line of the access list on ${input} permits it`
      : `by the implicit rule${acl}${where}`;
  }
  return phase ? `at phase ${phase.number}, ${untrusted(phase.type || 'unnamed')}` : '';
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
    const how = decidedBy(answer);
    blocks.push({
      kind: 'text',
      text: `*${verdict.action === 'allow' ? 'Allowed' : 'Dropped'}*${how ? ` ${how}` : ''}.`,
    });
  } else {
    blocks.push({
      kind: 'text',
      text:
        `The answer of *${device}* has no \`Action:\` line, so fwbot cannot say whether the packet passes. ` +
        'The output is below.',
    });
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
  if (result.output.trim() === '')
    blocks.push({ kind: 'text', text: `*${untrusted(name)}* answered with nothing.` });
  else
    blocks.push({
      kind: 'code',
      text: result.output,
      filename: `${result.script.replace(/[^a-z0-9]+/gi, '-')}.txt`,
    });
  return { summary: `${name}: ${result.script}`, blocks, visibility: 'ephemeral' };
}
