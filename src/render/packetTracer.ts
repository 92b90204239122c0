// Reads an ASA's packet-tracer output into a verdict: the phases (type, subtype, result, the configuration
// lines that decided each, the additional information), the final Result block (input and output
// interface, action, drop reason), and what people ask of it: allowed or dropped, which phase decided,
// which access-list line matched (or the implicit rule), and the NAT applied. A pure function over text:
// the ASA's own format, tolerant of the lines newer releases add (elapsed times, flow ids) and of output
// cut short, which gives no action rather than a wrong one.

export interface TracePhase {
  /** The phase's number as printed (`Phase: 3`). */
  number: number;
  type: string;
  subtype: string;
  /** `ALLOW`, `DROP`, … as printed, upper-cased. */
  result: string;
  /** The configuration lines under `Config:`, as printed (nested lines keep their leading space). */
  config: string[];
  /** The lines under `Additional Information:`, trimmed. */
  info: string[];
}

/** The access-list line that decided, from the ACCESS-LIST phase's configuration. */
export interface MatchedAccessList {
  /** `access-list outside_access_in extended permit tcp any object WEB-01 eq https`; undefined when implicit. */
  line?: string;
  /** The access list's name (from the line, or from the access-group line for the implicit rule). */
  acl?: string;
  /** `access-group outside_access_in in interface outside`, when printed. */
  group?: string;
  /** The implicit deny at the end of every access list (or the implicit permit by security level). */
  implicit: boolean;
}

export interface TraceVerdict {
  phases: TracePhase[];
  /** From the final `Action:`; undefined when the output has none (cut short, or not packet-tracer). */
  action?: 'allow' | 'drop';
  inputInterface?: string;
  outputInterface?: string;
  /** `(acl-drop) Flow is denied by configured rule`, without the drop location. */
  dropReason?: string;
  /** The phase that decided: the first that dropped, else the access-list phase that allowed. */
  deciding?: TracePhase;
  accessList?: MatchedAccessList;
  /** NAT applied: the `Untranslate …` / `Translate …` lines, in phase order. */
  nat: string[];
}

const FIELD = /^([A-Za-z][A-Za-z -]*):\s?(.*)$/;

function emptyPhase(number: number): TracePhase {
  return { number, type: '', subtype: '', result: '', config: [], info: [] };
}

export function parsePacketTracer(output: string): TraceVerdict {
  const phases: TracePhase[] = [];
  const final = new Map<string, string>();
  let phase: TracePhase | undefined;
  let section: 'fields' | 'config' | 'info' | 'result' = 'fields';
  for (const rawLine of output.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+$/, '');
    const trimmed = line.trim();
    const phaseStart = /^Phase:\s*(\d+)$/.exec(trimmed);
    if (phaseStart) {
      phase = emptyPhase(Number(phaseStart[1]));
      phases.push(phase);
      section = 'fields';
      continue;
    }
    // The final block opens with `Result:` alone; a phase's own result has a value on the same line.
    if (trimmed === 'Result:') {
      phase = undefined;
      section = 'result';
      continue;
    }
    if (section === 'result') {
      const field = FIELD.exec(trimmed);
      if (field?.[1] && field[2] !== undefined) final.set(field[1].toLowerCase(), field[2].trim());
      continue;
    }
    if (!phase) continue;
    if (trimmed === 'Config:') {
      section = 'config';
      continue;
    }
    if (trimmed === 'Additional Information:') {
      section = 'info';
      continue;
    }
    if (section === 'config') {
      if (trimmed !== '') phase.config.push(line);
      continue;
    }
    if (section === 'info') {
      if (trimmed !== '') phase.info.push(trimmed);
      continue;
    }
    const field = FIELD.exec(trimmed);
    if (!field?.[1]) continue;
    const value = (field[2] ?? '').trim();
    const key = field[1].toLowerCase();
    if (key === 'type') phase.type = value.toUpperCase();
    else if (key === 'subtype') phase.subtype = value;
    else if (key === 'result') phase.result = value.toUpperCase();
  }

  const verdict: TraceVerdict = { phases, nat: natLines(phases) };
  const action = final.get('action')?.toLowerCase();
  if (action === 'allow' || action === 'drop') verdict.action = action;
  const input = final.get('input-interface');
  if (input) verdict.inputInterface = input;
  const output_ = final.get('output-interface');
  if (output_) verdict.outputInterface = output_;
  const reason = final.get('drop-reason');
  // Newer releases add `, Drop-location: frame 0x… flow (NA)/NA`: the location is for Cisco's TAC.
  if (reason) verdict.dropReason = reason.replace(/,\s*Drop-location:.*$/i, '').trim();

  const dropped = phases.find((p) => p.result === 'DROP');
  const accessPhase = phases.find((p) => p.type === 'ACCESS-LIST');
  const deciding = dropped ?? (verdict.action === 'allow' ? accessPhase : undefined);
  if (deciding) verdict.deciding = deciding;
  if (deciding?.type === 'ACCESS-LIST') verdict.accessList = matchedAccessList(deciding);
  return verdict;
}

function matchedAccessList(phase: TracePhase): MatchedAccessList {
  const lines = phase.config.map((l) => l.trim());
  const group = lines.find((l) => /^access-group\s/.test(l));
  const line = lines.find((l) => /^access-list\s/.test(l));
  const implicit = line === undefined && lines.some((l) => /^implicit rule$/i.test(l));
  const acl = (line ?? group)?.split(/\s+/)[1];
  return {
    ...(line ? { line } : {}),
    ...(acl ? { acl } : {}),
    ...(group ? { group } : {}),
    implicit: implicit || (line === undefined && phase.subtype === ''),
  };
}

function natLines(phases: readonly TracePhase[]): string[] {
  return phases.flatMap((p) => p.info.filter((line) => /^(?:Untranslate|Translate)\s/.test(line)));
}
