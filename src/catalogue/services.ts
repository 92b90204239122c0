// The services behind Redis that a few operations run on, as the ports they see (the approvals service and
// the jobs implement them): the watches of upgrade runs, the audit trail, who staged what on each ASA.
// Absent where fwbot runs without Redis (the CLI): an operation declares what it needs (`needs`). One port
// is not Redis's: the look at the certificate a device presents (src/app/certificateProbe.ts), which every
// surface has, the CLI too.
import type { z } from 'zod';
import type { AccessRecordStore } from '../access/records.js';
import type { AlertService } from '../alerts/model.js';
import type { Role } from '../model/types.js';
import type { DeviceHolds } from './deviceHolds.js';

/** A channel that hears about every VPN client upgrade run that ends (issue 5; an `upgrades` alert since issue 26). */
export interface UpgradeWatch {
  channelId: string;
  profile: string;
  createdBy: string;
  createdAt: string;
  /** The profile is an MSP portal's: the channel hears its runs across managed tenants too. */
  acrossTenants?: boolean;
  /** The workspace it was made in (absent: the home workspace): its announcements are posted there. */
  teamId?: string;
  enterpriseId?: string;
}

export interface WatchRegistry {
  watch(watch: UpgradeWatch): Promise<{ created: boolean }>;
  /**
   * Removes what `watch` made. `stillHeardBy`: ids of other subscriptions of the channel through which it
   * still hears upgrade runs (`/fw alerts subscribe upgrades …`), so the reply can say so.
   */
  unwatch(channelId: string, profile: string): Promise<{ removed: boolean; stillHeardBy?: string[] }>;
  list(profile?: string): Promise<UpgradeWatch[]>;
}

/** One decision or execution in the audit trail. Never holds a secret. */
export interface AuditRecord {
  id: string;
  at: string;
  actor: string;
  action: string;
  operationId: string;
  target: string;
  outcome: string;
  transactionUid?: string;
  approvalId?: string;
  /** The change ticket the call was made under. */
  ticket?: string;
  /** The break-glass reason, when the call was allowed outside its change windows. */
  breakGlass?: string;
}

/**
 * A line timed work writes itself (an access rule removed at its expiry, approved when it was asked for):
 * the approvals' trail (src/approvals/audit.ts) keeps it as it keeps every decision and execution.
 */
export interface AuditLine {
  actor: string;
  action: 'executed' | 'failed';
  operationId: string;
  target: string;
  outcome: string;
  approvalId?: string | undefined;
  transactionUid?: string | undefined;
  ticket?: string | undefined;
}

export interface AuditReader {
  latest(count: number): Promise<AuditRecord[]>;
  /** Writes a line (the approvals' trail does; a reader that cannot write leaves it out). */
  record?(line: AuditLine): Promise<unknown>;
}

/** A change an operation staged on an ASA, as its `stages` declaration describes it. */
export interface StagedChange {
  deviceUid: string;
  /** The interface's hardware name as ASA commands name it (`Vlan20`), to match the pending commands. */
  interfaceName: string;
  /** Its names (`nameif iot`), before and after the change: `mtu iot 1500` is a command of it too. */
  nameifs?: string[];
  /** Completes "@alice …": `deleted VLAN interface iot (Vlan20)`. */
  what: string;
}

/** A staged change as remembered: who made it, when, and who approved it when someone did. */
export interface StagedRecord extends StagedChange {
  at: number;
  actor: string;
  approvedBy?: string;
}

/** A deploy fwbot sent for the device: the changes remembered before it went with it if it succeeded. */
export interface DeployMark {
  at: number;
  /** The request whose id the deploy's description carries (`(fwbot request …)`), to find its run. */
  requestId: string;
}

/**
 * What fwbot staged on each ASA, per profile (src/approvals/staging.ts). SCC does not say who staged a
 * change; this says it for the changes made through fwbot, so a deploy's approver sees whose they are.
 */
export interface StagingLedger {
  record(profile: string, change: StagedRecord): Promise<void>;
  /** A deploy of the device was sent (its outcome is read from SCC when it matters). */
  deploying(profile: string, deviceUid: string, mark: DeployMark): Promise<void>;
  /** Newest first, changes and deploys in the order they happened. */
  list(profile: string, deviceUid: string): Promise<(StagedRecord | (DeployMark & { deploy: true }))[]>;
  /** The staged changes were thrown away (read configuration): none of them is pending any more. */
  forget(profile: string, deviceUid: string): Promise<void>;
}

/** Who started the followed work about an SCC transaction, as the threads that follow it recorded. */
export interface FollowedOrigin {
  /** Who asked for the call that started it (one per thread that follows it). */
  requesters: string[];
  /** Who approved that call; empty when it ran without a second person. */
  approvedBy: string[];
}

/** The followed work fwbot records (src/jobs/subscriptions.ts), read by the transaction it is about. */
export interface FollowedWork {
  /** Undefined when fwbot follows nothing about that transaction (started elsewhere, or long forgotten). */
  startedBy(profile: string, transactionUid: string): Promise<FollowedOrigin | undefined>;
}

/** One running configuration of an ASA as fwbot kept it: before a deploy, after it, or when asked. */
export interface ConfigSnapshot {
  /** Short and per device (`3`): what `/fw config diff <asa> <snapshot>` takes. */
  id: string;
  deviceUid: string;
  /** The device's name when it was kept. */
  device: string;
  at: number;
  /**
   * Kept right before a deploy was sent, or read again after it ended; or the same around a software
   * upgrade (src/catalogue/upgradeProof.ts).
   */
  phase: 'before-deploy' | 'after-deploy' | 'before-upgrade' | 'after-upgrade';
  /** The fwbot request (and approval, when there was one) of the deploy it belongs to. */
  requestId: string;
  approvalId?: string | undefined;
  /** The deploy's transaction, once known (after-deploy snapshots). */
  transactionUid?: string | undefined;
  /** Who asked for the deploy. */
  actor: string;
  /** SCC's `configOnDevice`: the device's running configuration. */
  text: string;
}

/** A snapshot without its text, as `/fw config history` lists it. */
export type ConfigSnapshotEntry = Omit<ConfigSnapshot, 'text'> & { bytes: number };

/**
 * Running configurations kept per profile and device (src/jobs/configSnapshots.ts), each for the policy's
 * `changes.snapshots.retention_days`.
 */
export interface ConfigSnapshots {
  readonly retentionDays: number;
  /** Keeps one and says its id. */
  keep(profile: string, snapshot: Omit<ConfigSnapshot, 'id'>): Promise<string>;
  /** Newest first, within the retention. */
  list(profile: string, deviceUid: string): Promise<ConfigSnapshotEntry[]>;
  /** One, with its text; undefined when there is none of that id (or it is past the retention). */
  get(profile: string, deviceUid: string, id: string): Promise<ConfigSnapshot | undefined>;
}

/** An approved request held until its time (a scheduled deploy), as `/fw deployments scheduled` lists it. */
export interface ScheduledRun {
  /** The approval request's id: what `/fw deployments cancel` takes. */
  id: string;
  profile: string;
  operationId: string;
  /** What runs on what, as the audit trail names it: `deploy to asa-hq-01, asa-branch-02`. */
  what: string;
  commandText: string;
  runAt: number;
  /** When it runs, in words: `Sat 22:00 Europe/Berlin, in 2 days, when the change window opens (…)`. */
  when: string;
  /** Why it waits: the time asked for (`--at`), or its devices' change windows. */
  reason: 'explicit' | 'window';
  requester: string;
  approvers: string[];
  ticket?: string | undefined;
  /** The break-glass reason, when it runs whatever the windows say. */
  breakGlass?: string | undefined;
}

/**
 * Approved requests held until their time (src/approvals/scheduled.ts). Cancelling ends one for good,
 * atomically against the run at its minute; only its requester and its approvers may.
 */
export interface ScheduledRuns {
  /** The profile's held requests, the soonest first. */
  list(profile: string): Promise<ScheduledRun[]>;
  /** Cancels one (a UserError says why not, in a sentence); the card and its thread are told. */
  cancel(id: string, profile: string, userId: string): Promise<ScheduledRun>;
}

/**
 * A thread fwbot speaks in, and who asked there: where followed work is reported (dispatch/ports.ts
 * ThreadRef adds what a Cancel… of it needs) and where an item of timed work speaks.
 */
export interface ThreadPlace {
  channelId: string;
  /** `ts` of the message that started it (the announcement, a card); replies go in its thread. */
  threadTs: string;
  /** Who asked: mentioned where the words mention them. */
  requesterId: string;
  /** The SCC profile of the work. */
  profile: string;
  /** The workspace the thread is in (absent: the home workspace): replies go out with its Slack client. */
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/**
 * A grant to re-check right before the work (the shape of the approvals' RoleCheck): `userId` holds `role`
 * in `channelId`, or is `among` the principals a rule names (approvers scoped to a target).
 */
export interface RoleHolder {
  userId: string;
  role: Role;
  channelId: string;
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  /** An external person (Slack Connect): only the channel's external grants count. */
  external?: boolean | undefined;
  among?: readonly string[] | undefined;
  /** Counted on the customer's side of a request that needs both (see RoleCheck.customerSide). */
  customerSide?: boolean | undefined;
}

/** Someone whose grant is re-checked: one check, or alternatives of which one must still hold. */
export type PersonToCheck = RoleHolder | readonly RoleHolder[];

/**
 * What scheduling needs of a kind's declaration (src/catalogue/timed/kind.ts TimedKindSpec has it, and more):
 * its name, its payload's schema, one item per thing, how lists name it and its devices.
 */
export interface SchedulableKind<S extends z.ZodType> {
  readonly kind: string;
  readonly payload: S;
  id(payload: z.output<S>): string;
  describe(payload: z.output<S>): string;
  devices?(payload: z.output<S>): readonly { uid: string; name: string }[];
}

/** Where an item of timed work stands. */
export type TimedState = 'scheduled' | 'running' | 'done' | 'failed' | 'cancelled';

/** One item of timed work (src/catalogue/timed/), as the store keeps it and lists show it. */
export interface TimedItem {
  /** `<kind>~<profile>~<key>`. */
  id: string;
  kind: string;
  profile: string;
  /** Its kind's id of the thing: one item per thing. */
  key: string;
  /** How lists name it (its kind's `describe`). */
  what: string;
  /** Who it is for. */
  owner: string;
  devices: { uid: string; name: string }[];
  thread?: ThreadPlace | undefined;
  state: TimedState;
  /** When it is (or was last) due. */
  dueAt: number;
  scheduledAt: number;
  /** The last word on it: what happened (done; failed and why; cancelled by whom), or why it waits. */
  summary?: string | undefined;
  finishedAt?: number | undefined;
  /** Times it was claimed, and rounds it ran to an end or an `again`. */
  attempts: number;
  round: number;
  payload: unknown;
}

/** What names an item: its kind, its profile and its kind's id of the thing. */
export interface TimedRef {
  kind: string;
  profile: string;
  key: string;
}

/** What scheduling an item takes besides its kind: where, what, when, for whom, and where it speaks. */
export interface TimedSchedule<P> {
  profile: string;
  payload: P;
  /** When it is due (ms since the epoch, on the deployment's one clock). */
  at: number;
  owner: string;
  thread?: ThreadPlace | undefined;
}

/** Exactly one of a run and a cancel wins: a cancel refused says the state it found. */
export type TimedCancel =
  | { outcome: 'cancelled'; item: TimedItem }
  | { outcome: 'refused'; state: Exclude<TimedState, 'scheduled'> | 'missing'; item?: TimedItem };

export type TimedReschedule =
  | { outcome: 'rescheduled'; item: TimedItem }
  | { outcome: 'refused'; state: Exclude<TimedState, 'scheduled'> | 'missing'; item?: TimedItem };

/** Which items a list shows; every field given must match. */
export interface TimedFilter {
  kind?: string;
  profile?: string;
  owner?: string;
  deviceUid?: string;
}

/**
 * Timed work in Redis (src/jobs/timed/): scheduled once by id, cancelled or moved while it waits, run exactly
 * once by whichever fwbot process is alive when it is due, and remembered for a while once it ended.
 */
export interface TimedWork {
  /**
   * Schedules an item; one per thing: while an item of the same kind, profile and id waits or runs, this
   * changes nothing (`scheduled: false`, and the item as it is). A payload its kind's schema refuses throws.
   */
  schedule<S extends z.ZodType>(
    kind: SchedulableKind<S>,
    item: TimedSchedule<z.input<S>>,
  ): Promise<{ scheduled: boolean; item: TimedItem }>;
  /** Withdraws a waiting item; atomic against its claim, so exactly one of "ran" and "cancelled" wins. */
  cancel(ref: TimedRef, by: string, reason?: string): Promise<TimedCancel>;
  /** Moves a waiting item to another time (later: extends it); refused once it runs or ended. */
  reschedule(ref: TimedRef, at: number): Promise<TimedReschedule>;
  /**
   * The item learns the thread it speaks in: the announcement of the call that scheduled it, known only once
   * that is posted (Outcome.timed). Kept while it waits or runs and has none yet; true when it took it.
   */
  speakIn(ref: TimedRef, thread: ThreadPlace): Promise<boolean>;
  get(ref: TimedRef): Promise<TimedItem | undefined>;
  /** Items waiting or running, the soonest due first. */
  list(filter?: TimedFilter): Promise<TimedItem[]>;
  /** Items that ended (done, failed, cancelled) within the retention, the latest first. */
  history(filter?: TimedFilter): Promise<TimedItem[]>;
}

/** The certificate a device presented in a TLS handshake, as fwbot read it (nothing of it is trusted). */
export interface PresentedCertificate {
  /** SHA-256 of the certificate's DER, colon-separated upper-case hex: what `show crypto ca certificates` compares to. */
  sha256: string;
  /** Distinguished names, one `KEY=value` per line as node:crypto writes them. */
  subject: string;
  issuer: string;
  /** ISO dates. */
  validFrom: string;
  validTo: string;
  /** Signed by its own key: an ASA's own certificate, not one a certificate authority issued. */
  selfSigned: boolean;
}

/** A look at a device's certificate: the one it presented, or why fwbot could not see one, in a sentence. */
export type CertificateLook = { seen: PresentedCertificate } | { unreachable: string };

/**
 * Looks at the certificate a device presents at its management address (`host:port`, SCC's `address`): a TLS
 * handshake and nothing else, no data sent, the certificate taken whatever it is (src/app/certificateProbe.ts).
 */
export interface CertificateProbe {
  presented(address: string): Promise<CertificateLook>;
}

/** The Redis-backed services an operation may need (absent where fwbot runs without Redis: the CLI). */
export type ServiceName = keyof OperationServices;

/** Each service in words, for the sentence that refuses a command its process lacks the service of. */
export const SERVICE_WORDS: Readonly<Record<ServiceName, string>> = Object.freeze({
  watches: 'the channels’ watches',
  alerts: 'the alert subscriptions and incidents',
  audit: 'the audit trail',
  staging: 'the record of staged changes',
  followed: 'the record of followed work',
  snapshots: 'the kept running configurations',
  scheduled: 'the approved requests held until their time',
  timed: 'fwbot’s timed work (what ends a shun when its time is up)',
  holds: 'the device holds',
  certificates: 'a look at the certificates devices present',
  accessRecords: 'the records of the access rules fwbot created',
});

export interface OperationServices {
  watches?: WatchRegistry;
  /** Alert subscriptions and the incident desk (src/jobs/alerts/). */
  alerts?: AlertService;
  audit?: AuditReader;
  staging?: StagingLedger;
  /** Who started followed work (a Cancel… button's cancel is four-eyes only where that work was). */
  followed?: FollowedWork;
  /** Running configurations kept before and after deploys (`/fw config history`, `/fw config diff`). */
  snapshots?: ConfigSnapshots;
  /** Approved requests held until their time (`/fw deployments scheduled`, `/fw deployments cancel`). */
  scheduled?: ScheduledRuns;
  /** Work due later, run once by whichever process is alive then (src/catalogue/timed/). */
  timed?: TimedWork;
  /** Devices held for a change in progress (src/catalogue/deviceHolds.ts): `/fw holds`, and every call's check. */
  holds?: DeviceHolds;
  /** A look at the certificate a device presents (`/fw devices accept-certificate`); not Redis's, so never in `needs`. */
  certificates?: CertificateProbe;
  /** The access rules fwbot created (`/fw access list`, revoke, expiry, recertification). */
  accessRecords?: AccessRecordStore;
}
