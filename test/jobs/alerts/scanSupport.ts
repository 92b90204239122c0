// What the scan tests stand on: the simulator (manual clock), a real Redis on a prefix of its own, SCC
// clients that report every call, an in-memory subscription store, and a desk door that records what it
// is handed (as the real one, it may be handed an event twice; the tests count keys).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type {
  AlertEvent,
  AlertSubscription,
  AlertSubscriptions,
  NewAlertSubscription,
} from '../../../src/alerts/model.js';
import { type AlertScanDeps, createAlertScanner } from '../../../src/jobs/alerts/scan.js';
import { createJobsCore, type JobsCore } from '../../../src/jobs/core.js';
import type { ScheduleOverrides } from '../../../src/jobs/schedule.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { quietLog, type SimClients, simClients } from '../support/harness.js';

export class MemorySubscriptions implements AlertSubscriptions {
  readonly all: AlertSubscription[] = [];

  async subscribe(subscription: NewAlertSubscription) {
    const made: AlertSubscription = {
      ...subscription,
      id: randomUUID().replace(/-/g, '').slice(0, 8),
      createdAt: new Date().toISOString(),
    };
    this.all.push(made);
    return { subscription: made, created: true };
  }

  async unsubscribe(channelId: string, id: string) {
    const index = this.all.findIndex((s) => s.channelId === channelId && s.id === id);
    return index < 0 ? undefined : this.all.splice(index, 1)[0];
  }

  async list(filter: { channelId?: string; profile?: string } = {}) {
    return this.all.filter(
      (s) =>
        (filter.channelId === undefined || s.channelId === filter.channelId) &&
        (filter.profile === undefined || s.profile === filter.profile),
    );
  }
}

export function subscription(
  channelId: string,
  kinds: AlertSubscription['kinds'],
  extra: Partial<NewAlertSubscription> = {},
): NewAlertSubscription {
  return { channelId, profile: 'default', kinds, scope: { kind: 'profile' }, createdBy: 'U0ADMIN', ...extra };
}

export interface ScanWorld {
  core: JobsCore;
  clients: SimClients;
  subscriptions: MemorySubscriptions;
  /** Every event handed to the desk, in order (an event handed twice is here twice). */
  delivered: AlertEvent[];
  scanner: ReturnType<typeof createAlertScanner>;
  /** Moves the simulator's clock on and scans the profile. */
  scanAfter(ms: number, profile?: string): ReturnType<ReturnType<typeof createAlertScanner>['scanProfile']>;
  close(): Promise<void>;
}

export async function scanWorld(
  sim: SimulatorHandle,
  options: {
    profiles?: Record<string, string>;
    schedule?: ScheduleOverrides['alerts'];
    deliver?: AlertScanDeps['deliver'];
    log?: AlertScanDeps['core']['log'];
    channelScope?: AlertScanDeps['channelScope'];
  } = {},
): Promise<ScanWorld> {
  const clients = simClients(sim, options.profiles ?? { default: sim.tokens.superAdmin });
  const core = createJobsCore({
    redisUrl: redisUrl(),
    prefix: uniquePrefix('alert-scan'),
    logger: options.log ?? quietLog,
    schedule: { alerts: { callsPerMinute: 1_000, ...options.schedule } },
  });
  const subscriptions = new MemorySubscriptions();
  const delivered: AlertEvent[] = [];
  const scanner = createAlertScanner({
    core,
    clients,
    subscriptions,
    deliver:
      options.deliver ??
      (async (events) => {
        delivered.push(...events);
      }),
    now: () => sim.clock.now(),
    ...(options.channelScope ? { channelScope: options.channelScope } : {}),
  });
  return {
    core,
    clients,
    subscriptions,
    delivered,
    scanner,
    scanAfter(ms, profile = 'default') {
      sim.clock.advance(ms);
      return scanner.scanProfile(profile);
    },
    async close() {
      await scanner.close();
      await core.close();
      await clients.close();
    },
  };
}

/** A device's record in the simulator, to change what SCC will answer. */
export function simDevice(sim: SimulatorHandle, name: string) {
  const record = sim.state.devices.get(sim.deviceUid(name));
  if (!record) throw new Error(`no device ${name}`);
  return record.device;
}

/**
 * The simulator (manual clock) for a describe block, reset before each test, and the scan world a test
 * opens (`open`), closed after it: what the scan's tests stand on.
 */
export function useScanSimulator(): {
  readonly sim: SimulatorHandle;
  open(options?: Parameters<typeof scanWorld>[1]): Promise<ScanWorld>;
} {
  let sim: SimulatorHandle | undefined;
  let world: ScanWorld | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
  });
  beforeEach(() => sim?.reset());
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  afterAll(async () => {
    await sim?.stop();
  });
  const started = (): SimulatorHandle => {
    if (!sim) throw new Error('the simulator starts in beforeAll');
    return sim;
  };
  return {
    get sim() {
      return started();
    },
    async open(options = {}) {
      world = await scanWorld(started(), options);
      return world;
    },
  };
}
