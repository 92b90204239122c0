// `show access-list <acl>`: the line is built only from a list name that passed its grammar, and what fwbot
// reads of the answer (each line's hit count) is held to real devices' answers kept in test/fixtures/show/,
// each with its source URL in its header: the expanded elements of object-group rules, the repeated counted
// lines of object-group-search, unresolved fqdn elements without a count, `(inactive)`, remarks, the header
// lines, lines wrapped by a page or a book, CRLF.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRuleLine, hitsOf, parseShowAccessList } from '../../src/catalogue/asaAccessListOutput.js';
import { parseAccessListName, scriptOf, TEMPLATES } from '../../src/catalogue/asaCommands.js';

/** A real device's answer kept in test/fixtures/show/, without its `# ` header. */
function answer(name: string): string {
  const text = readFileSync(join(import.meta.dirname, '../fixtures/show', name), 'utf8');
  return text.slice(text.indexOf('# ---\n') + 6);
}

function acl(raw: string) {
  const checked = parseAccessListName(raw);
  if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
  return checked.value;
}

describe('the show access-list template', () => {
  it('writes the line for a list name that passed its grammar', () => {
    expect(scriptOf({ kind: 'access-list', acl: acl('outside_access_in') })).toBe(
      'show access-list outside_access_in',
    );
    expect(TEMPLATES['show access-list']?.test('show access-list access-global-in')).toBe(true);
  });

  it('refuses list names that would carry anything else to the device', () => {
    for (const hostile of [
      'outside_access_in | include 10.',
      'x\nclear configure all',
      'acl;reload',
      '',
      'é',
    ]) {
      expect(parseAccessListName(hostile).ok).toBe(false);
    }
    expect(parseAccessListName('a'.repeat(65)).ok).toBe(false);
  });
});

describe('reading show access-list', () => {
  it('reads each line’s own count, remarks apart, elements under their line (ntc-templates capture)', () => {
    const read = parseShowAccessList(answer('show-access-list-ntc-fqdn-inactive.txt'));
    expect(read.unread).toEqual([]);
    expect(read.lines.map((line) => [line.line, line.kind])).toEqual([
      [1, 'rule'],
      [2, 'rule'],
      [3, 'rule'],
      [4, 'rule'],
      [12, 'rule'],
      [15, 'remark'],
      [16, 'rule'],
    ]);
    const [first, second, third, fourth] = read.lines;
    // `inactive` keyword: printed with (hitcnt=0) (inactive); the text keeps the keyword, not the markers.
    expect(first?.inactive).toBe(true);
    expect(first?.text).toBe(
      'access-list test extended permit ah any4 interface outside log informational interval 300 inactive',
    );
    expect(second?.text).toBe(
      'access-list test extended deny udp host 10.10.10.11 host 10.10.12.12 eq dnsix',
    );
    expect(hitsOf(second ?? fail())).toBe(0);
    // An unresolved fqdn element carries no count, only (inactive).
    expect(third?.elements).toEqual([
      {
        text: 'access-list test extended permit icmp fqdn test.com (unresolved) host 10.1.1.2 echo-reply 4 log informational interval 300',
        hits: undefined,
        inactive: true,
      },
    ]);
    expect(fourth?.elements.map((e) => e.hits)).toEqual([0, undefined, 0]);
    expect(read.lines[5]?.text).toBe('access-list test remark explicit-deny');
  });

  it('takes the line’s own count, not its elements’ (ntc-templates capture with real counts)', () => {
    const read = parseShowAccessList(answer('show-access-list-ntc-hits.txt'));
    expect(read.unread).toEqual([]);
    expect(read.lines.map((line) => hitsOf(line))).toEqual([30, 11389, 234]);
    expect(read.lines[2]?.elements.map((e) => e.hits)).toEqual([654453, 43234]);
    // A DNS name in parentheses after an address stays part of the element's text.
    expect(read.lines[0]?.elements[0]?.text).toContain('host 10.1.1.1 (test.net) eq 8883');
  });

  it('counts the repeated line of object-group-search, joining the lines the page wrapped', () => {
    const read = parseShowAccessList(answer('show-access-list-acl-optimisation.txt'));
    expect(read.unread).toEqual([]);
    expect(read.lines.map((line) => [line.line, line.hits, hitsOf(line)])).toEqual([
      [5, undefined, 324165],
      [7, undefined, 2133314],
    ]);
    expect(read.lines[0]?.text).toBe(
      'access-list access-global-in extended deny ip object-group HA_Networks_All any log informational interval 300',
    );
  });

  it('skips the header lines, joins a wrapped ACE, reads CRLF (Cisco Press example)', () => {
    const read = parseShowAccessList(answer('show-access-list-cisco-press-elements.txt'));
    expect(read.unread).toEqual([]);
    expect(read.lines.map((line) => [line.kind, line.text])).toEqual([
      ['remark', 'access-list outside_in remark ACL to block inbound traffic on the outside'],
      ['rule', 'access-list outside_in extended permit tcp any object-group DMZ_Web_Servers eq www'],
    ]);
    // The book's excerpt stops before the counts: none is made up.
    expect(hitsOf(read.lines[1] ?? fail())).toBeUndefined();
  });

  it('keeps what it cannot read, and finds a rule by its line and text', () => {
    const read = parseShowAccessList(
      'access-list inside_access_in line 2 extended permit tcp any host 10.9.9.9 eq https (hitcnt=7) 0x1\n' +
        '% Incomplete command.\n' +
        'asa-hq-01# show access-list inside_access_in\n',
    );
    expect(read.unread).toEqual(['% Incomplete command.']);
    const text = 'access-list inside_access_in line 2 extended permit tcp any host 10.9.9.9 eq https';
    expect(findRuleLine(read, { index: 2, text })?.hits).toBe(7);
    expect(findRuleLine(read, { index: 9, text })?.hits).toBe(7);
    expect(findRuleLine(read, { index: 2, text: `${text} log` })).toBeUndefined();
  });
});

function fail(): never {
  throw new Error('missing');
}
