// A complete approvals test world: the fake Slack Web API, the SCC simulator, a key prefix of its own on
// the run's Redis, a driven clock, and one bot process (more on demand, sharing Redis and the simulator).

import { createCertificateProbe } from '../../../src/app/certificateProbe.js';
import { authorizerFrom } from '../../../src/approvals/authorizer.js';
import type { ApprovalSettingsInput } from '../../../src/approvals/settings.js';
import type { DeviceHolds } from '../../../src/catalogue/deviceHolds.js';
import type { TimedWork } from '../../../src/catalogue/services.js';
import {
  type ChangeSettings,
  defaultChanges,
  openPeriod,
  type ResponseSettings,
  type UpgradeSettings,
} from '../../../src/config/profilesFileSchema.js';
import type { AccessRequestPolicy } from '../../../src/config/sections/access.js';
import type { AccessControl } from '../../../src/policy/access.js';
import { managementRoute, type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { quietLog, simClients, startTestWorkers } from '../../jobs/support/harness.js';
import { type FakeSlack, startFakeSlack } from '../../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../../support/testRedis.js';
import { type Bot, startBot } from './bot.js';
import { SlackDriver } from './slackDriver.js';
import { policyAccess } from './world.js';

export interface ManualClock {
  (): number;
  advance(ms: number): void;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface ApprovalsEnv {
  /**
   * One pass over the timed work on the driven clock, as the first bot process's assembly runs it (with
   * `timed` only): the bot's SCC client, its services, its role policy.
   */
  timedPass(): Promise<number>;
  /** The timed work's store (with `timed` only). */
  timed: TimedWork | undefined;
  /** The device holds (with the workers of `realTracking` or `timed`). */
  holds: DeviceHolds | undefined;
  slack: FakeSlack;
  sim: SimulatorHandle;
  driver: SlackDriver;
  prefix: string;
  clock: ManualClock;
  bot: Bot;
  /** Another bot process on the same Redis, simulator and Slack. */
  startBot(settings?: ApprovalSettingsInput): Promise<Bot>;
  /** How many requests of an SCC operation the simulator received, from its request log at /_sim/requests. */
  sccCalls(operationId: string): Promise<number>;
  /** Stages the deletion of a VLAN interface on `device` directly in SCC (as SCC's UI would). */
  stage(device: string, hardwareName: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startEnv(
  settings: ApprovalSettingsInput = {},
  options: {
    access?: AccessControl;
    realTracking?: boolean;
    changes?: ChangeSettings;
    /** The file's `response` (the responder's fast path), as the dispatcher gets it. */
    response?: ResponseSettings;
    /** The file's `upgrades` (smoke traces). */
    upgrades?: UpgradeSettings;
    /** The file's `access` (risk policy, recertification, `time_range_for_expiry`), as the dispatcher and the timed work get it. */
    accessRequests?: AccessRequestPolicy;
    /** The workspace binding in front of the listeners (external people of Slack Connect channels). */
    bindWorkspace?: boolean;
    /** Where the driven clock starts (default: the machine's time now). */
    clockStart?: number;
    /** Other SCC profiles of the bot, by name: their tokens, minted by the simulator (a tenant's own). */
    profiles?: (sim: SimulatorHandle) => Record<string, string>;
    /** Channels Slack says are shared with another organization (conversations.info). */
    sharedChannels?: string[];
    /** Timed work (src/jobs/timed/) beside the approvals, on the workers of src/jobs/ (their notifications post). */
    timed?: boolean;
    /**
     * Managed tenants whose own profile the timed work has, each named as its tenant with that tenant's
     * token (the MSP portal's upgrade reaches their windows, configuration and traces through them).
     */
    tenantProfiles?: string[];
  } = {},
): Promise<ApprovalsEnv> {
  const slack = await startFakeSlack(
    options.sharedChannels ? { sharedChannels: options.sharedChannels } : {},
  );
  const sim = await startSimulator({ port: 0, clock: 'manual' });
  const prefix = uniquePrefix('approvals');
  // The tracking workers of src/jobs/, on the same Redis prefix, simulator and Slack, when asked for.
  const clock = manualClock(options.clockStart);
  const withWorkers = options.realTracking === true || options.timed === true;
  const clients = withWorkers ? simClients(sim, { default: sim.tokens.superAdmin }) : undefined;
  const workers = clients ? await startTestWorkers(clients, slack.apiUrl, prefix, { clock }) : undefined;
  const bots: Bot[] = [];
  const launch = async (extra: ApprovalSettingsInput = settings) => {
    const bot = await startBot({
      redisUrl: redisUrl(),
      prefix,
      slackApiUrl: slack.apiUrl,
      sccBaseUrl: sim.url,
      sccToken: sim.tokens.superAdmin,
      ...(options.profiles ? { profiles: options.profiles(sim) } : {}),
      // The simulated ASAs' certificates, from the simulator's management endpoint.
      certificates: createCertificateProbe({ route: managementRoute(sim.managementPort) }),
      clock,
      settings: extra,
      ...(options.access ? { access: options.access } : {}),
      ...(options.changes ? { changes: options.changes } : {}),
      ...(options.response ? { response: options.response } : {}),
      ...(options.upgrades ? { upgrades: options.upgrades } : {}),
      ...(options.accessRequests ? { accessRequests: options.accessRequests } : {}),
      ...(options.bindWorkspace ? { bindWorkspace: true } : {}),
      ...(workers && options.realTracking
        ? { tracking: workers.jobs.tracker, snapshots: workers.jobs.snapshots }
        : {}),
      ...(workers && options.timed ? { timed: workers.jobs.timed } : {}),
      // The workers' holds: a deploy holds its devices, and the tracking worker releases them at its end.
      ...(workers ? { holds: workers.jobs.holds } : {}),
      // The records of the access rules fwbot created: an approved request keeps one.
      ...(workers ? { accessRecords: workers.jobs.accessRecords } : {}),
    });
    bots.push(bot);
    return bot;
  };
  const bot = await launch();
  const tenantClients = simClients(
    sim,
    Object.fromEntries(
      (options.tenantProfiles ?? []).map((name) => [name, sim.mintTenantToken(sim.tenantUid(name))]),
    ),
  );
  const timedRunner =
    workers && options.timed
      ? workers.jobs.timedRunner({
          clients: {
            names: () => ['default', ...tenantClients.names()],
            get: (name) => (name === 'default' ? bot.scc : tenantClients.get(name)),
          },
          services: {
            audit: bot.approvals.audit,
            staging: bot.approvals.staging,
            scheduled: bot.approvals.scheduled,
            timed: workers.jobs.timed,
            holds: workers.jobs.holds,
            snapshots: workers.jobs.snapshots,
            accessRecords: workers.jobs.accessRecords,
          },
          // The file's sections the dispatcher has too: fwbot's change windows decide when an upgrade runs.
          policy: {
            ...(options.upgrades ? { upgrades: options.upgrades } : {}),
            ...(options.changes ? { changes: options.changes } : {}),
            ...(options.accessRequests ? { accessRequests: options.accessRequests } : {}),
          },
          roleCheck: authorizerFrom(options.access ?? policyAccess()),
          tracker: bot.tracker,
          audit: bot.approvals.audit,
          clock,
          log: quietLog,
        })
      : undefined;
  return {
    timed: options.timed ? workers?.jobs.timed : undefined,
    holds: workers?.jobs.holds,
    timedPass: async () => {
      if (!timedRunner) throw new Error('this approvals world has no timed work (startEnv timed: true)');
      return timedRunner.pass();
    },
    slack,
    sim,
    driver: new SlackDriver(slack),
    prefix,
    clock,
    bot,
    startBot: launch,
    sccCalls: (operationId) => sccCalls(sim.url, operationId),
    async stage(device, hardwareName) {
      const deviceUid = sim.deviceUid(device);
      const vlan = [...sim.state.interfaces.values()].find(
        (i) => i.deviceUid === deviceUid && i.hardwareName === hardwareName,
      );
      if (!vlan) throw new Error(`no ${hardwareName} on ${device}`);
      await bot.scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });
    },
    async stop() {
      for (const b of bots) await b.stop();
      await workers?.close();
      await clients?.close();
      await tenantClients.close();
      await sim.stop();
      await slack.stop();
    },
  };
}

export async function sccCalls(simUrl: string, operationId: string): Promise<number> {
  const res = await fetch(
    `${simUrl}/_sim/requests?operationId=${encodeURIComponent(operationId)}&limit=10000`,
  );
  const body = (await res.json()) as { items: { operationId?: string }[] };
  return body.items.filter((item) => item.operationId === operationId).length;
}

/** `HH:MM` in UTC of a moment. */
export const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

/** The change process with one change window for every device, every day, from `opens` for `lengthMs` (UTC). */
export function dailyWindow(opens: number, lengthMs: number): ChangeSettings {
  const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
  return {
    ...defaultChanges,
    windows: [
      {
        devices: undefined,
        profile: undefined,
        timeZone: 'UTC',
        open: [openPeriod([...days], hhmm(opens), hhmm(opens + lengthMs))],
      },
    ],
  };
}
