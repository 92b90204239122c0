// The approvals service: wires the store, the audit trail, the gate, the decisions and the executor
// together, and exposes the decisions to whatever delivers the cards (Slack's listeners in
// src/slack/actions/approvals.ts, the console's numbered buttons). Everything that must survive a restart is in Redis; the only timer here
// (startSweeper) merely triggers passes over what Redis holds, so any number of processes may run it.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { AccessRecordStore } from '../access/records.js';
import type { DeviceHolds } from '../catalogue/deviceHolds.js';
import type {
  AuditReader,
  CertificateProbe,
  ConfigSnapshots,
  Operation,
  ScheduledRuns,
  StagingLedger,
  TimedWork,
} from '../catalogue/operation.js';
import type { ChangeSettings, UpgradeSettings } from '../config/profilesFileSchema.js';
import type { AccessRequestPolicy } from '../config/sections/access.js';
import type {
  ApprovalGate,
  AuditEntry,
  AuditSink,
  OperationQueue,
  SccClients,
  Tracker,
} from '../dispatch/ports.js';
import type { RevealGrants } from '../dispatch/reveals.js';
import { jsonValue } from '../model/json.js';
import type { RedisClient } from '../redis/connection.js';
import { AuditTrail } from './audit.js';
import type { Authorizer } from './authorizer.js';
import { APPROVE_ACTION, CANCEL_ACTION, REJECT_ACTION } from './card.js';
import { type ApprovalDecider, ApprovalDecisions, type Clicker } from './decisions.js';
import { ApprovalExecutor } from './executor.js';
import { createGate } from './gate.js';
import type { ApprovalNotifier } from './notifier.js';
import { ApprovalButtonValue, type ApprovalRecord } from './record.js';
import { ScheduledDeploys } from './scheduled.js';
import { ApprovalSettings, type ApprovalSettingsInput } from './settings.js';
import { RedisStagingLedger } from './staging.js';
import { ApprovalStore } from './store.js';

export interface ApprovalsOptions {
  redis: RedisClient;
  /** Key prefix shared by every process of one deployment, e.g. `fwbot` (`fwbot:` is read the same). */
  prefix: string;
  /** Posts and updates the cards and their threads (src/slack/approvalNotifier.ts on Slack). */
  notifier: ApprovalNotifier;
  clients: SccClients;
  /** The catalogue's registry: operation id → declaration (approvals store ids, never code). */
  lookup: (operationId: string) => Operation | undefined;
  tracker: Tracker;
  /** Where approved calls of operations that declare a queue wait their turn (src/jobs/). */
  queue?: OperationQueue;
  /** Where an approved deploy keeps the running configurations it replaces (src/jobs/configSnapshots.ts). */
  snapshots?: ConfigSnapshots;
  /** Timed work (src/jobs/timed/): the reminder before a held run waits there. */
  timed?: TimedWork;
  /** Device holds (src/jobs/deviceHolds.ts): an approved call meets them, or takes its own, right before it runs. */
  holds?: DeviceHolds;
  /** The look at a device's certificate (src/app/certificateProbe.ts): an approved acceptance looks again. */
  certificates?: CertificateProbe;
  /** The records of the access rules fwbot created: an approved request keeps one, a revoke drops it. */
  accessRecords?: AccessRecordStore;
  authorizer: Authorizer;
  /** Where approved secret-producing calls leave their one-time Reveal grant. */
  reveals: RevealGrants;
  settings: ApprovalSettingsInput;
  /** The change process (the file's `changes`): its windows decide when approved deploys run. */
  changes?: ChangeSettings;
  /** What is checked after a software upgrade (the file's `upgrades`): an approved upgrade keeps its baseline. */
  upgrades?: UpgradeSettings;
  /**
   * The access-request policy (the file's `access`): an approved request runs under it as previewed, and
   * keeps what it asks of the rule afterwards (its recertification, src/catalogue/timed/accessRecertify.ts).
   */
  accessRequests?: AccessRequestPolicy;
  logger: Logger;
  clock?: () => number;
  /** Known secret values (SCC and Slack tokens, signing secret) kept out of the audit trail. */
  secrets?: readonly string[];
  /** Told after each audit record (every approval transition writes one): the App Homes refresh. */
  onAudit?: (entry: AuditEntry) => void;
}

export interface Approvals {
  gate: ApprovalGate;
  /** The decisions the card's buttons and the reject-reason form ask for (Slack's listeners use them). */
  decide: ApprovalDecider;
  /**
   * A card's button pressed outside Slack (the console): the same decisions, permission checks included.
   * Undefined when the action is not one of the card's; otherwise what to tell the person who pressed it.
   */
  press(
    action: { id: string; value: string },
    who: Clicker,
    askReason: () => Promise<string | undefined>,
  ): Promise<string | undefined> | undefined;
  /**
   * Requests still waiting for a decision, the soonest to expire first (at most 200): the console shows
   * again the cards of a run before a restart, whose requests Redis kept.
   */
  pending(): Promise<ApprovalRecord[]>;
  /** One recovery pass (run it at start): approved requests not yet run, abandoned executions, unposted outcomes. */
  recover(): Promise<number>;
  /** One expiry pass: pending requests past their time become expired and their cards say so. */
  sweepExpired(): Promise<number>;
  /** The audit trail: read by `/fw audit`, written by the dispatcher for audited calls. */
  audit: AuditReader & AuditSink;
  /** Who staged what on each ASA through fwbot (read by deploy cards). */
  staging: StagingLedger;
  /** Approved requests held until their time, and their cancel (`/fw deployments scheduled`). */
  scheduled: ScheduledRuns;
  /** Runs both passes every `intervalMs` until close(). */
  startSweeper(intervalMs?: number): void;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function cardAction(actionId: string): 'approve' | 'reject' | 'cancel' | undefined {
  const base = actionId.replace(/:\d+$/, '');
  if (base === APPROVE_ACTION) return 'approve';
  if (base === REJECT_ACTION) return 'reject';
  if (base === CANCEL_ACTION) return 'cancel';
  return undefined;
}

const BATCH = 100;

export function createApprovals(options: ApprovalsOptions): Approvals {
  const settings = ApprovalSettings.parse(options.settings);
  const clock = options.clock ?? Date.now;
  const log = options.logger.child({ component: 'approvals' });
  const store = new ApprovalStore({
    redis: options.redis,
    prefix: options.prefix,
    retentionMs: settings.auditRetentionDays * DAY_MS,
    claimGraceMs: settings.executionLeaseMs,
  });
  const audit = new AuditTrail({
    redis: options.redis,
    prefix: options.prefix,
    retentionDays: settings.auditRetentionDays,
    clock,
    secrets: options.secrets,
    onRecord: options.onAudit,
  });
  const staging = new RedisStagingLedger(options.redis, options.prefix);
  const { notifier } = options;
  const executor = new ApprovalExecutor({
    store,
    audit,
    services: {
      audit,
      staging,
      ...(options.snapshots ? { snapshots: options.snapshots } : {}),
      ...(options.timed ? { timed: options.timed } : {}),
      ...(options.holds ? { holds: options.holds } : {}),
      ...(options.certificates ? { certificates: options.certificates } : {}),
      ...(options.accessRecords ? { accessRecords: options.accessRecords } : {}),
    },
    notifier,
    clients: options.clients,
    lookup: options.lookup,
    tracker: options.tracker,
    queue: options.queue,
    authorizer: options.authorizer,
    reveals: options.reveals,
    // What the dispatcher passes operations at request time, so an approved call runs under the same policy.
    policy: {
      deployWithChange: settings.deployWithChange,
      ...(options.changes ? { changes: options.changes } : {}),
      ...(options.upgrades ? { upgrades: options.upgrades } : {}),
      ...(options.accessRequests ? { accessRequests: options.accessRequests } : {}),
    },
    clock,
    leaseMs: settings.executionLeaseMs,
    executorId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    log,
  });
  const decisions = new ApprovalDecisions({
    store,
    audit,
    notifier,
    executor,
    authorizer: options.authorizer,
    settings,
    clock,
    log,
  });
  const gate = createGate({ store, audit, notifier, authorizer: options.authorizer, settings, clock, log });

  async function sweepExpired(): Promise<number> {
    let expired = 0;
    for (const id of await store.dueForExpiry(clock(), BATCH)) {
      if (await decisions.expire(id)) expired += 1;
    }
    await audit.trim();
    return expired;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  function pass(): void {
    running = running
      .then(async () => {
        await sweepExpired();
        await executor.recover(BATCH);
      })
      .catch((error: unknown) => log.error({ err: error }, 'approval sweep failed; the next one retries'));
  }

  return {
    gate: { request: gate.request },
    decide: decisions,
    press(action, who, askReason) {
      const decide = cardAction(action.id);
      if (!decide) return undefined;
      const value = ApprovalButtonValue.safeParse(jsonValue(action.value));
      if (!value.success) return Promise.resolve('That button is not one fwbot made.');
      const { id } = value.data;
      if (decide === 'approve') return decisions.approve(id, who);
      if (decide === 'cancel') return decisions.cancel(id, who);
      return (async () => {
        const refusal = await decisions.mayReject(id, who);
        if (refusal) return refusal;
        return decisions.reject(id, who, await askReason());
      })();
    },
    async pending() {
      const records = await Promise.all((await store.pendingIds(clock(), 200)).map((id) => store.get(id)));
      return records.filter((record): record is ApprovalRecord => record?.state === 'pending');
    },
    recover: () => executor.recover(BATCH),
    sweepExpired,
    audit: {
      latest: (count) => audit.latest(count),
      record: async (entry) => {
        await audit.record(entry);
      },
    },
    staging,
    scheduled: new ScheduledDeploys({
      store,
      lookup: options.lookup,
      clock,
      cancelling: { audit, notifier, log },
      timed: options.timed,
    }),
    startSweeper(intervalMs = 15_000) {
      if (timer) return;
      timer = setInterval(pass, intervalMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
