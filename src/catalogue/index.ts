// The registry: every operation of fwbot, and what the surfaces derive from it (the grammar, help, the
// docs' command table). Code outside src/catalogue/ reaches operations only through it (by id, or by
// parsing command text), never through an area's file, the grammar or help; besides this module it may
// import only the shapes and helpers operations share: the declaration (operation.ts, which gathers the
// types of context.ts, modal.ts, queue.ts and services.ts), a form's fields as shown (forms.ts), SCC's
// refusals as sentences (sccErrors.ts), usage lines (usage.ts), the argument helpers that form fields
// and option lookups use (args.ts, resolve.ts), the change ticket a changing call carries (tickets.ts), the
// kinds of timed work with their registry (timed/index.ts), and what a device hold is (deviceHolds.ts).
// test/architecture/ holds it to that.
import { ConfigError, type ConfigIssue } from '../config/issues.js';
import { ROLES, type Role } from '../model/types.js';
import type { View } from '../model/view.js';
import { ACCESS_LIFECYCLE_OPERATIONS } from './accessLifecycle.js';
import { ACCESS_RECERTIFICATION_OPERATIONS } from './accessRecertification.js';
import { ACCESS_REQUEST_OPERATIONS } from './accessRequest.js';
import { ALERT_OPERATIONS } from './alerts.js';
import { auditOperation } from './audit.js';
import { EVENT_LOG_OPERATIONS } from './changelog.js';
import { CHANGE_REQUEST_OPERATIONS } from './changeRequests.js';
import { CHANGE_OPERATIONS } from './changes.js';
import { CONFIG_HISTORY_OPERATIONS } from './configHistory.js';
import { DEVICE_CONNECTION_OPERATIONS } from './deviceConnection.js';
import { DEVICE_OPERATIONS } from './devices.js';
import { upgrade } from './deviceUpgrade.js';
import { GATEWAY_OPERATIONS } from './gateway.js';
import { createGrammar, type ParsedCommand, wantsModal } from './grammar.js';
import { commandTable, defineHelpOperation, helpOverview, helpTopic } from './help.js';
import { HOLD_OPERATIONS } from './holds.js';
import { INTERFACE_CHANGE_OPERATIONS } from './interfaceChanges.js';
import { INTERFACE_OPERATIONS } from './interfaces.js';
import { LOOKUP_OPERATIONS } from './lookups.js';
import { MSP_OPERATIONS } from './msp.js';
import type { Operation, RawArgs, ServiceName } from './operation.js';
import { REPORT_OPERATIONS } from './reports.js';
import { RULE_CHANGE_OPERATIONS } from './ruleChanges.js';
import { SCHEDULED_DEPLOY_OPERATIONS } from './scheduledDeploys.js';
import { SERVICE_WORDS } from './services.js';
import { SHUN_OPERATIONS } from './shuns.js';
import { TENANT_OPERATIONS } from './tenants.js';
import { TENANT_USER_OPERATIONS } from './tenantUsers.js';
import { TRACE_OPERATIONS } from './trace.js';
import { TRANSACTION_OPERATIONS } from './transactions.js';
import { UPGRADE_OPERATIONS } from './upgrades.js';
import { COMMAND, commandLine, usageLine } from './usage.js';
import { VPN_OPERATIONS } from './vpn.js';
import { VPN_SESSION_OPERATIONS } from './vpnSessions.js';
import { WATCH_OPERATIONS } from './watches.js';

/**
 * Every operation except help, area by area. An operation is added where it is declared: its area
 * file's list (and its renderer); nothing here names it.
 */
export const AREA_OPERATIONS: readonly Operation[] = [
  ...DEVICE_OPERATIONS,
  ...DEVICE_CONNECTION_OPERATIONS,
  ...TENANT_OPERATIONS,
  ...TENANT_USER_OPERATIONS,
  ...INTERFACE_OPERATIONS,
  ...INTERFACE_CHANGE_OPERATIONS,
  ...CHANGE_OPERATIONS,
  ...CHANGE_REQUEST_OPERATIONS,
  ...TRANSACTION_OPERATIONS,
  ...CONFIG_HISTORY_OPERATIONS,
  ...SCHEDULED_DEPLOY_OPERATIONS,
  ...HOLD_OPERATIONS,
  ...EVENT_LOG_OPERATIONS,
  ...LOOKUP_OPERATIONS,
  ...RULE_CHANGE_OPERATIONS,
  ...ACCESS_REQUEST_OPERATIONS,
  ...ACCESS_LIFECYCLE_OPERATIONS,
  ...ACCESS_RECERTIFICATION_OPERATIONS,
  ...TRACE_OPERATIONS,
  ...REPORT_OPERATIONS,
  ...GATEWAY_OPERATIONS,
  ...VPN_OPERATIONS,
  ...SHUN_OPERATIONS,
  ...VPN_SESSION_OPERATIONS,
  ...MSP_OPERATIONS,
  ...UPGRADE_OPERATIONS,
  upgrade,
  ...WATCH_OPERATIONS,
  ...ALERT_OPERATIONS,
  auditOperation,
];

export interface Catalogue {
  readonly operations: readonly Operation[];
  /** The command name in usage lines and help: `/fw` on Slack, `fw` in the console. */
  readonly command: string;
  get(id: string): Operation | undefined;
  /** Command text (without the command name) → operation and raw arguments; throws UserError. */
  parse(text: string): ParsedCommand;
  help(topic?: string): View;
  usage(op: Operation): string;
  /** The command line that parses back into `raw` (the "Share in channel" button carries it). */
  commandLine(op: Operation, raw: RawArgs): string;
  /** Markdown table of every command, for docs/using/commands.md. */
  commandTable(): string;
}

export interface CatalogueOptions {
  /** The command name in usage lines and help (default `/fw`). */
  command?: string;
  /**
   * The Redis-backed services the process has (default: all of them, as the bot, a worker and the demo
   * run); operations that need one it lacks are left out (the CLI has none).
   */
  services?: readonly ServiceName[];
  /**
   * The role some operations need in this deployment (the profiles file's `policy.operations`), raised
   * above the one they declare: help, the command table, the dispatcher, queued calls and approvals all
   * see the raised role. An unknown id or a lowered role is a ConfigError naming the key.
   */
  roles?: Readonly<Record<string, Role>>;
}

/** The operations with the roles the deployment raised; refuses an unknown id and a lowered role. */
function withRaisedRoles(operations: Operation[], roles: Readonly<Record<string, Role>>): Operation[] {
  const problems: ConfigIssue[] = [];
  for (const [id, role] of Object.entries(roles)) {
    const problem = (text: string) =>
      problems.push({ source: 'FWBOT_PROFILES', key: `policy.operations.${id}`, problem: text });
    // Checked against every operation, so a process that leaves some out (the CLI) reads the same file.
    const op = AREA_OPERATIONS.find((candidate) => candidate.id === id);
    if (!op) problem(`fwbot has no operation ${id} (see /fw help)`);
    else if (ROLES.indexOf(role) < ROLES.indexOf(op.role))
      problem(`${id} needs the ${op.role} role; the policy can raise it, never lower it to ${role}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // The operation's methods close over its declaration, not over `this`: a copy with another role is whole.
  return operations.map((op) => {
    const role = roles[op.id];
    return role && role !== op.role ? { ...op, role } : op;
  });
}

export function createCatalogue(options: CatalogueOptions = {}): Catalogue {
  const command = options.command ?? COMMAND;
  const services = options.services;
  const lacking = (op: Operation) => op.needs.filter((need) => services && !services.includes(need));
  const available = AREA_OPERATIONS.filter((op) => lacking(op).length === 0);
  // Typed all the same, an operation left out is refused in one sentence that says where it runs.
  const absent = AREA_OPERATIONS.filter((op) => lacking(op).length > 0).map((op) => ({
    words: op.words,
    why: `\`${command} ${op.words.join(' ')}\` runs only in Slack and the console: it needs ${lacking(op)
      .map((need) => SERVICE_WORDS[need])
      .join(' and ')}, which this process does not keep, so nothing was done.`,
  }));
  const operations = withRaisedRoles(available, options.roles ?? {});
  operations.push(defineHelpOperation(() => operations, command));
  const byId = new Map(operations.map((op) => [op.id, op]));
  if (byId.size !== operations.length) throw new Error('two operations share an id');
  const grammar = createGrammar(operations, command, absent);
  return {
    operations,
    command,
    get: (id) => byId.get(id),
    parse: (text) => grammar.parse(text),
    help: (topic) => (topic ? helpTopic(operations, topic, command) : helpOverview(operations, command)),
    usage: (op) => usageLine(op, command),
    commandLine: (op, raw) => commandLine(op, raw, command),
    commandTable: () => commandTable(operations, command),
  };
}

export type { ParsedCommand };
export { wantsModal };
