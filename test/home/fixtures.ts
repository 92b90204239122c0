// Home data as the sources would read it: approval records, followed work, watches, open incidents and
// commands, at a
// fixed time, for the golden files and the limit tests.
import type { OpenIncident } from '../../src/alerts/model.js';
import type { ApprovalRecord } from '../../src/approvals/record.js';
import type { FollowedWork, HomeData, RecentCommand } from '../../src/home/model.js';

export const NOW = Date.parse('2025-06-02T09:30:00Z');
export const ME = 'U0APPROVER1';
export const OPERATOR = 'U0OPERATOR1';
export const CHANNEL = 'C0OPS000001';

export function approval(
  n: number,
  requesterId = OPERATOR,
  state: ApprovalRecord['state'] = 'pending',
): ApprovalRecord {
  return {
    request: {
      id: `ap-${String(n).padStart(4, '0')}`,
      operationId: 'interfaces.delete',
      raw: { device: 'asa-hq-01', interface: `guest${n}` },
      profile: 'default',
      requesterId,
      channelId: CHANNEL,
      commandText: `/fw interfaces delete asa-hq-01 guest${n}`,
      createdAt: NOW - 10 * 60_000,
      expiresAt: NOW + (50 + n) * 60_000,
      role: 'operator',
      target: {
        facts: {},
        description: {
          action: `delete interface \`guest${n}\` (GigabitEthernet1/${n}) on \`asa-hq-01\``,
          line: `asa-hq-01 guest${n}`,
          fields: [{ label: 'Device', value: 'asa-hq-01' }],
          warnings: [],
        },
      },
    },
    state,
    attempts: 0,
  };
}

export function work(n: number, extra: Partial<FollowedWork> = {}): FollowedWork {
  return {
    trackId: `transaction~default~tx-${n}`,
    kind: 'transaction',
    label: `Deploy to asa-branch-${n}`,
    profile: 'default',
    channelId: CHANNEL,
    since: NOW - n * 60_000,
    state: 'running',
    status: 'last seen IN_PROGRESS',
    ...extra,
  };
}

export function incident(n: number, extra: Partial<OpenIncident> = {}): OpenIncident {
  return {
    id: `inc${String(n).padStart(5, '0')}`,
    channelId: CHANNEL,
    kind: 'connectivity',
    profile: 'default',
    subject: { type: 'device', uid: `dev-${n}`, name: `asa-branch-${n}` },
    headline: `*asa-branch-${n}* is UNREACHABLE`,
    openedAt: new Date(NOW - n * 60_000).toISOString(),
    flaps: 0,
    ts: `1748856${String(n).padStart(3, '0')}.000100`,
    ...extra,
  };
}

export function command(n: number, extra: Partial<RecentCommand> = {}): RecentCommand {
  return {
    at: NOW - n * 60_000,
    text: `/fw tenants list page ${n}`,
    outcome: 'ran',
    detail: `${n} tenants`,
    ...extra,
  };
}

/** A Home with a little of everything, as a person would see it on a busy morning. */
export function typicalHome(): HomeData {
  return {
    userId: ME,
    now: NOW,
    toDecide: [approval(1), approval(2)],
    myRequests: [approval(7, ME)],
    followed: [
      work(1),
      work(2, {
        kind: 'upgradeRun',
        label: 'VPN client upgrade to 5.1.2 on 12 devices',
        state: 'succeeded',
        status: 'ended: 12 of 12 devices upgraded',
        trackId: 'upgradeRun~default~tx-2',
      }),
      work(3, {
        kind: 'staged',
        label: 'staged changes on asa-hq-01',
        device: 'asa-hq-01',
        trackId: 'staged~default~dev-1_1',
        status: undefined,
      }),
      work(4, {
        kind: 'deployment',
        label: 'Deployment to asa-hq-01',
        state: 'failed',
        status: 'it failed: FAILED',
      }),
    ],
    watches: [{ channelId: CHANNEL, profile: 'default', createdBy: OPERATOR }],
    incidents: [
      incident(12, { flaps: 2, acknowledgedBy: OPERATOR }),
      incident(3, {
        kind: 'conflict',
        headline: '*asa-hq-01* was changed outside SCC',
        subject: { type: 'device', uid: 'dev-hq', name: 'asa-hq-01' },
        ts: undefined,
      }),
    ],
    recent: [
      command(1),
      command(2, {
        text: '/fw interfaces delete asa-hq-01 guest7',
        outcome: 'approval',
        detail: 'request ap-0007',
      }),
      command(3, {
        text: '/fw tenants remove acme',
        outcome: 'refused',
        detail: 'You need the operator role here.',
      }),
      command(4, { text: '/fw devices nosuch', outcome: 'failed', detail: 'No device “nosuch”.' }),
    ],
  };
}

/** Far more of everything than a Home shows. */
export function crowdedHome(count = 60): HomeData {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  return {
    userId: ME,
    now: NOW,
    toDecide: range(count).map((n) => approval(n)),
    myRequests: range(count).map((n) => approval(100 + n, ME)),
    followed: [
      ...range(count).map((n) => work(n)),
      ...range(count).map((n) =>
        work(200 + n, {
          kind: 'staged',
          device: `asa-${n}`,
          trackId: `staged~default~d${n}`,
          status: undefined,
        }),
      ),
    ],
    watches: range(count).map((n) => ({
      channelId: `C0WATCH${String(n).padStart(4, '0')}`,
      profile: `profile-${n}`,
      createdBy: OPERATOR,
    })),
    incidents: range(count).map((n) => incident(n)),
    recent: range(10).map((n) => command(n, { text: `/fw ${'x'.repeat(400)}`, detail: 'y'.repeat(400) })),
  };
}
