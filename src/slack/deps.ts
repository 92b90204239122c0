// What the Slack surface needs from the rest of fwbot, passed in (never reached for as globals), so tests
// run the real Bolt app with a simulator, a fake Slack server and stand-in trackers and approval gates.
import type { Logger } from 'pino';
import type { ApprovalDecider } from '../approvals/decisions.js';
import type { Catalogue } from '../catalogue/index.js';
import type { Operation, OperationServices } from '../catalogue/operation.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { SccClients, Tracker } from '../dispatch/ports.js';
import type { CommandIntake } from '../jobs/commandQueue.js';
import type { WorkspaceRef } from '../model/workspace.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { AccessControl } from '../policy/access.js';
import type { Deduper } from '../redis/dedupe.js';
import type { SlackApi } from '../slackApi/slackApi.js';

export interface FwbotDeps {
  /** The operations, the /fw grammar, help and usage lines (src/catalogue/index.ts). */
  catalogue: Catalogue;
  /** One SCC client per configured profile. */
  scc: SccClients;
  /** The one permission check (roles, channel → profile binding, admin override). */
  access: AccessControl;
  /** Follows 202 answers to their end in the announcement's thread (issue 5). */
  tracker: Tracker;
  /**
   * Applies each operation's declaration (role, approval, reveal, queue, audit) for every call; the
   * surface only delivers what it returns (src/dispatch/dispatcher.ts).
   */
  dispatcher: Dispatcher;
  /**
   * Hands /fw commands that open no modal to the command workers through Redis (the bot always has one).
   * Without it they run in this process after the ack (tests of the surface, the console's twin paths).
   */
  commandIntake?: CommandIntake;
  /** Drops Slack's retries and double deliveries of one interaction. */
  dedupe: Deduper;
  log: Logger;
  /** Redis-backed services some operations use (watches, audit), when running. */
  services?: OperationServices;
  /** The approvals' decisions, which the approval card's buttons and reject form ask for. */
  approvals?: { decide: ApprovalDecider };
  /**
   * Counts refusals of the permission check (`fwbot_commands_total{outcome="denied"}`): a refused command
   * never reaches execute(), so the instrumented catalogue cannot see it.
   */
  metrics?: FwbotMetrics;
  /** The App Home tab (src/home/): published when a person opens it. Absent: fwbot has no Home. */
  home?: HomeSurface;
  /** How long a select-options lookup may take before answering with what it has (Slack waits 3 s). */
  optionsDeadlineMs?: number;
  /**
   * How long a form fitted to what it edits waits for SCC before opening as "Loading…" (views/open.ts,
   * default 1 s); 0 opens "Loading…" at once.
   */
  formDeadlineMs?: number;
}

/** What the Slack surface asks of the App Home. */
export interface HomeSurface {
  /** The person opened their Home tab in a workspace: publish it for them there now (and keep it updated). */
  opened(userId: string, workspace?: WorkspaceRef): Promise<unknown>;
}

/** What each surface's listeners get: the deps, the Slack API wrapper, and operations by id. */
export interface SurfaceDeps extends FwbotDeps {
  /** Answers the request in hand: in Bolt, with the client Bolt gave it (the workspace's own token). */
  slack: SlackApi;
  /**
   * Answers a request of this workspace outside Bolt (a queued command's worker): the workspace's client
   * (src/slackApi/clientsByTeam.ts). Single-workspace mode: `slack`, whatever the workspace.
   */
  slackFor(team: WorkspaceRef): SlackApi;
  operation(id: string): Operation | undefined;
}

/** The surface's deps: FwbotDeps with the Slack API they answer through, and operations by id. */
export function surfaceOf(
  deps: FwbotDeps,
  slack: SlackApi,
  slackFor: (team: WorkspaceRef) => SlackApi = () => slack,
): SurfaceDeps {
  return { ...deps, slack, slackFor, operation: (id) => deps.catalogue.get(id) };
}
