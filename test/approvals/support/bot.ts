// One fwbot process as far as approvals go: a real Bolt app in HTTP mode (signature checks on), the
// approvals service registered on it, an SCC client, its own Redis connection. `/fw` goes through the
// real dispatcher (grammar → role check → the operation's declared fate), as on the Slack surface. Used in the
// test process (several at once stand for several bot processes) and by the child process of the crash
// tests.

import { App, HTTPReceiver } from '@slack/bolt';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { AccessRecordStore } from '../../../src/access/records.js';
import { type Approvals, createApprovals } from '../../../src/approvals/approvals.js';
import { authorizerFrom } from '../../../src/approvals/authorizer.js';
import { ApprovalSettings, type ApprovalSettingsInput } from '../../../src/approvals/settings.js';
import type { DeviceHolds } from '../../../src/catalogue/deviceHolds.js';
import type { TimedRef, TrackRequest } from '../../../src/catalogue/operation.js';
import type { CertificateProbe, ConfigSnapshots, TimedWork } from '../../../src/catalogue/services.js';
import type {
  ChangeSettings,
  ResponseSettings,
  UpgradeSettings,
} from '../../../src/config/profilesFileSchema.js';
import type { AccessRequestPolicy } from '../../../src/config/sections/access.js';
import type { RedisConfig } from '../../../src/config.js';
import { commandButtonInvocation } from '../../../src/dispatch/buttons.js';
import { Dispatcher } from '../../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../../src/dispatch/governance.js';
import type { SccClients, ThreadRef, Tracker } from '../../../src/dispatch/ports.js';
import { RedisRevealGrants } from '../../../src/dispatch/reveals.js';
import { UserError } from '../../../src/model/errors.js';
import type { AccessControl } from '../../../src/policy/access.js';
import { connectRedis } from '../../../src/redis/connection.js';
import { MemoryDeduper } from '../../../src/redis/dedupe.js';
import { renderBlocks } from '../../../src/render/blocks.js';
import { COMMAND_ACTION } from '../../../src/render/paging.js';
import { createSccClient, type SccClient } from '../../../src/scc/client.js';
import { registerApprovalListeners } from '../../../src/slack/actions/approvals.js';
import { actionPattern } from '../../../src/slack/actions/interaction.js';
import { SlackApprovalNotifier } from '../../../src/slack/approvalNotifier.js';
import { actorWithOrigin, workspaceBinding } from '../../../src/slack/workspaceBinding.js';
import { freePort } from '../../support/redisServer.js';
import { BOT_TOKEN, CATALOGUE, lookup, policyAccess, SIGNING_SECRET, TEAM } from './world.js';

export interface BotOptions {
  /** The look at devices' certificates (the simulator's management endpoint), for the request and the run. */
  certificates?: CertificateProbe;
  /** The run's Redis, or a deployment's configuration (Sentinel, in the failover tests). */
  redisUrl: string | RedisConfig;
  prefix: string;
  slackApiUrl: string;
  sccBaseUrl: string;
  sccToken: string;
  /** Other SCC profiles beside `default`, by name: their tokens (a customer channel's tenant profile). */
  profiles?: Record<string, string>;
  clock?: () => number;
  settings?: ApprovalSettingsInput;
  /** Who holds which role (default: world.ts's POLICY); tests change it to take a role away. */
  access?: AccessControl;
  /** The real tracking queue, to follow what is recorded (default: only recorded). */
  tracking?: Tracker;
  /** Where deploys keep running configurations (the workers' store; default: none kept). */
  snapshots?: ConfigSnapshots;
  /** Timed work (the workers' store; default: none): the reminder before a held run waits there. */
  timed?: TimedWork;
  /** Device holds (the workers' store; default: none kept, so nothing is ever held). */
  holds?: DeviceHolds;
  /** The records of the access rules fwbot created (the workers' store; default: none kept). */
  accessRecords?: AccessRecordStore;
  /** The file's `changes` (change windows, tickets), as the dispatcher and the executor get it. */
  changes?: ChangeSettings;
  /** The file's `response` (the responder's fast path; default: the file's default, 4h and disconnect alone). */
  response?: ResponseSettings;
  /** The file's `upgrades` (smoke traces), as the dispatcher and the executor get it. */
  upgrades?: UpgradeSettings;
  /** The file's `access` (risk policy, recertification, `time_range_for_expiry`), as the dispatcher gets it. */
  accessRequests?: AccessRequestPolicy;
  /**
   * The workspace binding in front of every listener, as the bot has it (src/slack/workspaceBinding.ts):
   * a Slack Connect channel's external people are let in where the policy admits them, and marked external.
   */
  bindWorkspace?: boolean;
}

/** Records what the tracking queue was handed (the queue itself is src/jobs/'s and tested there). */
export class RecordingTracker implements Tracker {
  readonly follows: { request: TrackRequest; thread: ThreadRef }[] = [];
  readonly #waiting: { threadTs: string; resolve: (followed: Followed) => void }[] = [];
  /** Calls that fail before the recorder accepts one: a tracking queue that is down for a while. */
  failures = 0;
  attempts = 0;

  readonly #attemptWaiters: { count: number; resolve: () => void }[] = [];

  constructor(
    private readonly forward?: Tracker,
    /** Where a timed item learns its thread when nothing is forwarded (the world's timed work). */
    private readonly timed?: Pick<TimedWork, 'speakIn'>,
  ) {}

  /** Resolves once `follow` has been called `count` times, failed calls included. */
  attempted(count: number): Promise<void> {
    if (this.attempts >= count) return Promise.resolve();
    return new Promise((resolve) => this.#attemptWaiters.push({ count, resolve }));
  }

  async follow(request: TrackRequest, thread: ThreadRef): Promise<void> {
    this.attempts += 1;
    for (const waiter of this.#attemptWaiters.filter((w) => w.count <= this.attempts)) waiter.resolve();
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('tracking queue unavailable');
    }
    await this.forward?.follow(request, thread);
    const followed = { request, thread };
    this.follows.push(followed);
    for (const waiter of this.#waiting.filter((w) => w.threadTs === thread.threadTs))
      waiter.resolve(followed);
  }

  /** Timed items handed the thread of an announcement (forwarded to the real tracker when there is one). */
  readonly placed: { ref: TimedRef; thread: ThreadRef }[] = [];

  async speakIn(ref: TimedRef, thread: ThreadRef): Promise<void> {
    if (this.forward) await this.forward.speakIn(ref, thread);
    else await this.timed?.speakIn(ref, thread);
    this.placed.push({ ref, thread });
  }

  /** Resolves with the first thing followed in that thread (already, or when it comes). */
  followedIn(threadTs: string): Promise<Followed> {
    const seen = this.follows.find((f) => f.thread.threadTs === threadTs);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiting.push({ threadTs, resolve }));
  }
}

type Followed = { request: TrackRequest; thread: ThreadRef };

export interface Bot {
  app: App;
  approvals: Approvals;
  /** The dispatcher its /fw listener hands commands to (a test may hand it invocations of its own). */
  dispatcher: Dispatcher;
  eventsUrl: string;
  redis: Redis;
  scc: SccClient;
  tracker: RecordingTracker;
  stop(): Promise<void>;
}

/** One server's connection, or the current primary's of a Sentinel deployment (following its failovers). */
function connect(target: string | RedisConfig): Redis {
  if (typeof target === 'string') return new Redis(target, { maxRetriesPerRequest: null });
  const client = connectRedis(target);
  if (!(client instanceof Redis)) throw new Error('the approvals test bot runs on one server or Sentinel');
  // While the sentinels promote a replica the old primary's connection errors; commands wait meanwhile.
  client.on('error', () => undefined);
  return client;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const redis = connect(options.redisUrl);
  const scc = createSccClient({ baseUrl: options.sccBaseUrl, token: options.sccToken, profile: 'default' });
  const others = new Map(
    Object.entries(options.profiles ?? {}).map(
      ([name, token]) =>
        [name, createSccClient({ baseUrl: options.sccBaseUrl, token, profile: name })] as const,
    ),
  );
  const clients: SccClients = {
    names: () => ['default', ...others.keys()],
    get: (name) => others.get(name) ?? scc,
  };
  const logger = pino({ level: process.env.APPROVALS_TEST_LOG ?? 'silent' });
  const tracker = new RecordingTracker(options.tracking, options.timed);
  const receiver = new HTTPReceiver({ signingSecret: SIGNING_SECRET });
  const app = new App({ token: BOT_TOKEN, receiver, clientOptions: { slackApiUrl: options.slackApiUrl } });
  const access = options.access ?? policyAccess();
  const authorizer = authorizerFrom(access);
  if (options.bindWorkspace)
    app.use(
      workspaceBinding({
        whoAmI: async () => ({ teamId: TEAM }),
        configured: { teamId: TEAM },
        admitsExternal: (channelId, bound) => access.admitsExternal(channelId, bound),
        log: logger,
      }).middleware,
    );
  const reveals = new RedisRevealGrants(redis, options.prefix);
  const approvals = createApprovals({
    redis,
    prefix: options.prefix,
    notifier: new SlackApprovalNotifier(app.client, logger),
    clients,
    lookup,
    tracker,
    authorizer,
    reveals,
    ...(options.snapshots ? { snapshots: options.snapshots } : {}),
    ...(options.timed ? { timed: options.timed } : {}),
    ...(options.holds ? { holds: options.holds } : {}),
    ...(options.certificates ? { certificates: options.certificates } : {}),
    ...(options.accessRecords ? { accessRecords: options.accessRecords } : {}),
    settings: options.settings ?? {},
    ...(options.changes ? { changes: options.changes } : {}),
    ...(options.upgrades ? { upgrades: options.upgrades } : {}),
    ...(options.accessRequests ? { accessRequests: options.accessRequests } : {}),
    logger,
    clock: options.clock,
    secrets: [options.sccToken, BOT_TOKEN, SIGNING_SECRET],
  });
  registerApprovalListeners(app, {
    decisions: approvals.decide,
    notifier: new SlackApprovalNotifier(app.client, logger),
    dedupe: new MemoryDeduper(),
    log: logger,
  });
  const settings = ApprovalSettings.parse(options.settings ?? {});

  const dispatcher = new Dispatcher({
    access,
    scc: clients,
    lookup,
    governance: governanceOf(CATALOGUE.operations, settings.operations),
    approvals: approvals.gate,
    reveals,
    audit: approvals.audit,
    services: {
      audit: approvals.audit,
      staging: approvals.staging,
      scheduled: approvals.scheduled,
      ...(options.snapshots ? { snapshots: options.snapshots } : {}),
      ...(options.timed ? { timed: options.timed } : {}),
      ...(options.holds ? { holds: options.holds } : {}),
      ...(options.certificates ? { certificates: options.certificates } : {}),
      ...(options.accessRecords ? { accessRecords: options.accessRecords } : {}),
    },
    policy: {
      deployWithChange: settings.deployWithChange,
      ...(options.changes ? { changes: options.changes } : {}),
      ...(options.response ? { response: options.response } : {}),
      ...(options.upgrades ? { upgrades: options.upgrades } : {}),
      ...(options.accessRequests ? { accessRequests: options.accessRequests } : {}),
    },
    // The executor's clock: what the card says of time is what the executor does.
    ...(options.clock ? { clock: options.clock } : {}),
    log: logger,
  });

  app.command('/fw', async ({ ack, command, respond, context }) => {
    await ack();
    const request = {
      requestId: `req-${Date.now()}`,
      // As the bot's listeners do: the workspace binding's word on who asks (an external person stays one).
      actor: actorWithOrigin(
        { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id },
        context,
      ),
      log: logger,
    };
    try {
      const { op, raw } = CATALOGUE.parse(command.text);
      const result = await dispatcher.dispatch(
        { op, raw, commandText: `/fw ${command.text}`, entry: 'command' },
        request,
      );
      if (result.kind === 'approval') {
        await respond({ text: 'Asked for approval.' });
        return;
      }
      if (result.kind !== 'outcome') throw new Error(`unexpected ${result.kind}`);
      const { text, blocks } = renderBlocks(result.outcome.view);
      await respond({ text, blocks });
    } catch (error) {
      await respond({ text: error instanceof UserError ? error.message : `failed: ${String(error)}` });
    }
  });

  // A command button (`fw.command`: *Extend…*, *Remove now…*) as the bot's own listener reads it
  // (src/slack/actions/command.ts): the button's command, dispatched as a `button` entry by the clicker.
  app.action(actionPattern(COMMAND_ACTION), async ({ ack, body, respond, context }) => {
    await ack();
    const click = body as { user: { id: string }; channel?: { id: string }; team?: { id: string } | null };
    const value = (body as { actions?: { value?: string }[] }).actions?.[0]?.value ?? '';
    const request = {
      requestId: `req-${Date.now()}`,
      actor: actorWithOrigin(
        { userId: click.user.id, channelId: click.channel?.id ?? '', teamId: click.team?.id },
        context,
      ),
      log: logger,
    };
    try {
      const result = await dispatcher.dispatch(commandButtonInvocation(CATALOGUE, value), request);
      if (result.kind === 'approval') {
        await respond({ text: 'Asked for approval.' });
        return;
      }
      if (result.kind !== 'outcome') throw new Error(`unexpected ${result.kind}`);
      const { text, blocks } = renderBlocks(result.outcome.view);
      await respond({ text, blocks });
    } catch (error) {
      await respond({ text: error instanceof UserError ? error.message : `failed: ${String(error)}` });
    }
  });

  const port = await freePort();
  await app.start(port);
  return {
    app,
    approvals,
    dispatcher,
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    redis,
    scc,
    tracker,
    async stop() {
      await approvals.close();
      await app.stop();
      await scc.close();
      for (const other of others.values()) await other.close();
      redis.disconnect();
    },
  };
}
