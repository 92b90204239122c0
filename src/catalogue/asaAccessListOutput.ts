// What fwbot reads of an ASA's `show access-list <acl>`: each line of the list (`access-list X line N …`)
// with the hit count the device keeps for it, so `/fw access list --hits` can say how often a rule fwbot
// created matched traffic. Real answers are untidy, and each untidy part is read, never guessed at:
// - the header lines (`access-list cached ACL log flows: …`, `access-list X; 6 elements; name hash: 0x…`);
// - a rule written with objects or groups is followed by its expanded elements, indented, each with its
//   own count; with `object-group-search access-control` on, the counted line instead repeats the line
//   number unindented, its objects followed by element counts (`HA_Networks_All(298)`);
// - a line may carry no `(hitcnt=N)` at all (an unresolved fqdn element), `(inactive)` (the `inactive`
//   keyword, or a time-range outside its period, or an element that cannot match), a hash (`0x1b9c9328`),
//   a DNS name in parentheses after an address, trailing spaces;
// - a terminal or a document may wrap a long line: a line that does not start with `access-list` continues
//   the one before it; CRLF, pager prompts and the echoed prompt are dropped.
// A line's count is its own `(hitcnt=N)`; when the device printed none on it, the sum of its elements' (the
// optimisation format counts only there). Lines that are none of these are kept in `unread`.
import { answerLines } from './asaShunOutput.js';

/** An expanded element of a line, or the counted repeat of it (object-group-search on). */
export interface AccessListElement {
  text: string;
  hits: number | undefined;
  inactive: boolean;
}

/** One line of the list, as `access-list X line N` numbers it (remarks count). */
export interface AccessListLine {
  acl: string;
  line: number;
  kind: 'rule' | 'remark';
  /** The line as configured: `access-list X extended permit …`, without `line N`, counters and hash. */
  text: string;
  /** Its own `(hitcnt=N)`, when the device printed one. */
  hits: number | undefined;
  /** `(inactive)`: the device does not match it now (inactive keyword, or a time-range outside its period). */
  inactive: boolean;
  elements: AccessListElement[];
}

export interface ShowAccessList {
  lines: AccessListLine[];
  /** Lines that were neither a list's line nor its header: kept so nothing is silently lost. */
  unread: string[];
}

const HEADER = /^access-list (?:cached ACL log flows:|\S+; \d+ elements)/;
const LINE = /^access-list (\S+) line (\d+) (.*)$/;
const HITS = /\s*\(hitcnt=(\d+)\)/;
const INACTIVE = /\s*\(inactive\)/;
const HASH = /\s+0x[0-9a-f]+$/i;

/** Physical lines joined where a terminal or a document wrapped one; each with whether it was indented. */
function logicalLines(output: string): { text: string; indented: boolean }[] {
  const out: { text: string; indented: boolean }[] = [];
  for (const raw of answerLines(output)) {
    const text = raw.trim();
    const previous = out[out.length - 1];
    // The device's own messages (`% Incomplete command.`, `ERROR: …`) never continue a line.
    const continues = !text.startsWith('access-list') && !/^(?:%|ERROR:|WARNING:)/.test(text);
    if (continues && previous !== undefined) {
      previous.text = `${previous.text} ${text}`;
      continue;
    }
    out.push({ text, indented: /^\s/.test(raw) });
  }
  return out;
}

/** The body of a line without the device's counters and hash: what was configured. */
function body(rest: string): { text: string; hits: number | undefined; inactive: boolean } {
  const counted = HITS.exec(rest);
  const inactive = INACTIVE.test(rest);
  const text = rest.replace(HITS, '').replace(INACTIVE, '').replace(HASH, '').replace(/\s+/g, ' ').trim();
  return { text, hits: counted ? Number(counted[1]) : undefined, inactive };
}

export function parseShowAccessList(output: string): ShowAccessList {
  const lines: AccessListLine[] = [];
  const unread: string[] = [];
  for (const { text, indented } of logicalLines(output)) {
    if (HEADER.test(text)) continue;
    const match = LINE.exec(text);
    if (!match) {
      unread.push(text);
      continue;
    }
    const [, acl = '', number = '', rest = ''] = match;
    const read = body(rest);
    const last = lines[lines.length - 1];
    const same = last !== undefined && last.acl === acl && last.line === Number(number);
    if (same && last.kind === 'rule') {
      // An expanded element (indented), or the counted repeat of the line (object-group-search on).
      last.elements.push({
        text: `access-list ${acl} ${read.text}`,
        hits: read.hits,
        inactive: read.inactive,
      });
      continue;
    }
    if (indented) {
      unread.push(text);
      continue;
    }
    lines.push({
      acl,
      line: Number(number),
      kind: /^remark(\s|$)/.test(read.text) ? 'remark' : 'rule',
      text: `access-list ${acl} ${read.text}`,
      hits: read.hits,
      inactive: read.inactive,
      elements: [],
    });
  }
  return { lines, unread };
}

/** How often the line matched: its own count, else its elements' summed; undefined when none was printed. */
export function hitsOf(line: AccessListLine): number | undefined {
  if (line.hits !== undefined) return line.hits;
  const counted = line.elements.flatMap((element) => (element.hits === undefined ? [] : [element.hits]));
  return counted.length === 0 ? undefined : counted.reduce((sum, hits) => sum + hits, 0);
}

/** A configuration line compared without `line N`, repeated spaces or trailing ones. */
export function plainAccessListLine(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(access-list \S+) line \d+ /, '$1 ');
}

/**
 * The line of the answer that is the rule: at its line number when the text agrees, else the line with its
 * text anywhere in the list (a rule that moved since SCC numbered it); undefined when the device has none.
 */
export function findRuleLine(
  answer: ShowAccessList,
  rule: { index: number; text: string },
): AccessListLine | undefined {
  const wanted = plainAccessListLine(rule.text);
  const rules = answer.lines.filter((line) => line.kind === 'rule');
  const same = (line: AccessListLine) => plainAccessListLine(line.text) === wanted;
  return rules.find((line) => line.line === rule.index && same(line)) ?? rules.find(same);
}
