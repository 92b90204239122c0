// The hit counts of a simulated ASA's access lists, and `show access-list <acl>` printing them in the ASA's
// shape (the header lines, `access-list X line N …` per line, remarks, a rule written with objects followed
// by its expanded elements indented, `(hitcnt=N)`, `(inactive)` on an inactive rule, a hash per line).
// Counts live in the device's memory, not its configuration: the seeded rules start with a count derived
// from the device and the line (some at 0, a stale rule), a rule added later starts at 0, and every
// `packet-tracer` whose access-list phase a rule decides adds one to it, as on a real ASA.
import { prefixToMask } from './asaAddresses.js';
import type { AsaDeviceView, LineOutcome, Token } from './asaCommandLine.js';
import type { AccessListEntry, AddressOperand, Cidr } from './asaPolicyModel.js';
import { stable } from './asaShowFormat.js';
import type { SimState } from './model.js';

/** A rule's key among its device's counts: its configuration line, spaces collapsed. */
const keyOf = (text: string) => text.trim().replace(/\s+/g, ' ');

/** A seeded rule's count: one in four never hit, the others up to 250 000. */
function seededHits(deviceUid: string, line: string): number {
  return stable(4, deviceUid, line, 'hit?') === 0 ? 0 : 1 + stable(250_000, deviceUid, line, 'hits');
}

/** The counts of every seeded ASA's rules, from the policy lines it was seeded with. */
export function seedAclHits(
  policies: ReadonlyMap<string, readonly string[]>,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [deviceUid, lines] of policies) {
    const counts = new Map<string, number>();
    for (const line of lines)
      if (/^access-list \S+ extended /.test(line)) counts.set(keyOf(line), seededHits(deviceUid, line));
    out.set(deviceUid, counts);
  }
  return out;
}

/** The device's counts (created empty on first use). */
export function aclHitsOf(state: SimState, deviceUid: string): Map<string, number> {
  let counts = state.aclHits.get(deviceUid);
  if (counts === undefined) {
    counts = new Map();
    state.aclHits.set(deviceUid, counts);
  }
  return counts;
}

/** One more hit of the rule (a packet-tracer it decided). */
export function countHit(view: AsaDeviceView, entry: AccessListEntry): void {
  const key = keyOf(entry.text);
  view.hits.set(key, (view.hits.get(key) ?? 0) + 1);
}

const hashOf = (...parts: string[]) =>
  `0x${stable(0xffff_ffff, ...parts)
    .toString(16)
    .padStart(8, '0')}`;

function writtenCidr(cidr: Cidr): string {
  if (cidr.family === 6)
    return cidr.prefix === 128 ? `host ${cidr.address}` : `${cidr.address}/${cidr.prefix}`;
  if (cidr.prefix === 0) return 'any4';
  return cidr.prefix === 32 ? `host ${cidr.address}` : `${cidr.address} ${prefixToMask(cidr.prefix)}`;
}

/** The operand's addresses as an element writes them; the operand as written when it names none. */
function expanded(operand: AddressOperand | undefined): string[] {
  if (operand?.objectName === undefined) return [operand?.written ?? ''];
  return operand.networks.length === 0 ? [operand.written] : operand.networks.map(writtenCidr);
}

/** The elements of a rule written with network objects: each source × destination, as the ASA expands them. */
function elementsOf(entry: AccessListEntry): string[] | undefined {
  if (entry.source?.objectName === undefined && entry.destination?.objectName === undefined) return undefined;
  const after = `access-list ${entry.acl} `;
  const body = entry.text.startsWith(after) ? entry.text.slice(after.length) : entry.text;
  const out: string[] = [];
  for (const source of expanded(entry.source))
    for (const destination of expanded(entry.destination)) {
      let line = body;
      if (entry.source?.objectName !== undefined) line = line.replace(entry.source.written, source);
      if (entry.destination?.objectName !== undefined)
        line = line.replace(entry.destination.written, destination);
      out.push(line);
    }
  return out;
}

function showAccessList(view: AsaDeviceView, acl: string, entries: readonly AccessListEntry[]): string {
  const lines: string[] = [];
  let elements = 0;
  for (const entry of entries) {
    const after = `access-list ${acl} `;
    const body = entry.text.startsWith(after) ? entry.text.slice(after.length) : entry.text;
    const head = `access-list ${acl} line ${entry.line} `;
    if (entry.kind === 'remark') {
      lines.push(`${head}${body}`);
      continue;
    }
    const hits = view.hits.get(keyOf(entry.text)) ?? 0;
    const inactive = entry.inactive ? ' (inactive)' : '';
    lines.push(`${head}${body} (hitcnt=${hits})${inactive} ${hashOf(view.device.device.uid, entry.text)} `);
    const expansion = elementsOf(entry);
    elements += expansion?.length ?? 1;
    // The rule's count is its elements' together: the first element carries it, as one flow's hits would.
    for (const [i, element] of (expansion ?? []).entries())
      lines.push(
        `  ${head}${element} (hitcnt=${i === 0 ? hits : 0})${inactive} ${hashOf(view.device.device.uid, entry.text, element)} `,
      );
  }
  return [
    'access-list cached ACL log flows: total 0, denied 0 (deny-flow-max 4096)',
    '            alert-interval 300',
    `access-list ${acl}; ${elements} elements; name hash: ${hashOf(acl)}`,
    ...lines,
    '',
  ].join('\n');
}

/** The command-line runner for `show access-list <acl>` (one list; an unknown name is invalid input). */
export function runShowAccessList(tokens: Token[], view: AsaDeviceView): LineOutcome | undefined {
  const words = tokens.map((t) => t.text);
  if (words[0] !== 'show' || words[1] !== 'access-list') return undefined;
  const name = tokens[2];
  if (name === undefined || tokens.length > 3) {
    const last = tokens[tokens.length - 1];
    return { invalidAt: tokens[3]?.at ?? (last === undefined ? 0 : last.at + last.text.length + 1) };
  }
  const entries = view.policy.accessLists.get(name.text);
  if (entries === undefined) return { invalidAt: name.at };
  return { output: showAccessList(view, name.text, entries) };
}
