// What a kind of alert is: everything about it, declared once in its own file of this folder with
// defineAlertKind(): its name, what it tells a channel (summary, words), the SCC token roles its reads need,
// which SCC list it reads and how often, what it keeps per subject between scans, how a difference becomes
// findings, and which of them are wrong "right now" for a new subscription. The registry
// (src/alerts/index.ts) lists the kinds; the names, the zod enum, help, the docs, the messages' words and
// the scan's defaults are derived from that list, so a kind missing a piece does not compile. `detect` is
// pure (previous state, the items read, now → new state and findings), so every kind is tested without
// Redis or SCC; the scan (src/jobs/alerts/) does the reading, the routing to channels and the hand-off.
import { z } from 'zod';
import type {
  AuditLog,
  DeploymentRunDto,
  MspSecureClientUpgradeRunDto,
  MspUpgradeRunDto,
  SecureClientUpgradeRunDto,
  UpgradeRunDto,
} from '../../scc/generated/models.js';
import type { AlertAction, AlertPhase, AlertSubject, TokenRole } from '../vocabulary.js';

/**
 * A transition a kind found, before the scan routes it: an AlertEvent without its kind (the scan knows which
 * kind it ran), profile, channels and catch-up flag, with what routing needs (the devices it concerns, for
 * subscriptions with `--devices`).
 */
export interface Finding {
  /** The identity of the transition without the profile: (kind, subject, field, from, to, time). */
  key: string;
  tenant?: { uid: string; name: string };
  subject: AlertSubject;
  incidentKey: string;
  phase: AlertPhase;
  state: string;
  previous?: string;
  headline: string;
  details: string[];
  at: string;
  actions: AlertAction[];
  /** Devices the finding is about (a device's own uid; a run's devices): subscriptions' device sets match on them. */
  deviceUids: string[];
  /** A run across managed tenants: the tenants of its devices (the scan fills them in), for routing. */
  tenants?: { uid: string; name: string }[];
}

/** What every device kind keeps of a device, so a finding can name it when the device is no longer read. */
export const DeviceMemo = z.object({
  name: z.string(),
  tenant: z.object({ uid: z.string(), name: z.string() }).optional(),
});
export type DeviceMemo = z.infer<typeof DeviceMemo>;

export function memoOf(device: WatchedDevice): DeviceMemo {
  return { name: device.name, ...(device.tenant ? { tenant: device.tenant } : {}) };
}

/** One device as the device kinds see it, from getDevices or getMspManagedDevices alike. */
export interface WatchedDevice {
  uid: string;
  name: string;
  /** The managed tenant (MSP reads); absent for the profile's own inventory. */
  tenant?: { uid: string; name: string };
  /** SCC's device type (ASA, CDFMC_MANAGED_FTD…): which buttons can act on it. */
  deviceType?: string;
  connectivityState?: string;
  configState?: string;
  conflictDetectionState?: string;
  failoverMode?: string;
  failoverState?: string;
  mateState?: string;
  certificateExpiryDate?: string;
  raVpnCertificateExpiryDate?: string;
  /** The Secure Device Connector SCC reaches the device through (connectorType SDC). */
  connectorUid?: string;
  /** That connector as SCC reports it now, when the kind's source asks for connectors. */
  connector?: WatchedConnector;
}

/** A Secure Device Connector as the device kinds see it (getSdcs). */
export interface WatchedConnector {
  uid: string;
  name: string;
  /** SCC's status: ACTIVE while it works. */
  status?: string;
  /** When SCC last heard from it (ISO). */
  lastHeartbeat?: string;
}

/**
 * What a read covered. `all`: every subject in the kind's exceptional set was listed, so a tracked subject
 * that is missing is back to normal. A set: only these subjects were read (by uid, the sooner look at
 * open incidents): a tracked one that is missing is no longer in the inventory.
 */
export type Coverage = 'all' | ReadonlySet<string>;

/** Settings the detectors need (src/jobs/schedule.ts `alerts`). */
export interface DetectSettings {
  /** Staged changes left undeployed longer than this are told. */
  stagedAfterMs: number;
}

export interface DetectInput<Item, S> {
  profile: string;
  previous: ReadonlyMap<string, S>;
  items: readonly Item[];
  covers: Coverage;
  now: number;
  settings: DetectSettings;
}

export interface DetectOutput<S> {
  /** The whole new state of the stream, subject → state (what is absent is forgotten). */
  next: Map<string, S>;
  findings: Finding[];
}

/**
 * The SCC lists a kind may read, and what their items are: the scan (src/jobs/alerts/scanReads.ts) reads
 * each and hands the kind the items of its own list, so a kind's `detect` is typed by its `source`.
 */
interface AlertSources {
  /** The device inventory (getDevices, or getMspManagedDevices across tenants) filtered by `q`. */
  devices: {
    source: {
      from: 'devices';
      q: (now: number) => string;
      /**
       * Also the Secure Device Connector each device is reached through (getSdcs, one read for the devices
       * read; a tenant's own inventory only, since SCC lists a tenant's connectors with its own token).
       */
      connectors?: true;
    };
    item: WatchedDevice;
  };
  /** Deployment runs, newest updated first (no list across tenants exists). */
  deploymentRuns: { source: { from: 'deploymentRuns' }; item: DeploymentRunDto };
  /**
   * Upgrade runs: Secure Client's, newest updated first, and the firewall software's (ASA, FTD), newest first
   * (getMspSecureClientUpgradeRuns and getMspDeviceUpgradeRuns across tenants).
   */
  upgradeRuns: {
    source: { from: 'upgradeRuns' };
    item: SecureClientUpgradeRunDto | MspSecureClientUpgradeRunDto | UpgradeRunDto | MspUpgradeRunDto;
  };
  /** The audit log since the last event seen (one tenant's: SCC has none across tenants). */
  auditLogs: { source: { from: 'auditLogs'; q: (sinceIso: string) => string }; item: AuditLog };
}

export type SourceName = keyof AlertSources;
/** The SCC list a kind reads (every list, when F is left open). */
export type AlertSource<F extends SourceName = SourceName> = AlertSources[F]['source'];
/** What one item of a list is. */
export type SourceItem<F extends SourceName = SourceName> = AlertSources[F]['item'];

/**
 * How a kind's incidents and summaries read, each after a count or a subject's name: `*asa-02* went offline`,
 * `212 of 300 devices back online`, `3 certificate warnings, each in the thread`, `Right now: 2 devices offline`.
 */
export interface AlertWords {
  /** What an open incident is: `went offline`. */
  opened: string;
  /** What its end is: `back online`. */
  closed: string;
  /** What a burst's members are: `device` (a plural adds an s). */
  noun: string;
  /** What one of many notices told together is: `certificate warning`. */
  notice: string;
  /** What is already wrong when a channel subscribes, one and many: `device offline`, `devices offline`. */
  now: readonly [one: string, many: string];
}

export interface AlertKindSpec<K extends string, F extends SourceName, S> {
  /** The name channels subscribe with (`/fw alerts subscribe <kind>`), kept in Redis: never renamed. */
  kind: K;
  /** One line for help, `/fw alerts` and the docs: what a channel is told. */
  summary: string;
  /**
   * The SCC token roles of which one is enough to read what this kind scans (getToken at start and on
   * subscribe): a token without any of them is told once, instead of a scan failing every minute.
   */
  tokenRoles: readonly TokenRole[];
  words: AlertWords;
  source: { from: F } & AlertSource<F>;
  /** Whether the kind can be read across an MSP portal's managed tenants. */
  acrossTenants: boolean;
  /** How often its list is read (the default; src/jobs/schedule.ts `alerts.intervals` overrides). */
  intervalMs: number;
  /** Subjects looked at sooner than the interval (devices in an open incident), by uid. */
  sooner?(state: S): boolean;
  /** What it keeps per subject, parsed when read back from Redis. */
  state: z.ZodType<S>;
  detect(input: DetectInput<SourceItem<F>, S>): DetectOutput<S>;
  /**
   * Which findings of a read that starts from nothing (no state kept) are wrong now, rather than history:
   * what a new subscription is told once as "right now" (src/jobs/alerts/baseline.ts). `stillOpen` for a
   * kind of ongoing states, `alreadyOver` for one whose findings are over when told (an ended run, an
   * audit event).
   */
  current(finding: Finding): boolean;
  /**
   * More details for a finding from SCC's change log (who staged, what changed outside SCC): read once per
   * finding that asks for it, never per device per scan.
   */
  explain?: { wants: (finding: Finding) => boolean; details: (entries: readonly ChangeEntry[]) => string[] };
}

/** One event of SCC's change log, as `explain` reads it. */
export interface ChangeEntry {
  date?: string;
  username?: string;
  action?: string;
  description?: string;
  diff?: string;
}

/**
 * A kind, typed from what it declares: its name as a literal (the registry's names come from it), its
 * items from its `source`, its state from its schema. Every piece but `sooner` and `explain` is required.
 */
export function defineAlertKind<const K extends string, F extends SourceName, S>(
  spec: AlertKindSpec<K, F, S>,
): AlertKindSpec<K, F, S> {
  return spec;
}

/** An incident that is open: what a kind of ongoing states tells a new subscription (AlertKindSpec.current). */
export const stillOpen = (finding: Finding): boolean => finding.phase === 'open';

/** Nothing: what such a kind finds is over when it is told (an ended run, an audit event). */
export const alreadyOver = (): boolean => false;

/** Every role of a token that can read the device inventory and the runs (read-only is enough). */
export const ANY_READER: readonly TokenRole[] = [
  'ROLE_READ_ONLY',
  'ROLE_ADMIN',
  'ROLE_SUPER_ADMIN',
  'ROLE_DEPLOY_ONLY',
  'ROLE_EDIT_ONLY',
  'ROLE_OPERATIONAL_ADMIN',
];

/** The scan's time as SCC writes times. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The transition key: every part that makes it this transition and no other. */
export function transitionKey(
  kind: string,
  subject: string,
  field: string,
  from: string | undefined,
  to: string | undefined,
  at: string,
): string {
  return [kind, subject, field, from ?? '-', to ?? '-', at].join('|');
}

/** A device as an event's subject. */
export function deviceSubject(device: Pick<WatchedDevice, 'uid' | 'name'>): AlertSubject {
  return { type: 'device', uid: device.uid, name: device.name || device.uid };
}

/**
 * The difference between what was kept per device and what a read found, for the device kinds: each
 * tracked or seen device once, with its state before (undefined: normal or unknown) and now (undefined:
 * normal; 'gone': no longer in the inventory). Devices not covered by the read keep their state.
 */
export function deviceChanges<S>(
  input: DetectInput<WatchedDevice, S>,
  observe: (device: WatchedDevice, before: S | undefined) => S | undefined,
): {
  next: Map<string, S>;
  changes: { uid: string; before: S | undefined; after: S | undefined | 'gone'; device?: WatchedDevice }[];
} {
  const { previous, items, covers } = input;
  const next = new Map(previous);
  const changes: {
    uid: string;
    before: S | undefined;
    after: S | undefined | 'gone';
    device?: WatchedDevice;
  }[] = [];
  const seen = new Set<string>();
  for (const device of items) {
    if (seen.has(device.uid)) continue;
    seen.add(device.uid);
    const before = previous.get(device.uid);
    const after = observe(device, before);
    if (after === undefined) next.delete(device.uid);
    else next.set(device.uid, after);
    changes.push({ uid: device.uid, before, after, device });
  }
  for (const [uid, before] of previous) {
    if (seen.has(uid)) continue;
    if (covers === 'all') {
      next.delete(uid);
      changes.push({ uid, before, after: undefined });
    } else if (covers.has(uid)) {
      next.delete(uid);
      changes.push({ uid, before, after: 'gone' });
    }
  }
  return { next, changes };
}

/** `connectivity:<profile>:<uid>`: one incident per device and kind within a profile. */
export function incidentKeyOf(kind: string, profile: string, ...parts: string[]): string {
  return [kind, profile, ...parts].join(':');
}

/** A finding about one device: subject, tenant, routing and the key filled in from the device. */
export function deviceFinding(
  kind: string,
  profile: string,
  uid: string,
  memo: DeviceMemo,
  what: {
    field: string;
    phase: AlertPhase;
    state: string;
    previous?: string;
    headline: string;
    details?: string[];
    at: string;
    actions?: AlertAction[];
    /** Defaults to `<kind>:<profile>:<uid>`. */
    incidentKey?: string;
    /** Defaults to `at`: a time SCC gives (a certificate's expiry) makes a repeat the same transition. */
    keyTime?: string;
  },
): Finding {
  return {
    key: transitionKey(kind, uid, what.field, what.previous, what.state, what.keyTime ?? what.at),
    ...(memo.tenant ? { tenant: memo.tenant } : {}),
    subject: deviceSubject({ uid, name: memo.name }),
    incidentKey: what.incidentKey ?? incidentKeyOf(kind, profile, uid),
    phase: what.phase,
    state: what.state,
    ...(what.previous === undefined ? {} : { previous: what.previous }),
    headline: what.headline,
    details: what.details ?? [],
    at: what.at,
    actions: what.actions ?? [],
    deviceUids: [uid],
  };
}
