// One fwbot process as far as approvals go: a real Bolt app in HTTP mode (signature checks on), the
// approvals service registered on it, an SCC client, its own Redis connection. `/fw` is wired the way
// the Slack surface wires it: grammar → role check → destructive ? gate.request : execute. Used in the
// test process (several at once stand for several bot processes) and by the child process of the crash
// tests.
import { App, HTTPReceiver } from '@slack/bolt';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { SccClients, ThreadRef, Tracker } from '../../../src/dispatch/ports.js';
import { type Approvals, createApprovals } from '../../../src/approvals/approvals.js';
import {
  ApprovalSettings,
  type ApprovalSettingsInput,
  requiresApproval,
} from '../../../src/approvals/settings.js';
import { UserError } from '../../../src/catalogue/errors.js';
import type { OperationContext, TrackRequest } from '../../../src/catalogue/operation.js';
import { renderBlocks } from '../../../src/render/blocks.js';
import { createSccClient, type SccClient } from '../../../src/scc/client.js';
import { freePort } from '../../support/redisServer.js';
import { BOT_TOKEN, CATALOGUE, lookup, policyAuthorizer, SIGNING_SECRET } from './world.js';

export interface BotOptions {
  redisUrl: string;
  prefix: string;
  slackApiUrl: string;
  sccBaseUrl: string;
  sccToken: string;
  clock?: () => number;
  settings?: ApprovalSettingsInput;
}

/** Records what the tracking queue was handed (the queue itself is src/jobs/'s and tested there). */
export class RecordingTracker implements Tracker {
  readonly follows: { request: TrackRequest; thread: ThreadRef }[] = [];
  readonly #waiting: { threadTs: string; resolve: (followed: Followed) => void }[] = [];
  /** Calls that fail before the recorder accepts one: a tracking queue that is down for a while. */
  failures = 0;
  attempts = 0;

  readonly #attemptWaiters: { count: number; resolve: () => void }[] = [];

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
    const followed = { request, thread };
    this.follows.push(followed);
    for (const waiter of this.#waiting.filter((w) => w.threadTs === thread.threadTs))
      waiter.resolve(followed);
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
  eventsUrl: string;
  redis: Redis;
  scc: SccClient;
  tracker: RecordingTracker;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<Bot> {
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const scc = createSccClient({ baseUrl: options.sccBaseUrl, token: options.sccToken, profile: 'default' });
  const clients: SccClients = { names: () => ['default'], get: () => scc };
  const logger = pino({ level: process.env.APPROVALS_TEST_LOG ?? 'silent' });
  const tracker = new RecordingTracker();
  const receiver = new HTTPReceiver({ signingSecret: SIGNING_SECRET });
  const app = new App({ token: BOT_TOKEN, receiver, clientOptions: { slackApiUrl: options.slackApiUrl } });
  const authorizer = policyAuthorizer();
  const approvals = createApprovals({
    redis,
    prefix: options.prefix,
    slack: app.client,
    clients,
    lookup,
    tracker,
    authorizer,
    settings: options.settings ?? {},
    logger,
    clock: options.clock,
    secrets: [options.sccToken, BOT_TOKEN, SIGNING_SECRET],
  });
  approvals.register(app);
  const settings = ApprovalSettings.parse(options.settings ?? {});

  app.command('/fw', async ({ ack, command, respond }) => {
    await ack();
    const ctx: OperationContext = {
      scc,
      profile: 'default',
      actor: { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id },
      requestId: `req-${Date.now()}`,
      log: logger,
      services: { audit: approvals.audit },
    };
    try {
      const { op, raw } = CATALOGUE.parse(command.text);
      const allowed = await authorizer({
        userId: command.user_id,
        role: op.role,
        channelId: command.channel_id,
      });
      if (!allowed) throw new UserError(`This needs the ${op.role} role.`);
      if (requiresApproval(op, settings)) {
        await approvals.gate.request({ operation: op, raw, ctx, commandText: `/fw ${command.text}` });
        await respond({ text: 'Asked for approval.' });
        return;
      }
      const outcome = await op.execute(ctx, raw);
      const { text, blocks } = renderBlocks(outcome.view);
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
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    redis,
    scc,
    tracker,
    async stop() {
      await approvals.close();
      await app.stop();
      await scc.close();
      redis.disconnect();
    },
  };
}
