// The deploy card's lines on who staged what, from its stored facts: fwbot's own changes (the staging
// ledger) and the others as SCC's change log names them; "staged elsewhere" and SCC's answer when the
// change log could not be read; an approval stored before fwbot read the change log reads as before.
import { describe, expect, it } from 'vitest';
import { catalogue } from './harness.js';

const deploy = catalogue.get('deploy');

function notes(device: Record<string, unknown>): string[] {
  const facts = {
    devices: [
      {
        uid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
        name: 'asa-hq-01',
        kind: 'asa',
        pending: { status: 'SUCCESS', commands: ['mtu inside 1400'] },
        ...device,
      },
    ],
    force: false,
    description: null,
  };
  // fwbot's marks around values shown as typed (render/untrusted.ts) are not what is checked here.
  return (deploy?.target?.describe(facts, Date.now()).notes ?? []).map((line) =>
    line.replace(/[\uE000-\uE00F]/g, ''),
  );
}

const other = (n: number) => ({
  username: `user${n}@example.com`,
  at: `2026-11-26T10:${String(n).padStart(2, '0')}:00Z`,
  description: `Modified interface ${n}`,
});

describe('who staged what, on the deploy card', () => {
  it('names the SCC users when fwbot staged none of the changes', () => {
    expect(notes({ stagedBy: [], stagedInScc: { read: true, changes: [other(1)] } })).toEqual([
      '*asa-hq-01*: none of these changes was staged through fwbot; SCC’s change log names:',
      '• `user1@example.com` Modified interface 1 (2026-11-26 10:01 UTC)',
    ]);
  });

  it('says when the change log names no one else', () => {
    expect(notes({ stagedBy: [], stagedInScc: { read: true, changes: [] } })).toEqual([
      '*asa-hq-01*: none of these changes was staged through fwbot, and SCC’s change log names no one else (fwbot’s own SCC user, or changes older than the change log).',
    ]);
  });

  it('keeps "staged elsewhere" and gives SCC’s answer when the change log could not be read', () => {
    const reason = 'SCC refused the request (403 FORBIDDEN): no access';
    expect(notes({ stagedBy: [], stagedInScc: { read: false, reason } })).toEqual([
      `*asa-hq-01*: none of these changes was staged through fwbot (SCC UI, API, or before fwbot remembered it; SCC’s change log could not be read: ${reason}).`,
    ]);
  });

  it('names only what the change log says where fwbot keeps no ledger (the CLI), and nothing when it cannot', () => {
    expect(notes({ stagedInScc: { read: true, changes: [other(2)] } })[0]).toBe(
      '*asa-hq-01*, staged in SCC (its change log names):',
    );
    expect(notes({ stagedInScc: { read: false, reason: 'no answer' } })).toEqual([]);
  });

  it('names ten and counts the rest', () => {
    const lines = notes({
      stagedBy: [],
      stagedInScc: { read: true, changes: Array.from({ length: 13 }, (_, n) => other(n)) },
    });
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('• and 3 more changes in SCC');
  });

  it('reads an approval stored before fwbot read the change log as before', () => {
    expect(notes({ stagedBy: [] })).toEqual([
      '*asa-hq-01*: none of these changes was staged through fwbot (SCC UI, API, or before fwbot remembered it).',
    ]);
  });
});
