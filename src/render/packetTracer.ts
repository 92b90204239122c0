// Reads an ASA's or FTD's packet-tracer answer into a verdict: the phases (type, subtype, result, the
// configuration lines under each, the additional information), the final Result block (interfaces, action,
// drop reason), and what people ask of it (traceDecision.ts: which phase and which rule decided, and the
// NAT applied). A pure function over text, written against real answers (test/fixtures/packet-tracer/):
// CRLF, trailing spaces, what a pager or a debug session leaves in the text, indented detail, `Elapsed time`
// and `Time Taken` lines, `Drop-location` after the drop reason, FTD's `inside(vrfid:0)`. Anything it cannot
// read whole (the XML variant, a paste cut short or flattened, phases out of order) gives no action, never a
// guess.
import { decide, type TraceDecision, type TracePhase, translations } from './traceDecision.js';

export type { TraceDecision, TracePhase } from './traceDecision.js';

/** Why an answer gives no verdict: not the text form, not whole, or not a packet-tracer answer at all. */
export type Unreadable = 'xml' | 'partial' | 'not-packet-tracer';

export interface TraceVerdict {
  phases: TracePhase[];
  /** From the final `Action:`; undefined when the answer cannot be read whole. */
  action?: 'allow' | 'drop';
  /** Set exactly when there is no action. */
  unreadable?: Unreadable;
  /** As the device names it, without FTD's `(vrfid:N)`; absent from some answers (traffic to the box). */
  inputInterface?: string;
  outputInterface?: string;
  /** `(acl-drop) Flow is denied by configured rule`, without the drop location. */
  dropReason?: string;
  /** What decided, when there is an action. */
  decision?: TraceDecision;
  /** Translations applied (`Untranslate …`, `Static translate …`, `Dynamic translate …`), in phase order. */
  nat: string[];
}

const FIELD = /^([A-Za-z][A-Za-z -]*):\s?(.*)$/;
/** A syslog or debug message printed into the session while the command ran. */
const DEBUG_LINE = /%(?:ASA|FTD|PIX|FWSM)-(?:[a-z]+-)?\d-\d{6}:|^DEBUG\b/i;
const PAGER = /<-+ ?More ?-+>/g;
/** The XML variant (`packet-tracer … xml`): fwbot reads the text form only. */
const XML = /<\/?(?:Phase|result|action|drop-reason)>/i;

/**
 * One line as a terminal shows it: a carriage return inside a line (what a pager's erase leaves) returns to
 * the start, so what follows the last one is what remains; the pager's prompt itself and trailing spaces go.
 */
function screenLine(raw: string): string {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const shown = line.includes('\r') ? line.slice(line.lastIndexOf('\r') + 1) : line;
  return shown.replace(PAGER, '').trimEnd();
}

function emptyPhase(number: number): TracePhase {
  return { number, type: '', subtype: '', result: '', config: [], info: [] };
}

interface Reading {
  phases: TracePhase[];
  /** The final block's fields by lower-cased name; undefined when the block never opened. */
  final?: Map<string, string>;
  /** Something shows the answer is not whole: phases out of order, a phase after the final block. */
  broken: boolean;
}

function read(output: string): Reading {
  const phases: TracePhase[] = [];
  let final: Map<string, string> | undefined;
  let broken = false;
  let phase: TracePhase | undefined;
  let section: 'fields' | 'config' | 'info' = 'fields';
  for (const raw of output.split('\n')) {
    const line = screenLine(raw);
    const trimmed = line.trim();
    if (trimmed === '' || DEBUG_LINE.test(trimmed)) continue;
    const phaseStart = /^Phase:\s*(\d+)$/.exec(trimmed);
    if (phaseStart) {
      const number = Number(phaseStart[1]);
      if (final !== undefined || number !== phases.length + 1) broken = true;
      phase = emptyPhase(number);
      phases.push(phase);
      section = 'fields';
      continue;
    }
    // The final block opens with `Result:` alone; a phase's own result has a value on the same line.
    if (trimmed === 'Result:') {
      if (final !== undefined) broken = true;
      final = new Map();
      phase = undefined;
      continue;
    }
    if (final !== undefined && phase === undefined) {
      const field = FIELD.exec(trimmed);
      const key = field?.[1]?.toLowerCase();
      if (key !== undefined && !final.has(key)) final.set(key, (field?.[2] ?? '').trim());
      continue;
    }
    if (!phase) continue;
    if (trimmed === 'Config:') {
      section = 'config';
      continue;
    }
    // Some releases indent it inside the configuration lines; a few put text after it on the same line.
    if (/^Additional Information:/.test(trimmed)) {
      section = 'info';
      const rest = trimmed.slice('Additional Information:'.length).trim();
      if (rest !== '') phase.info.push(rest);
      continue;
    }
    if (section === 'config') phase.config.push(line);
    else if (section === 'info') phase.info.push(trimmed);
    else readPhaseField(phase, trimmed);
  }
  return { phases, ...(final ? { final } : {}), broken };
}

function readPhaseField(phase: TracePhase, trimmed: string): void {
  const field = FIELD.exec(trimmed);
  const key = field?.[1]?.toLowerCase();
  const value = (field?.[2] ?? '').trim();
  if (key === 'type') phase.type = value.toUpperCase();
  else if (key === 'subtype') phase.subtype = value;
  else if (key === 'result') phase.result = value.toUpperCase();
  // `Elapsed time: 5563 ns` is for Cisco's TAC; a line of its own without a heading (`New flow created …`
  // on releases that print no sections) is the phase's information.
  else if (key === undefined) phase.info.push(trimmed);
}

/** `inside(vrfid:0)` → `inside`: FTD names the virtual router too; people know the interface. */
export function plainInterface(name: string): string {
  return name.replace(/\(vrfid:\d+\)$/i, '').trim();
}

export function parsePacketTracer(output: string): TraceVerdict {
  if (XML.test(output)) return { phases: [], nat: [], unreadable: 'xml' };
  const { phases, final, broken } = read(output);
  const verdict: TraceVerdict = { phases, nat: translations(phases) };
  const action = final?.get('action')?.toLowerCase();
  const whole =
    !broken &&
    (action === 'allow' || action === 'drop') &&
    phases.every((p) => p.type !== '' && p.result !== '') &&
    // An allowed packet passes at least a route lookup: no phase at all is a paste cut short.
    (phases.length > 0 || action === 'drop');
  if (!whole || final === undefined) {
    verdict.unreadable = phases.length > 0 || final !== undefined ? 'partial' : 'not-packet-tracer';
    return verdict;
  }
  verdict.action = action;
  const input = final.get('input-interface');
  if (input) verdict.inputInterface = plainInterface(input);
  const egress = final.get('output-interface');
  if (egress) verdict.outputInterface = plainInterface(egress);
  const reason = final.get('drop-reason');
  // Newer releases add `, Drop-location: frame 0x… flow (NA)/NA`: the location is for Cisco's TAC.
  if (reason) verdict.dropReason = reason.replace(/,\s*Drop-location:.*$/i, '').trim();
  verdict.decision = decide(phases, action, verdict.dropReason);
  return verdict;
}
