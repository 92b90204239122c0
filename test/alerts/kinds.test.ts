import { describe, expect, it } from 'vitest';
import { ALERT_KIND_LIST, ALERT_KINDS, type AlertKind, alertKindOf } from '../../src/alerts/index.js';
import { audit } from '../../src/alerts/kinds/audit.js';
import { bandOf, certificates } from '../../src/alerts/kinds/certificates.js';
import { conflict } from '../../src/alerts/kinds/conflict.js';
import { connectivity } from '../../src/alerts/kinds/connectivity.js';
import { deployments } from '../../src/alerts/kinds/deployments.js';
import { ha } from '../../src/alerts/kinds/ha.js';
import {
  type AlertKindSpec,
  type Coverage,
  defineAlertKind,
  type SourceItem,
  type SourceName,
  type WatchedDevice,
} from '../../src/alerts/kinds/kind.js';
import { staged } from '../../src/alerts/kinds/staged.js';
import { upgrades } from '../../src/alerts/kinds/upgrades.js';
import { stripSentinels } from '../../src/render/mrkdwn.js';

const T0 = Date.parse('2026-11-26T10:00:00Z');
const MIN = 60_000;
const DAY = 86_400_000;
const settings = { stagedAfterMs: 4 * 60 * MIN };

/** Runs a kind's detector over a sequence of reads, carrying its state, as the scan does. */
function run<F extends SourceName, S>(kind: AlertKindSpec<string, F, S>) {
  let state = new Map<string, S>();
  return {
    read(items: SourceItem<F>[], now: number, covers: Coverage = 'all') {
      const out = kind.detect({ profile: 'default', previous: state, items, covers, now, settings });
      state = out.next;
      return out.findings.map((f) => ({ ...f, headline: stripSentinels(f.headline) }));
    },
    get state() {
      return state;
    },
  };
}

const device = (name: string, fields: Partial<WatchedDevice> = {}): WatchedDevice => ({
  uid: `uid-${name}`,
  name,
  ...fields,
});

describe('the alert kinds registry', () => {
  it('names every kind once, by the name its own file declares', () => {
    expect(new Set(ALERT_KINDS).size).toBe(ALERT_KIND_LIST.length);
    for (const [index, kind] of ALERT_KINDS.entries()) {
      expect(alertKindOf(kind)).toBe(ALERT_KIND_LIST[index]);
      expect(kind).toMatch(/^[a-z]+$/); // typed after `/fw alerts subscribe`, kept in Redis keys
    }
  });

  it('gives every kind the words its messages and the "right now" summary read in', () => {
    for (const kind of ALERT_KINDS) {
      const { summary, words, tokenRoles } = alertKindOf(kind);
      for (const text of [summary, words.opened, words.closed, words.noun, words.notice, ...words.now])
        expect(text.trim(), kind).not.toBe('');
      expect(tokenRoles.length, kind).toBeGreaterThan(0);
    }
  });

  // What TypeScript holds (`npm run typecheck` fails when one of these lines compiles): a kind is declared
  // whole, its detect takes its own source's items, and only a listed kind's name is an AlertKind.
  it('does not compile a kind missing a piece, nor a name that is not a listed kind', () => {
    const { words: _words, ...withoutWords } = connectivity;
    const { summary: _summary, ...withoutSummary } = connectivity;
    const { tokenRoles: _roles, ...withoutRoles } = connectivity;
    const { current: _current, ...withoutCurrent } = connectivity;
    // @ts-expect-error: a kind without its words
    defineAlertKind(withoutWords);
    // @ts-expect-error: a kind without its summary
    defineAlertKind(withoutSummary);
    // @ts-expect-error: a kind without its token roles
    defineAlertKind(withoutRoles);
    // @ts-expect-error: a kind that does not say what is wrong right now
    defineAlertKind(withoutCurrent);
    // @ts-expect-error: the audit log's items are not devices
    defineAlertKind({ ...connectivity, source: audit.source });
    // @ts-expect-error: only the list's names are kinds
    const offline: AlertKind = 'offline';
    expect(offline).toBe('offline');
  });
});

describe('connectivity', () => {
  it('opens when a device leaves ONLINE, updates on a new state, closes when it is back', () => {
    const scan = run(connectivity);
    expect(scan.read([device('asa-branch-02', { connectivityState: 'UNREACHABLE' })], T0)).toMatchObject([
      {
        phase: 'open',
        state: 'UNREACHABLE',
        previous: 'ONLINE',
        headline: 'asa-branch-02 is UNREACHABLE',
        incidentKey: 'connectivity:default:uid-asa-branch-02',
        subject: { type: 'device', uid: 'uid-asa-branch-02', name: 'asa-branch-02' },
        actions: [],
      },
    ]);
    expect(scan.read([device('asa-branch-02', { connectivityState: 'UNREACHABLE' })], T0 + MIN)).toEqual([]);
    expect(
      scan.read([device('asa-branch-02', { connectivityState: 'BAD_CREDENTIALS' })], T0 + 2 * MIN),
    ).toMatchObject([{ phase: 'update', state: 'BAD_CREDENTIALS', previous: 'UNREACHABLE' }]);
    expect(scan.read([], T0 + 3 * MIN)).toMatchObject([
      { phase: 'close', state: 'ONLINE', previous: 'BAD_CREDENTIALS', headline: 'asa-branch-02 back online' },
    ]);
    expect(scan.state.size).toBe(0);
  });

  it('offers what mends an offline ASA: Reconnect…, or Accept the new certificate… when it presents one', () => {
    const scan = run(connectivity);
    const asa = (state: string, fields: Partial<WatchedDevice> = {}) =>
      device('asa-hq-01', { deviceType: 'ASA', connectivityState: state, ...fields });
    expect(scan.read([asa('UNREACHABLE')], T0)).toMatchObject([
      { phase: 'open', actions: [{ label: 'Reconnect…', command: 'devices reconnect uid-asa-hq-01' }] },
    ]);
    expect(scan.read([asa('NEW_CERT_DETECTED')], T0 + MIN)).toMatchObject([
      {
        phase: 'update',
        actions: [
          { label: 'Accept the new certificate…', command: 'devices accept-certificate uid-asa-hq-01' },
        ],
      },
    ]);
    // An FTD is not reconnected this way; a managed tenant's ASA is not this profile's to act on.
    const other = run(connectivity);
    const found = other.read(
      [
        device('ftd-edge-02', { deviceType: 'CDFMC_MANAGED_FTD', connectivityState: 'UNREACHABLE' }),
        asa('UNREACHABLE', { tenant: { uid: 't-1', name: 'northwind-us' } }),
      ],
      T0,
    );
    expect(found.map((f) => f.actions)).toEqual([[], []]);
  });

  describe('devices behind a Secure Device Connector that is down (issue 38, item 4)', () => {
    const sdc = (status: string, lastHeartbeat = new Date(T0).toISOString()) => ({
      uid: 'sdc-1',
      name: 'sdc-branch',
      status,
      lastHeartbeat,
    });
    const behind = (n: number, connector: ReturnType<typeof sdc>, from = 1) =>
      Array.from({ length: n }, (_, i) =>
        device(`asa-${String(from + i).padStart(2, '0')}`, {
          connectivityState: 'UNREACHABLE',
          connectorUid: 'sdc-1',
          connector,
        }),
      );

    it('is one incident about the connector naming its devices, not one per device', () => {
      const scan = run(connectivity);
      const found = scan.read(behind(12, sdc('INACTIVE')), T0);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        phase: 'open',
        state: 'INACTIVE',
        subject: { type: 'connector', uid: 'sdc-1', name: 'sdc-branch' },
        incidentKey: 'connectivity:default:connector:sdc-1',
        headline: 'Connector sdc-branch is down: 12 devices behind it offline',
        actions: [{ label: 'Show the connectors', command: 'connectors' }],
      });
      expect(found[0]?.deviceUids).toHaveLength(12);
      expect(found[0]?.details.map(stripSentinels).join('\n')).toContain('asa-01, asa-02');

      // One more device goes down behind it: the connector's incident says so; no incident of its own.
      expect(scan.read(behind(13, sdc('INACTIVE')), T0 + MIN)).toMatchObject([
        { phase: 'update', headline: 'Connector sdc-branch is still down: 13 devices behind it offline' },
      ]);
      // Nothing new: nothing told.
      expect(scan.read(behind(13, sdc('INACTIVE')), T0 + 2 * MIN)).toEqual([]);

      // The connector is back and two devices are still offline: those two are told on their own now.
      const back = scan.read(behind(2, sdc('ACTIVE', new Date(T0 + 3 * MIN).toISOString())), T0 + 3 * MIN);
      expect(back.map((f) => `${f.phase} ${f.subject.type} ${f.headline}`).sort()).toEqual([
        'close connector Connector sdc-branch is back',
        'open device asa-01 is UNREACHABLE',
        'open device asa-02 is UNREACHABLE',
      ]);
      // The other eleven came back while their connector's incident told them: nothing to close of theirs.
      expect([...scan.state.keys()].sort()).toEqual(['uid-asa-01', 'uid-asa-02']);
      expect(
        scan
          .read([], T0 + 4 * MIN)
          .map((f) => f.headline)
          .sort(),
      ).toEqual(['asa-01 back online', 'asa-02 back online']);
    });

    it('takes SCC’s status for the connector, not the age of its heartbeat by fwbot’s clock', () => {
      // SCC still says ACTIVE: the devices are told one by one, whatever fwbot's clock makes of the heartbeat.
      const scan = run(connectivity);
      const old = sdc('ACTIVE', new Date(T0 - 60 * MIN).toISOString());
      expect(scan.read(behind(3, old), T0).map((f) => f.subject.type)).toEqual([
        'device',
        'device',
        'device',
      ]);
      const disabled = run(connectivity);
      expect(disabled.read(behind(3, sdc('DISABLED')), T0)).toMatchObject([
        { subject: { type: 'connector' }, state: 'DISABLED' },
      ]);
    });

    it('leaves a device already told on its own as it is when its connector goes down later', () => {
      const scan = run(connectivity);
      expect(scan.read(behind(1, sdc('ACTIVE')), T0)).toMatchObject([{ subject: { type: 'device' } }]);
      const later = scan.read(behind(3, sdc('INACTIVE')), T0 + MIN);
      expect(later).toMatchObject([
        {
          phase: 'open',
          subject: { type: 'connector' },
          headline: 'Connector sdc-branch is down: 2 devices behind it offline',
        },
      ]);
      // Back online: asa-01's own incident closes; the others were the connector's.
      const closed = scan.read([], T0 + 2 * MIN);
      expect(closed.map((f) => f.headline).sort()).toEqual([
        'Connector sdc-branch is back',
        'asa-01 back online',
      ]);
      expect(scan.state.size).toBe(0);
    });

    it('keeps a connector out of the devices read sooner by uid', () => {
      const scan = run(connectivity);
      scan.read(behind(2, sdc('INACTIVE')), T0);
      const sooner = [...scan.state].filter(([, state]) => connectivity.sooner?.(state)).map(([uid]) => uid);
      expect(sooner.sort()).toEqual(['uid-asa-01', 'uid-asa-02']);
      // A read by uid that finds the devices still offline behind the stopped connector keeps it open.
      expect(scan.read(behind(2, sdc('INACTIVE')), T0 + MIN, new Set(sooner))).toEqual([]);
    });
  });

  it('reads by uid: a device missing from the read is no longer in the inventory, others keep their state', () => {
    const scan = run(connectivity);
    scan.read(
      [device('a', { connectivityState: 'UNREACHABLE' }), device('b', { connectivityState: 'UNREACHABLE' })],
      T0,
    );
    const found = scan.read([device('a', { connectivityState: 'ONLINE' })], T0 + MIN, new Set(['uid-a']));
    expect(found).toMatchObject([{ phase: 'close', subject: { name: 'a' }, headline: 'a back online' }]);
    expect([...scan.state.keys()]).toEqual(['uid-b']);
    expect(scan.read([], T0 + 2 * MIN, new Set(['uid-b']))).toMatchObject([
      { phase: 'close', state: 'REMOVED', headline: 'b is no longer in the inventory' },
    ]);
  });

  it('gives each transition its own key, so a flap is two opens, not one repeated', () => {
    const scan = run(connectivity);
    const first = scan.read([device('a', { connectivityState: 'UNREACHABLE' })], T0);
    scan.read([], T0 + MIN);
    const again = scan.read([device('a', { connectivityState: 'UNREACHABLE' })], T0 + 2 * MIN);
    expect(first[0]?.key).not.toBe(again[0]?.key);
    expect(first[0]?.incidentKey).toBe(again[0]?.incidentKey);
  });

  it('keeps a name from SCC inside its own field', () => {
    const scan = run(connectivity);
    const [found] = connectivity.detect({
      profile: 'default',
      previous: new Map(),
      items: [device('*bold* <!here>', { connectivityState: 'UNREACHABLE' })],
      covers: 'all',
      now: T0,
      settings,
    }).findings;
    expect(found?.headline).not.toBe('*bold* <!here> is UNREACHABLE');
    expect(stripSentinels(found?.headline ?? '')).toBe('*bold* <!here> is UNREACHABLE');
    expect(scan.state.size).toBe(0);
  });
});

describe('conflict', () => {
  it('opens with the change-log, pending-commands and accept-the-device buttons, and closes', () => {
    const scan = run(conflict);
    const [opened] = scan.read([device('asa-hq-01', { conflictDetectionState: 'CONFLICT_DETECTED' })], T0);
    expect(opened).toMatchObject({
      phase: 'open',
      headline: 'asa-hq-01 was changed outside SCC (conflict detected)',
    });
    expect(opened?.actions.map((a) => a.command)).toEqual([
      'changelog uid-asa-hq-01',
      'changes uid-asa-hq-01',
      'discard uid-asa-hq-01',
    ]);
    expect(opened?.actions[2]?.label).toBe('Accept the device’s configuration…');
    expect(conflict.explain?.wants(opened as never)).toBe(true);
    expect(scan.read([], T0 + MIN)).toMatchObject([{ phase: 'close', state: 'NO_CONFLICTS' }]);
  });

  it('offers no buttons for a managed tenant’s device (this profile cannot act on it)', () => {
    const scan = run(conflict);
    const tenant = { uid: 't1', name: 'northwind' };
    const [opened] = scan.read(
      [device('nw-asa', { conflictDetectionState: 'CONFLICT_DETECTED', tenant })],
      T0,
    );
    expect(opened).toMatchObject({ tenant, actions: [] });
  });

  it('quotes the change log: when (as every alert writes times), who, what, and the diff', () => {
    const lines = conflict.explain?.details([
      {
        date: '2026-11-26T09:58:00.473Z',
        username: 'eve@example.com',
        action: 'UPDATE',
        description: 'Interface edited',
        diff: '- nameif inside\n+ nameif dmz',
      },
      { date: 'last Tuesday', username: 'bob', action: 'UPDATE' },
    ]);
    expect(lines?.map(stripSentinels)).toEqual([
      'What SCC’s change log says changed:',
      '• 2026-11-26 09:58 UTC eve@example.com update: Interface edited',
      '    - nameif inside',
      '    + nameif dmz',
      // A time that does not read as one is shown as SCC wrote it.
      '• last Tuesday bob update',
    ]);
  });
});

describe('staged', () => {
  it('tells a device left out of sync longer than the set time once, then its return to sync', () => {
    const scan = run(staged);
    const out = device('asa-dc-03', { configState: 'NOT_SYNCED' });
    expect(scan.read([out], T0)).toEqual([]);
    expect(scan.read([out], T0 + 3 * 60 * MIN)).toEqual([]);
    const [told] = scan.read([out], T0 + 4 * 60 * MIN);
    expect(told).toMatchObject({
      phase: 'open',
      headline: 'asa-dc-03 has changes staged and not deployed for 4 hours',
    });
    expect(told?.actions.map((a) => a.command)).toEqual([
      'changes uid-asa-dc-03',
      'deploy uid-asa-dc-03',
      'discard uid-asa-dc-03',
    ]);
    expect(scan.read([out], T0 + 5 * 60 * MIN)).toEqual([]);
    expect(scan.read([], T0 + 6 * 60 * MIN)).toMatchObject([{ phase: 'close', state: 'SYNCED' }]);
  });

  it('says nothing when a device is synced again before the time', () => {
    const scan = run(staged);
    scan.read([device('a', { configState: 'NOT_SYNCED' })], T0);
    expect(scan.read([], T0 + MIN)).toEqual([]);
  });

  it('names who staged, from the change log', () => {
    const lines = staged.explain?.details([
      { username: 'bob@example.com', action: 'UPDATE', description: 'VLAN 30 added' },
      { username: 'bob@example.com', action: 'CREATE' },
    ]);
    expect(stripSentinels(lines?.[0] ?? '')).toBe('Staged by bob@example.com (SCC’s change log):');
  });
});

describe('ha', () => {
  const pair = (unit: string, mate: string) =>
    device('asa-hq-01', { failoverMode: 'ACTIVE_STANDBY', failoverState: unit, mateState: mate });

  it('tells a failover once, and a failed unit as an incident that closes', () => {
    const scan = run(ha);
    expect(scan.read([pair('Primary - Active', 'Secondary - Standby Ready')], T0)).toEqual([]);
    expect(scan.read([pair('Primary - Failed', 'Secondary - Active')], T0 + MIN)).toMatchObject([
      {
        phase: 'notice',
        state: 'Secondary',
        previous: 'Primary',
        headline: 'asa-hq-01 failed over: the secondary unit is now active',
      },
      { phase: 'open', state: 'FAILED', headline: 'asa-hq-01: an HA unit failed' },
    ]);
    expect(scan.read([pair('Primary - Standby Ready', 'Secondary - Active')], T0 + 2 * MIN)).toMatchObject([
      { phase: 'close', state: 'HEALTHY' },
    ]);
  });

  it('tells a pair first seen with a unit already failed as an incident (what a new subscription is told)', () => {
    const scan = run(ha);
    expect(scan.read([pair('Primary - Failed', 'Secondary - Active')], T0)).toMatchObject([
      { phase: 'open', state: 'FAILED', headline: 'asa-hq-01: an HA unit failed' },
    ]);
    // Only what is still open is told to a new subscription: not its end.
    const [closed] = scan.read([], T0 + MIN);
    expect(closed?.phase).toBe('close');
    expect(closed && ha.current?.(closed)).toBe(false);
    // A healthy pair seen for the first time has nothing to tell.
    expect(run(ha).read([pair('Primary - Active', 'Secondary - Standby Ready')], T0)).toEqual([]);
  });

  it('looks sooner only at pairs with a failed unit', () => {
    expect(ha.sooner?.({ name: 'x', failed: true })).toBe(true);
    expect(ha.sooner?.({ name: 'x', failed: false })).toBe(false);
  });
});

describe('certificates', () => {
  it('bands by days left', () => {
    expect(bandOf(new Date(T0 + 40 * DAY).toISOString(), T0)).toBeUndefined();
    expect(bandOf(new Date(T0 + 20 * DAY).toISOString(), T0)).toBe('30 days');
    expect(bandOf(new Date(T0 + 5 * DAY).toISOString(), T0)).toBe('7 days');
    expect(bandOf(new Date(T0 + DAY / 2).toISOString(), T0)).toBe('1 day');
    expect(bandOf(new Date(T0 - 1).toISOString(), T0)).toBe('expired');
  });

  it('tells each threshold once per certificate, and a renewed certificate again', () => {
    const scan = run(certificates);
    const expires = new Date(T0 + 20 * DAY).toISOString();
    const asa = device('asa-hq-01', { raVpnCertificateExpiryDate: expires });
    const told = (now: number, d = asa) => scan.read([d], now).map((f) => `${f.state}: ${f.headline}`);
    expect(told(T0)).toEqual([
      `30 days: asa-hq-01: the Secure Client certificate expires within 30 days (${expires.slice(0, 10)})`,
    ]);
    expect(told(T0 + DAY)).toEqual([]);
    expect(told(T0 + 14 * DAY)).toEqual([expect.stringMatching(/^7 days: /)]);
    expect(told(T0 + 19.5 * DAY)).toEqual([expect.stringMatching(/^1 day: /)]);
    expect(told(T0 + 20 * DAY)).toEqual([expect.stringMatching(/^expired: .*has expired/)]);
    expect(told(T0 + 21 * DAY)).toEqual([]);
    const renewed = device('asa-hq-01', {
      raVpnCertificateExpiryDate: new Date(T0 + 25 * DAY).toISOString(),
    });
    expect(told(T0 + 22 * DAY, renewed)).toEqual([expect.stringMatching(/^7 days: /)]);
  });

  it('keeps the management and the Secure Client certificate apart', () => {
    const scan = run(certificates);
    const soon = new Date(T0 + 3 * DAY).toISOString();
    const found = scan.read(
      [device('a', { certificateExpiryDate: soon, raVpnCertificateExpiryDate: soon })],
      T0,
    );
    expect(found.map((f) => f.incidentKey)).toEqual([
      'certificates:default:uid-a:management',
      'certificates:default:uid-a:secure-client',
    ]);
  });
});

describe('deployments', () => {
  it('tells a run once, when it is first seen ended, with each device’s result', () => {
    const scan = run(deployments);
    const running = {
      uid: 'r1',
      name: 'guest VLAN',
      deploymentRunStatus: 'DEPLOYING',
      deployerUsername: 'eve',
    };
    expect(scan.read([running], T0)).toEqual([]);
    const failed = {
      ...running,
      deploymentRunStatus: 'DEPLOY_FAILED',
      lastUpdatedTime: '2026-11-26T10:01:00Z',
      deviceDeploymentStatuses: [{ uid: 'd1', name: 'asa-hq-01', status: 'ERROR', errorMsg: 'CLI rejected' }],
    };
    const [told] = scan.read([failed], T0 + MIN);
    expect(told).toMatchObject({
      phase: 'notice',
      state: 'DEPLOY_FAILED',
      at: '2026-11-26T10:01:00Z',
      headline: 'Deployment guest VLAN failed (deployed by eve)',
      subject: { type: 'run', uid: 'r1' },
      deviceUids: ['d1'],
    });
    expect(told?.details.map(stripSentinels)).toEqual(['• asa-hq-01: ERROR — CLI rejected']);
    expect(scan.read([failed], T0 + 2 * MIN)).toEqual([]);
  });
});

describe('upgrades', () => {
  it('tells an ended run with the followed runs’ words, and the tenants of a run across tenants', () => {
    const scan = run(upgrades);
    const [told] = scan.read(
      [
        {
          uid: 'u1',
          name: 'msp day',
          upgradeRunStatus: 'DONE_WITH_DEVICE_ERRORS',
          secureClientVersion: '5.1.8.105',
          username: 'eve',
          devices: [{ uid: 'd1', name: 'nw-asa-hq', status: 'FAILED', errorMsg: 'No CLI result' }],
          managedTenantUpgrades: [{ managedTenantUid: 't1', managedTenantDisplayName: 'Northwind' }],
        },
      ],
      T0,
    );
    expect(told?.headline).toBe(
      'VPN client upgrade across tenants *msp day* to Secure Client 5.1.8.105 finished with errors on some devices (started by eve)',
    );
    expect(told?.tenants).toEqual([{ uid: 't1', name: 'Northwind' }]);
    expect(told?.details.map(stripSentinels)).toEqual(['• nw-asa-hq: FAILED — No CLI result']);
  });
});

describe('audit', () => {
  it('tells each user event once, reading on from the newest seen', () => {
    const scan = run(audit);
    const added = {
      uid: 'a1',
      eventType: 'USER_ADDED_TO_TENANT',
      eventTime: '2026-11-26T10:00:00Z',
      username: 'mallory@example.com',
    };
    const login = {
      uid: 'a2',
      eventType: 'USER_LOGGED_IN',
      eventTime: '2026-11-26T10:00:30Z',
      username: 'eve',
    };
    expect(scan.read([added, login], T0).map((f) => f.headline)).toEqual([
      'mallory@example.com was added to the tenant',
    ]);
    const role = {
      uid: 'a3',
      eventType: 'USER_ROLE_CHANGED',
      eventTime: '2026-11-26T10:00:00Z',
      username: 'eve',
      roles: ['ROLE_SUPER_ADMIN'],
    };
    const found = scan.read([added, role], T0 + MIN);
    expect(found).toMatchObject([
      { headline: 'eve had their role changed', details: ['Roles: ROLE_SUPER_ADMIN'] },
    ]);
    expect(scan.read([added, role], T0 + 2 * MIN)).toEqual([]);
    expect(scan.state.get('log')).toEqual({ time: '2026-11-26T10:00:00.000Z', uids: ['a1', 'a3'] });
  });
});
