// The incident desk's messages as golden files (the View, its text, and for summaries the Block Kit with its
// native table, within Slack's limits): an incident open, acknowledged and flapping, closed with its
// duration; a notice; a burst summary as its members come back; a catch-up summary; a thread reply. Values
// from SCC stay values (untrusted()), whatever they hold.
import { describe, expect, it } from 'vitest';
import {
  duration,
  type IncidentMessage,
  renderCatchUpReply,
  renderIncident,
  renderSummary,
  renderSummaryPage,
  renderTransitionReply,
  type SummaryMember,
  summaryPageCount,
} from '../../src/alerts/render.js';
import { renderBlocks } from '../../src/render/blocks.js';
import { untrusted } from '../../src/render/untrusted.js';
import { expectGolden } from '../render/golden.js';
import { assertWithinSlackLimits } from '../slack/support/blockLimits.js';

const OPENED = '2026-11-26T14:02:00Z';

function incident(extra: Partial<IncidentMessage> = {}): IncidentMessage {
  return {
    id: 'k3v9x2mq',
    kind: 'connectivity',
    profile: 'prod',
    tenant: { uid: 't-1', name: 'contoso-eu' },
    subject: { type: 'device', uid: 'dev-uid-02', name: 'asa-branch-02' },
    headline: '*asa-branch-02* is UNREACHABLE',
    details: ['connectivityState: ONLINE → UNREACHABLE'],
    state: 'UNREACHABLE',
    open: true,
    notice: false,
    openedAt: OPENED,
    flaps: 0,
    actions: [{ label: 'Pending commands', command: 'changes asa-branch-02' }],
    ...extra,
  };
}

function members(total: number, closed: number): SummaryMember[] {
  return Array.from({ length: total }, (_, i) => ({
    subject: { type: 'device' as const, uid: `uid-${i}`, name: `asa-${String(i).padStart(3, '0')}` },
    state: i >= closed ? 'UNREACHABLE' : 'ONLINE',
    tenant: `tenant-${i % 7}`,
    open: i >= closed,
    since: OPENED,
  }));
}

describe('incident desk messages', () => {
  it('an open incident: headline, facts, Acknowledge, Mute 1 h/8 h/24 h and the event’s buttons', () => {
    expectGolden('desk.incident-open', renderIncident(incident()));
  });

  it('an acknowledged incident that flapped says who, when and how often, and offers no Acknowledge', () => {
    const view = renderIncident(
      incident({ flaps: 3, acknowledged: { userId: 'U0ALICE0001', at: '2026-11-26T14:05:00Z' } }),
    );
    expectGolden('desk.incident-acknowledged', view);
    expect(JSON.stringify(view)).not.toContain('alerts ack');
  });

  it('a closed incident says how long it lasted, and has no buttons left', () => {
    const view = renderIncident(
      incident({
        open: false,
        closedAt: '2026-11-26T14:14:00Z',
        state: 'ONLINE',
        headline: '*asa-branch-02* is ONLINE again',
      }),
    );
    expectGolden('desk.incident-closed', view);
    expect(view.summary).toBe('asa-branch-02 back online after 12 min');
    expect(view.blocks.some((block) => block.kind === 'actions')).toBe(false);
  });

  it('a notice: told once, already over, still with its buttons', () => {
    expectGolden(
      'desk.notice',
      renderIncident(
        incident({
          kind: 'audit',
          subject: { type: 'user', uid: 'u-1', name: 'mallory@example.com' },
          headline: '*mallory@example.com* was made super-admin of *contoso-eu*',
          state: 'ROLE_SUPER_ADMIN',
          open: false,
          notice: true,
          actions: [],
        }),
      ),
    );
  });

  it('a burst of 300: one summary whose native table shows what is still open first', () => {
    const view = renderSummary({
      id: 'b0rst001',
      type: 'burst',
      kind: 'connectivity',
      profile: 'prod',
      openedAt: OPENED,
      open: true,
      members: members(300, 212),
    });
    expectGolden('desk.burst', view);
    expect(view.summary).toBe('212 of 300 devices back online, 88 still open');
    const message = renderBlocks(view);
    assertWithinSlackLimits(message, 'message');
  });

  it('a burst of 300: the rows past the summary’s 100 are pages of 100 in its thread, in the same order', () => {
    const burst = {
      id: 'b0rst001',
      type: 'burst' as const,
      kind: 'connectivity' as const,
      profile: 'prod',
      openedAt: OPENED,
      open: true,
      members: members(300, 212),
    };
    expect(summaryPageCount(burst)).toBe(3);
    const summary = JSON.stringify(renderSummary(burst));
    expect(summary).toContain('The first 100 of 300; the other 200 are in the thread (100 a message).');
    const last = renderSummaryPage(burst, 3);
    expectGolden('desk.burst.page3', last);
    expect(last.summary).toBe('Devices 201–300 of 300');
    assertWithinSlackLimits(renderBlocks(last), 'message');
    // Every member is in exactly one of the three messages.
    const rows = [renderSummary(burst), renderSummaryPage(burst, 2), last].flatMap((view) =>
      view.blocks.flatMap((block) => (block.kind === 'table' ? block.rows.map((row) => row[0]) : [])),
    );
    expect(new Set(rows).size).toBe(300);
    expect(rows).toHaveLength(300);
  });

  it('a catch-up summary counts what happened while fwbot could not watch', () => {
    expectGolden(
      'desk.catch-up',
      renderSummary({
        id: 'c4tchup1',
        type: 'catch-up',
        kind: 'connectivity',
        profile: 'prod',
        openedAt: OPENED,
        open: true,
        members: members(12, 0).slice(0, 12),
        counts: { opened: 12, closed: 3, other: 1 },
        since: OPENED,
      }),
    );
  });

  it('notices of one kind too many to post one by one: one summary, over from the start', () => {
    const view = renderSummary({
      id: 'n0tices1',
      type: 'notices',
      kind: 'audit',
      profile: 'prod',
      openedAt: OPENED,
      closedAt: OPENED,
      open: false,
      members: Array.from({ length: 12 }, (_, i) => ({
        subject: { type: 'user' as const, uid: `u-${i}`, name: `user${i}@example.com` },
        state: 'ROLE_ADMIN',
        tenant: 'contoso-eu',
        open: false,
        since: OPENED,
      })),
    });
    expectGolden('desk.notices', view);
    expect(view.summary).toBe('12 audit events, each in the thread');
  });

  it('thread replies carry the transition’s details, and a long catch-up list says how many more', () => {
    expectGolden(
      'desk.reply',
      renderTransitionReply({
        phase: 'update',
        headline: '*asa-branch-02* is BAD_CREDENTIALS',
        details: ['connectivityState: UNREACHABLE → BAD_CREDENTIALS'],
        at: '2026-11-26T14:03:00Z',
      }),
    );
    const lines = Array.from({ length: 45 }, (_, i) => `line ${i}`);
    const text = JSON.stringify(renderCatchUpReply(lines));
    expect(text).toContain('… and 5 more');
  });

  it('shows an SCC name that holds markup as the characters it holds', () => {
    const name = '<!channel> *evil*\u202E';
    const view = renderIncident(
      incident({
        subject: { type: 'device', uid: 'dev-x', name },
        headline: `${untrusted(name)} is UNREACHABLE`,
      }),
    );
    const text = JSON.stringify(renderBlocks(view).blocks);
    expect(text).not.toContain('<!channel>');
    // Muted by the incident's id, which names the device whatever its name holds.
    expect(text).toMatch(/"alerts mute [a-z0-9]+ 1h"/);
  });

  it('says durations the way people do', () => {
    expect(duration(OPENED, '2026-11-26T14:02:30Z')).toBe('under a minute');
    expect(duration(OPENED, '2026-11-26T14:14:00Z')).toBe('12 min');
    expect(duration(OPENED, '2026-11-26T16:07:00Z')).toBe('2 h 5 min');
    expect(duration(OPENED, '2026-11-29T18:02:00Z')).toBe('3 d 4 h');
  });
});
