// The public face of src/jobs: `createJobs` for the side that queues work (the bot: Tracker, watches,
// operations' queues) and `startWorkers` for the side that does it. Workers run inside the bot process or
// alone (`npm run worker`), any number of them: all state is in Redis, BullMQ hands each job to one
// worker at a time, and a killed worker's jobs are picked up by the others.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Processor, Queue, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import { AccessRecords } from '../access/records.js';
import type { AlertService, AlertSubscription } from '../alerts/model.js';
import type { DeviceHolds } from '../catalogue/deviceHolds.js';
import type { ConfigSnapshots, TimedWork, WatchRegistry } from '../catalogue/operation.js';
import { type AnyTimedKind, TIMED_KINDS, timedRegistry } from '../catalogue/timed/index.js';
import { profileNamedLike } from '../config/scope.js';
import type { OperationQueue, SccClients, Tracker } from '../dispatch/ports.js';
import { classifySccError } from '../follow/failures.js';
import { describeFollowed, parseTrackJob, type TenantProfileResolver } from '../follow/index.js';
import { gaveUpOutcome } from '../follow/words.js';
import type { ChatOf } from '../model/message.js';
import { operationQueueName, QUEUE } from '../redis/keys.js';
import { SubscriptionBaseline } from './alerts/baseline.js';
import { deliverAlerts } from './alerts/desk.js';
import { RedisIncidentDesk } from './alerts/deskService.js';
import { createDeskProcessor } from './alerts/deskWorker.js';
import {
  ALERT_SCAN_QUEUE,
  type AlertScanDeps,
  type AlertScanMetrics,
  createAlertScanner,
  scheduleScans,
} from './alerts/scan.js';
import { type ChannelScopeOf, toldInChannel } from './alerts/scanRouting.js';
import { RedisAlertSubscriptions } from './alerts/subscriptions.js';
import { migrateWatches, RETIRED_WATCH_SCHEDULER_ID } from './alerts/watchMigration.js';
import { reportConfigChanges } from './configChanges.js';
import { RedisConfigSnapshots } from './configSnapshots.js';
import { createJobsCore, type JobsCore, type JobsOptions } from './core.js';
import { RedisDeviceHolds } from './deviceHolds.js';
import { scheduleLaterWork } from './laterWork.js';
import { DurationHistory } from './learningStore.js';
import { createNotifyProcessor } from './notifyWorker.js';
import {
  createQueuedCallProcessor,
  declaredQueues,
  enqueueCall,
  type QueuedCallsDeps,
  queueLimit,
  reserveCall,
} from './operationQueue.js';
import { transientDelayMs } from './schedule.js';
import { SlackNotifier } from './slackNotifier.js';
import type { Subscriptions } from './subscriptions.js';
import { TimedRunner, type TimedRunnerDeps } from './timed/runner.js';
import { RedisTimedWork, TimedStore } from './timed/store.js';
import { QueueTracker } from './tracker.js';
import { createTrackProcessor } from './trackWorker.js';
import { isMspPortal, SubscriptionWatches } from './watches.js';

export type { JobsOptions } from './core.js';
export { declaredQueues, type QueuedCallsDeps } from './operationQueue.js';

/** What the bot uses to hand work to the workers. */
export interface Jobs {
  readonly tracker: Tracker;
  readonly watches: WatchRegistry;
  /** Alert subscriptions and the incident desk, for `/fw alerts …` (src/catalogue/alerts.ts). */
  readonly alerts: AlertService;
  /** Takes the calls of operations that declare a queue (src/jobs/operationQueue.ts). */
  readonly queue: OperationQueue;
  /** Running configurations kept before and after deploys (src/jobs/configSnapshots.ts). */
  readonly snapshots: ConfigSnapshots;
  /** Who started followed work, by its transaction (a Cancel… button's approval rule reads it). */
  readonly followed: Pick<Subscriptions, 'startedBy'>;
  /** Work due later, in Redis (src/jobs/timed/): what operations schedule, cancel and list. */
  readonly timed: TimedWork;
  /** Devices held for a change in progress (src/jobs/deviceHolds.ts). */
  readonly holds: DeviceHolds;
  /** The access rules fwbot created (src/access/records.ts). */
  readonly accessRecords: AccessRecords;
  /**
   * This process's pass over timed work, not started yet (every process starts one: the bot, a worker, the
   * demo; a test passes it on its own clock). Running a kind needs what the dispatcher runs calls with,
   * which is built over these jobs: hence a factory here.
   */
  timedRunner(deps: TimedWorkDeps): TimedRunner;
  close(): Promise<void>;
}

/** Which channels hear which alert subscriptions, as the profiles file binds them (customer channels). */
export interface AlertRouting {
  /** A channel's scope as bound (src/config/scope.ts channelScopes). */
  channelScope: ChannelScopeOf;
  /** The configured profiles (a customer channel hears its tenant's own). */
  profiles: readonly string[];
}

/** What the pass over timed work runs items with, besides what the jobs have (see TimedRunnerDeps). */
export type TimedWorkDeps = Pick<
  TimedRunnerDeps,
  'clients' | 'services' | 'policy' | 'roleCheck' | 'tracker' | 'audit' | 'clock' | 'log'
> & {
  /** Identifies the process in claims (default: host, pid and a random part). */
  runnerId?: string;
};

/** The kinds of timed work a deployment runs (its tests may run their own). */
export interface TimedKindsOption {
  timedKinds?: readonly AnyTimedKind[];
}

function jobsOver(
  core: JobsCore,
  routing: AlertRouting | undefined,
  timedKinds: readonly AnyTimedKind[] = TIMED_KINDS,
): Jobs & { readonly registry: SubscriptionWatches; readonly subscriptions: RedisAlertSubscriptions } {
  const subscriptions = new RedisAlertSubscriptions(core);
  const registry = new SubscriptionWatches(subscriptions);
  // Made when the first subscription starts: the bot schedules its profile's scans at once.
  let scanQueue: Queue | undefined;
  const baseline = new SubscriptionBaseline({
    core,
    subscriptions,
    deliver: (events) => deliverAlerts(core, events),
    schedule: async (profile) => {
      scanQueue ??= new Queue(ALERT_SCAN_QUEUE, { connection: core.redis, prefix: core.prefix });
      await scheduleScans(scanQueue, profile, core.schedule.alerts.tickMs);
    },
    ...(routing
      ? {
          told: (subscription: AlertSubscription) =>
            toldInChannel(
              subscription,
              routing.channelScope(subscription.channelId, subscription),
              routing.profiles,
            ),
        }
      : {}),
  });
  const kinds = timedRegistry(timedKinds);
  const timedStore = new TimedStore(core.redis, core.keys, core.schedule.retentionMs);
  const { schedule } = core;
  const timed = new RedisTimedWork(timedStore, kinds, core.clock);
  return {
    tracker: new QueueTracker(core, timed),
    watches: registry,
    registry,
    subscriptions,
    alerts: {
      subscriptions,
      incidents: new RedisIncidentDesk(core),
      startFromNow: (subscription, scc) => baseline.start(subscription, scc),
    },
    snapshots: new RedisConfigSnapshots(core.redis, core.keys, core.snapshotRetentionDays),
    followed: core.subscriptions,
    queue: {
      reserve: (op, profile, raw, requestId) => reserveCall(core, op, profile, raw, requestId),
      enqueue: (op, call) => enqueueCall(core, op, call),
    },
    timed,
    holds: new RedisDeviceHolds(core.redis, core.keys),
    accessRecords: new AccessRecords(core.redis, core.keys),
    timedRunner(deps) {
      return new TimedRunner({
        ...deps,
        store: timedStore,
        kinds,
        notify: (messages) => core.notify(messages),
        settings: {
          ...schedule.timed,
          maxTransientFailures: schedule.maxTransientFailures,
          transientDelayMs: (failures, retryAfterMs) => transientDelayMs(schedule, failures, retryAfterMs),
        },
        runnerId: deps.runnerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
      });
    },
    close: async () => {
      await scanQueue?.close();
      await core.close();
    },
  };
}

export function createJobs(options: JobsOptions & TimedKindsOption & { alertRouting?: AlertRouting }): Jobs {
  return jobsOver(createJobsCore(options), options.alertRouting, options.timedKinds);
}

export interface StartWorkersOptions extends JobsOptions, TimedKindsOption {
  /** One SCC client per profile. Give them no retries of their own (`retry: { maxAttempts: 1 }`). */
  clients: SccClients;
  /**
   * Where notifications go: the chat of each workspace a notification names (src/model/message.ts). On
   * Slack, src/slack/chat.ts over clients made by createWorkerSlackClient (src/slackApi/clients.ts), so a
   * 429 comes back at once and the job waits; in the demo, the console takes its own channel's.
   */
  chat: ChatOf;
  /** Which profile reads a managed tenant's transactions (cdFMC's second leg). */
  resolveTenantProfile?: TenantProfileResolver;
  /** Where the alert scan reports (src/jobs/alerts/scanHealth.ts alertScanMetrics). */
  alertMetrics?: AlertScanMetrics;
  /** A channel's scope as bound (src/config/scope.ts channelScopes): customer channels hear their tenant. */
  channelScope?: AlertScanDeps['channelScope'];
}

export interface Workers {
  /** The producer side over the same connection, for a bot that runs its workers in process. */
  readonly jobs: Jobs;
  /**
   * Starts a worker for each queue the operations declare, on each profile. Apart from startWorkers because
   * running a call needs the catalogue and what the dispatcher runs calls with (roles, services), which
   * are built over these jobs. Once per process.
   */
  runQueuedCalls(deps: QueuedCallsDeps): Promise<void>;
  /** Stops taking jobs, lets the ones in hand finish, and closes every connection. */
  close(): Promise<void>;
}

/**
 * The default answer to "whose token reads this tenant?": a profile named as the tenant, else the first
 * other profile that can read the tenant's transaction (only the tenant's own token can).
 */
export function profileByTenant(clients: SccClients): TenantProfileResolver {
  return async ({ tenantUid, tenantName, transactionUid, portalProfile }) => {
    const others = clients.names().filter((name) => name !== portalProfile);
    const named = profileNamedLike(tenantName, others) ?? others.find((name) => name === tenantUid);
    if (named) return named;
    for (const name of others) {
      try {
        await clients.get(name).transactions.get(transactionUid);
        return name;
      } catch (error) {
        if (classifySccError(error).kind === 'transient') throw error;
      }
    }
    return undefined;
  };
}

export async function startWorkers(options: StartWorkersOptions): Promise<Workers> {
  const core = createJobsCore(options);
  const { schedule, log, prefix, redis } = core;
  const jobs = jobsOver(
    core,
    options.channelScope
      ? { channelScope: options.channelScope, profiles: options.clients.names() }
      : undefined,
    options.timedKinds,
  );
  const notifier = new SlackNotifier(options.chat, redis, core.keys, schedule, log);
  const base: WorkerOptions = {
    connection: redis,
    prefix,
    lockDuration: schedule.workers.lockDurationMs,
    stalledInterval: schedule.workers.stalledIntervalMs,
    maxStalledCount: schedule.workers.maxStalledCount,
  };
  const workers: Worker[] = [];
  const start = (queue: string, processor: Processor, extra: Partial<WorkerOptions> = {}): Worker => {
    const worker = new Worker(queue, processor, { ...base, ...extra });
    core.redisHealth.absorb(`worker ${queue}`, worker);
    workers.push(worker);
    return worker;
  };

  const tracking = start(
    QUEUE.track,
    createTrackProcessor({
      subscriptions: core.subscriptions,
      notifier,
      notify: (messages) => core.notify(messages),
      clients: options.clients,
      resolveTenantProfile: options.resolveTenantProfile ?? profileByTenant(options.clients),
      schedule,
      durations: new DurationHistory(redis, core.keys, schedule.learning),
      holds: jobs.holds,
      later: (trackId, job, outcome, subscribers) =>
        scheduleLaterWork(
          {
            timed: jobs.timed,
            kinds: timedRegistry(options.timedKinds ?? TIMED_KINDS),
            now: core.clock,
            log,
          },
          trackId,
          job,
          outcome,
          subscribers,
        ),
      configChanges: (trackId, job, subscribers) =>
        reportConfigChanges(
          {
            snapshots: jobs.snapshots,
            notifier,
            notify: (messages) => core.notify(messages),
            clients: options.clients,
            redis,
            keys: core.keys,
            schedule,
            log,
          },
          trackId,
          job,
          subscribers,
        ),
      log,
    }),
    { concurrency: schedule.workers.trackConcurrency },
  );
  // Errors outside a step (Redis lost mid-step, a job rescued too often) end here once attempts are
  // spent: the threads are still told, so nobody waits forever.
  tracking.on('failed', (job, error) => {
    if (!job?.id) return;
    const spent = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!spent) return;
    const parsed = parseTrackJob(job.data);
    const what = parsed.success ? describeFollowed(parsed.data.request) : 'this';
    core.subscriptions
      .settle(job.id, gaveUpOutcome(what, job.attemptsMade, error.message))
      .catch((settleError: unknown) =>
        log.error({ err: settleError, jobId: job.id }, 'could not tell the threads'),
      );
  });
  start(QUEUE.notify, createNotifyProcessor(notifier, log), {
    concurrency: schedule.workers.notifyConcurrency,
  });
  // The incident desk: alert batches from the scans, and the edits an acknowledgement asks for.
  start(QUEUE.alerts, createDeskProcessor({ core, notifier, log }), {
    concurrency: schedule.workers.notifyConcurrency,
  });
  // Earlier versions' vpn watches become upgrades alerts before any scan reads the subscriptions.
  // A profile this worker has no client for waits for one that has (undefined: not migrated yet).
  const migrated = await migrateWatches(core, jobs.subscriptions, async (profile) =>
    options.clients.names().includes(profile) ? isMspPortal(options.clients.get(profile)) : undefined,
  );
  if (migrated > 0) log.info({ migrated }, 'vpn watches are now upgrades alert subscriptions');
  // The alert scan: one scheduler per profile with subscriptions, kept in line by a scheduler that every
  // process upserts alike; its findings go to the desk's queue above.
  const alertScan = createAlertScanner({
    core,
    clients: options.clients,
    subscriptions: jobs.subscriptions,
    deliver: (events) => deliverAlerts(core, events),
    ...(options.alertMetrics ? { metrics: options.alertMetrics } : {}),
    ...(options.channelScope ? { channelScope: options.channelScope } : {}),
  });
  start(ALERT_SCAN_QUEUE, alertScan.processor, { concurrency: 2 });
  await alertScan.start();
  // The alert scan's upgrades kind tells what the retired watch scan told; an earlier version's scheduler
  // of that scan is removed (idempotent: every worker does it at start).
  await core.watchQueue.removeJobScheduler(RETIRED_WATCH_SCHEDULER_ID);
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  log.info({ prefix, workers: workers.length }, 'fwbot workers started');

  let queuesStarted = false;
  return {
    jobs,
    async runQueuedCalls(deps) {
      if (queuesStarted) throw new Error('the queued calls already have their workers');
      queuesStarted = true;
      const processor = createQueuedCallProcessor({
        ...deps,
        core,
        clients: options.clients,
        tracker: deps.tracker ?? jobs.tracker,
      });
      const started: Worker[] = [];
      for (const queue of declaredQueues(deps.operations)) {
        const { max, perMs } = queueLimit(schedule, queue);
        for (const profile of options.clients.names()) {
          // SCC's rule as BullMQ's limiter: `max` calls start per window, across every worker on this queue.
          const limiter = { max, duration: perMs };
          started.push(start(operationQueueName(queue.name, profile), processor, { limiter }));
        }
      }
      await Promise.all(started.map((worker) => worker.waitUntilReady()));
      log.info({ queues: started.length }, 'fwbot queued-call workers started');
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await alertScan.close();
      await jobs.close();
    },
  };
}
