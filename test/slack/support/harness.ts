// End-to-end rig for the Slack surface: the real Bolt app from createFwbotApp in HTTP mode on a free
// port, receiving signed requests like Slack sends them; the fake Slack Web API recording every call;
// the SCC simulator on port 0 with a manual clock behind real SCC clients; stand-in tracker and approval
// gate that record what they are handed; and every log line captured, to check what never reaches it.
import { EventEmitter } from 'node:events';
import { instrumentBolt, instrumentCatalogue } from '../../../src/app/instrument.js';
import { createLogger } from '../../../src/app/logger.js';
import { sccClientsFrom } from '../../../src/app/sccClients.js';
import { createCatalogue } from '../../../src/catalogue/index.js';
import type {
  OperationPolicy,
  OperationServices,
  TimedRef,
  TrackRequest,
} from '../../../src/catalogue/operation.js';
import type { RoleGrants, RolePolicy } from '../../../src/config/policy.js';
import type { ChangeSettings, ChannelBinding } from '../../../src/config/profilesFileSchema.js';
import { Dispatcher } from '../../../src/dispatch/dispatcher.js';
import { governanceOf } from '../../../src/dispatch/governance.js';
import type {
  ApprovalGate,
  ApprovalRequestInput,
  AuditEntry,
  AuditSink,
  OperationQueue,
  ThreadRef,
  Tracker,
} from '../../../src/dispatch/ports.js';
import { MemoryRevealGrants } from '../../../src/dispatch/reveals.js';
import type { CommandIntake } from '../../../src/jobs/commandQueue.js';
import { contextualDestination } from '../../../src/observability/logContext.js';
import type { FwbotMetrics } from '../../../src/observability/metrics.js';
import { AccessControl } from '../../../src/policy/access.js';
import { UserGroupDirectory } from '../../../src/policy/userGroups.js';
import { MemoryDeduper } from '../../../src/redis/dedupe.js';
import { createSccClient, type SccClient } from '../../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { createFwbotApp, type FwbotApp, type SlackSettings } from '../../../src/slack/app.js';
import { type FwbotDeps, type SurfaceDeps, surfaceOf } from '../../../src/slack/deps.js';
import {
  type FakeSlack,
  type FakeSlackOptions,
  type RecordedCall,
  startFakeSlack,
} from '../../support/fakeSlack.js';
import {
  type FakeSocketMode,
  type FakeSocketModeOptions,
  startFakeSocketMode,
} from '../../support/fakeSocketMode.js';
import { freePort } from '../../support/redisServer.js';
import {
  interactionBody,
  postSigned,
  type SignedRequestOptions,
  type SlackHttpResponse,
  slashCommandBody,
} from '../../support/slackRequests.js';
import { startMembershipProxy } from './membershipProxy.js';

export const SIGNING_SECRET = 'harness-signing-secret';
export const BOT_TOKEN = 'xoxb-harness-bot-token';

/** Slack ids shaped like the real ones (the policy format checks them). */
export const USERS = {
  viewer: 'U0VIEWER001',
  operator: 'U0OPERATOR1',
  admin: 'U0ADMIN0001',
  outsider: 'U0OUTSIDE01',
  groupMember: 'U0GROUPIE01',
} as const;
export const CHANNEL = 'C0OPS000001';
export const LAB_CHANNEL = 'C0LAB000001';
export const OPERATORS_GROUP = 'S0OPERATORS';

function grants(partial: Partial<RoleGrants>): RoleGrants {
  return { viewer: [], operator: [], approver: [], admin: [], ...partial };
}

/** The policy most tests run under: everyone reads, one operator, one admin, a group of operators. */
export const STANDARD_POLICY: RolePolicy = {
  workspace: grants({ viewer: ['*'], operator: [USERS.operator, OPERATORS_GROUP], admin: [USERS.admin] }),
  channels: new Map(),
};

export class RecordingTracker implements Tracker {
  readonly follows: { request: TrackRequest; thread: ThreadRef }[] = [];
  /** Timed items handed the thread of an announcement, and that thread. */
  readonly placed: { ref: TimedRef; thread: ThreadRef }[] = [];
  private readonly events = new EventEmitter();
  async speakIn(ref: TimedRef, thread: ThreadRef): Promise<void> {
    this.placed.push({ ref, thread });
  }
  async follow(request: TrackRequest, thread: ThreadRef): Promise<void> {
    this.follows.push({ request, thread });
    this.events.emit('follow');
  }
  /** Resolves once `count` follows have been recorded. */
  until(count: number, timeoutMs = 5000): Promise<void> {
    if (this.follows.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.follows.length < count) return;
        clearTimeout(timer);
        this.events.off('follow', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.events.off('follow', check);
        reject(new Error(`only ${this.follows.length} of ${count} follows within ${timeoutMs} ms`));
      }, timeoutMs);
      this.events.on('follow', check);
    });
  }
}

export class RecordingGate implements ApprovalGate {
  readonly requests: ApprovalRequestInput[] = [];
  async request(input: ApprovalRequestInput): Promise<{ approvalId: string }> {
    this.requests.push(input);
    return { approvalId: `ap-recorded-${this.requests.length}` };
  }
}

export interface HarnessOptions {
  policy?: RolePolicy | null;
  tracker?: Tracker;
  approvals?: ApprovalGate;
  /** The operations' queues (tenant creation); without one, queued operations run at once. */
  queue?: OperationQueue;
  /** The policy file's `approvals.operations` (e.g. `{ 'vpn.upgrade': 'four-eyes' }`). */
  approvalRules?: Record<string, string>;
  /** Where audited calls are recorded (default: a recording sink, `audit`). */
  audit?: AuditSink;
  /** Redis-backed services some operations use (watches), as the bot passes them. */
  services?: OperationServices;
  optionsDeadlineMs?: number;
  /** How long a fitted form waits for SCC before opening as "Loading…" (0: at once). */
  formDeadlineMs?: number;
  /**
   * Wires the app as the bot does (src/app/bot.ts): the catalogue instrumented, acks timed under a log
   * context with an event id, and permission refusals counted.
   */
  metrics?: FwbotMetrics;
  /**
   * Profile → simulator token; `default` is the super-admin unless given. A function of the simulator mints
   * tokens of its tenants (`sim.mintTenantToken`); those last until the simulator is reset.
   */
  tokens?: Record<string, string> | ((sim: SimulatorHandle) => Record<string, string>);
  channelProfiles?: Record<string, string>;
  /** Channel bindings in the object form (customer channels: `{ profile, tenant, tenantProfile }`). */
  channelBindings?: Record<string, ChannelBinding>;
  /** Channels the bot is not a member of: chat.postMessage there answers not_in_channel. */
  notMemberOf?: string[];
  /** Profiles whose client points somewhere other than the simulator (e.g. nowhere). */
  baseUrls?: Record<string, string>;
  /** Hands /fw commands to command workers through Redis, as the bot does (commandQueue.ts). */
  commandIntake?: CommandIntake;
  /** What the policy file decides for operations (src/app/surface.ts passes the loaded file's). */
  operationPolicy?: OperationPolicy;
  /** The workspace binding's settings (configured ids, the audit of refusals). */
  workspace?: SlackSettings['workspace'];
  /**
   * What the fake Slack's auth.test says about the bot token (its team by default: T0FAKE), and which
   * channels its conversations.info says are shared with another organization (Slack Connect).
   */
  fakeSlack?: Pick<FakeSlackOptions, 'teamId' | 'enterpriseId' | 'appId' | 'sharedChannels'>;
  /**
   * Socket Mode instead of HTTP: the app connects to a fake Socket Mode server on the fake Slack (`socket`),
   * and envelopes are sent there (command() and interact() post to HTTP mode only).
   */
  socketMode?: FakeSocketModeOptions & { pongTimeoutMs?: number };
  /** HTTP mode: what unverified bodies may cost (src/slack/bodyLimit.ts), e.g. a short read timeout. */
  bodyLimits?: SlackSettings['bodyLimits'];
  /** The clock operations read (OperationContext.now), as the approvals' executor's would be. */
  clock?: () => number;
  /** The policy file's `changes` (change windows, tickets), as the dispatcher gets it. */
  changes?: ChangeSettings;
}

export interface CommandOptions {
  userId?: string;
  /** The team the command comes from (default T0FAKE, the bot's): another one for an external person. */
  teamId?: string;
  channelId?: string;
  triggerId?: string;
  signed?: SignedRequestOptions;
  headers?: Record<string, string>;
}

export interface Harness {
  slack: FakeSlack;
  /** The fake Socket Mode server, with the socketMode option. */
  socket: FakeSocketMode | undefined;
  sim: SimulatorHandle;
  app: FwbotApp;
  /** What the surface runs on, with the app's Slack API: what a command worker needs. */
  surfaceDeps: SurfaceDeps;
  eventsUrl: string;
  tracker: RecordingTracker;
  gate: RecordingGate;
  /** The audit records the dispatcher wrote (when no other sink was given). */
  audit: AuditEntry[];
  logs: string[];
  /** Resolves with the first log line (past or future) that contains `text`. */
  waitForLog(text: string, timeoutMs?: number): Promise<string>;
  clients: Map<string, SccClient>;
  /** Sends /fw <text>; resolves with the HTTP answer and the response_url the command carried. */
  command(text: string, options?: CommandOptions): Promise<{ http: SlackHttpResponse; responseUrl: string }>;
  /** Sends an interaction payload (block_actions, view_submission, block_suggestion). */
  interact(payload: Record<string, unknown>, signed?: SignedRequestOptions): Promise<SlackHttpResponse>;
  /**
   * The form opened for a trigger id: the views.open, or — for a form fitted to what it edits — the
   * views.update that replaced its "Loading…" view.
   */
  openedModal(triggerId: string): Promise<{ view: Record<string, unknown>; viewId: string }>;
  /** The next post to that response_url (recorded by the fake). */
  reply(responseUrl: string, nth?: number): Promise<RecordedCall>;
  stop(): Promise<void>;
}

let triggerCounter = 0;
export function newTriggerId(): string {
  triggerCounter += 1;
  return `trigger-${process.pid}-${triggerCounter}`;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const slack = await startFakeSlack({
    ...options.fakeSlack,
    userGroups: { [OPERATORS_GROUP]: [USERS.groupMember] },
  });
  const sim = await startSimulator({ port: 0, clock: 'manual' });
  const logs: string[] = [];
  const logEvents = new EventEmitter();
  logEvents.setMaxListeners(0);
  // As the bot's logger: lines written while an interaction is handled carry its context (eventId).
  const log = createLogger(
    'debug',
    contextualDestination({
      write: (line: string) => {
        logs.push(line);
        logEvents.emit('line', line);
      },
    }),
  );
  const given = typeof options.tokens === 'function' ? options.tokens(sim) : options.tokens;
  const tokens = { default: sim.tokens.superAdmin, ...given };
  const clients = new Map<string, SccClient>();
  for (const [profile, token] of Object.entries(tokens)) {
    // No retries: the rig does not wait on backoff it is not testing.
    clients.set(
      profile,
      createSccClient({
        baseUrl: options.baseUrls?.[profile] ?? sim.url,
        token,
        profile,
        retry: { maxAttempts: 1 },
        logger: log.child({ component: 'scc' }),
      }),
    );
  }
  const scc = sccClientsFrom(clients);
  const slackApiForGroups = { current: undefined as FwbotApp | undefined };
  const groups = new UserGroupDirectory({
    log,
    fetchMembers: async (group) => {
      const app = slackApiForGroups.current;
      if (!app) throw new Error('app not started');
      return app.slack.userGroupMembers(group);
    },
  });
  const access = new AccessControl(
    {
      policy: options.policy === undefined ? STANDARD_POLICY : options.policy,
      channels: new Map([
        ...Object.entries(options.channelProfiles ?? {}).map(([id, profile]) => [id, { profile }] as const),
        ...Object.entries(options.channelBindings ?? {}),
      ]),
      // As the bot passes them (src/app/surface.ts): channels bound to a tenant admit external people.
      customerChannels: new Set(
        Object.entries(options.channelBindings ?? {})
          .filter(([, binding]) => binding.tenant !== undefined)
          .map(([id]) => id),
      ),
      profiles: [...clients.keys()],
    },
    groups,
  );
  const tracker = new RecordingTracker();
  const gate = new RecordingGate();
  const base = createCatalogue();
  const catalogue = options.metrics ? instrumentCatalogue(base, options.metrics) : base;
  const audit: AuditEntry[] = [];
  const dispatcher = new Dispatcher({
    access,
    scc,
    lookup: (id) => catalogue.get(id),
    governance: governanceOf(catalogue.operations, options.approvalRules ?? {}),
    approvals: options.approvals ?? gate,
    reveals: new MemoryRevealGrants(),
    audit: options.audit ?? { record: async (entry) => void audit.push(entry) },
    ...(options.queue ? { queue: options.queue } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.services ? { services: options.services } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.changes || options.operationPolicy
      ? {
          policy: {
            ...options.operationPolicy,
            ...(options.changes ? { changes: options.changes } : {}),
          },
        }
      : {}),
    log,
  });
  const deps: FwbotDeps = {
    catalogue,
    scc,
    access,
    tracker: options.tracker ?? tracker,
    dispatcher,
    dedupe: new MemoryDeduper(),
    log,
    ...(options.optionsDeadlineMs ? { optionsDeadlineMs: options.optionsDeadlineMs } : {}),
    ...(options.formDeadlineMs !== undefined ? { formDeadlineMs: options.formDeadlineMs } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.commandIntake ? { commandIntake: options.commandIntake } : {}),
  };
  const port = await freePort();
  const proxy = options.notMemberOf ? await startMembershipProxy(slack.url, options.notMemberOf) : undefined;
  const socket = options.socketMode ? await startFakeSocketMode(slack, options.socketMode) : undefined;
  const app = createFwbotApp(deps, {
    botToken: BOT_TOKEN,
    ...(socket
      ? { appToken: socket.appToken, pongTimeoutMs: options.socketMode?.pongTimeoutMs }
      : { signingSecret: SIGNING_SECRET }),
    port,
    slackApiUrl: proxy?.apiUrl ?? slack.apiUrl,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.bodyLimits ? { bodyLimits: options.bodyLimits } : {}),
  });
  if (options.metrics) instrumentBolt(app.app, options.metrics);
  slackApiForGroups.current = app;
  await app.start();
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;

  return {
    slack,
    socket,
    sim,
    app,
    surfaceDeps: surfaceOf(deps, app.slack),
    eventsUrl,
    tracker,
    gate,
    audit,
    logs,
    waitForLog(text, timeoutMs = 5000) {
      const seen = logs.find((line) => line.includes(text));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onLine = (line: string) => {
          if (!line.includes(text)) return;
          clearTimeout(timer);
          logEvents.off('line', onLine);
          resolve(line);
        };
        const timer = setTimeout(() => {
          logEvents.off('line', onLine);
          reject(new Error(`no log line containing "${text}" within ${timeoutMs} ms`));
        }, timeoutMs);
        logEvents.on('line', onLine);
      });
    },
    clients,
    async command(text, command = {}) {
      // fwbot posts only to response URLs at its Slack API's origin: the membership proxy's, when there is one.
      const responseUrl = proxy
        ? slack.responseUrl().replace(slack.url, new URL(proxy.apiUrl).origin)
        : slack.responseUrl();
      const body = slashCommandBody({
        text,
        responseUrl,
        userId: command.userId ?? USERS.operator,
        channelId: command.channelId ?? CHANNEL,
        triggerId: command.triggerId ?? newTriggerId(),
        ...(command.teamId ? { teamId: command.teamId } : {}),
      });
      const signed = command.headers ? { ...command.signed, headers: command.headers } : command.signed;
      const http = await postSigned(eventsUrl, SIGNING_SECRET, body, signed);
      return { http, responseUrl };
    },
    async openedModal(triggerId) {
      const opened = await slack.waitFor((c) => c.method === 'views.open' && c.args.trigger_id === triggerId);
      const view = opened.args.view as Record<string, unknown>;
      if (view.callback_id !== 'fw.notice') return { view, viewId: 'V-opened' };
      const at = slack.calls.indexOf(opened);
      const updated = await slack.waitFor((c) => c.method === 'views.update' && slack.calls.indexOf(c) > at);
      return { view: updated.args.view as Record<string, unknown>, viewId: String(updated.args.view_id) };
    },
    interact: (payload, signed) => postSigned(eventsUrl, SIGNING_SECRET, interactionBody(payload), signed),
    reply(responseUrl, nth = 0) {
      const id = responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
      const matching = (call: RecordedCall) =>
        call.method === 'response_url' && call.args.responseUrlId === id;
      return slack.waitFor(
        (call) => matching(call) && slack.calls.filter(matching).indexOf(call) === nth,
        10_000,
      );
    },
    async stop() {
      await app.stop();
      await socket?.stop();
      await proxy?.stop();
      await Promise.all([...clients.values()].map((client) => client.close()));
      await sim.stop();
      await slack.stop();
    },
  };
}

/** Every text a message carries (fallback, sections, fields, context), joined: what a person reads. */
export function textOf(args: Record<string, unknown>): string {
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'text' && typeof inner === 'string') parts.push(inner);
      else visit(inner);
    }
  };
  visit(args);
  return parts.join('\n');
}

/** The text of a message's blocks only (without the notification fallback). */
export function blocksText(args: Record<string, unknown>): string {
  return textOf({ blocks: args.blocks });
}

/** Buttons of a recorded message: action id, label and value. */
export function buttonsOf(
  args: Record<string, unknown>,
): { actionId: string; label: string; value?: string; url?: string }[] {
  const blocks = Array.isArray(args.blocks) ? args.blocks : [];
  const out: { actionId: string; label: string; value?: string; url?: string }[] = [];
  for (const block of blocks as { type?: string; elements?: unknown[] }[]) {
    if (block.type !== 'actions') continue;
    for (const element of (block.elements ?? []) as Record<string, unknown>[]) {
      const text = element.text as { text?: string } | undefined;
      out.push({
        actionId: String(element.action_id),
        label: text?.text ?? '',
        ...(typeof element.value === 'string' ? { value: element.value } : {}),
        ...(typeof element.url === 'string' ? { url: element.url } : {}),
      });
    }
  }
  return out;
}

/** A block_actions payload for clicking `button` in the channel, as `userId`. */
export function clickPayload(
  button: { actionId: string; value?: string },
  userId: string,
  responseUrl: string,
  channelId: string = CHANNEL,
): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: userId },
    team: { id: 'T0FAKE' },
    channel: { id: channelId },
    container: { type: 'message', is_ephemeral: true },
    trigger_id: newTriggerId(),
    response_url: responseUrl,
    actions: [
      { action_id: button.actionId, block_id: 'b', type: 'button', value: button.value, action_ts: '1' },
    ],
  };
}
