// Running what the console user typed, the way the Slack surface runs /fw (src/slack/run.ts): the
// grammar, the one permission check, then one of the paths — a secret behind a "Reveal" choice, the
// approval gate for what the policy sends there, the tenant-creation queue, or the operation itself,
// whose outcome is shown privately or announced in the console's channel and followed by the tracker.
import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ApprovalGate, SccClients, TenantCreationQueue, Tracker } from '../dispatch/ports.js';
import { PermissionError, UsageError, UserError } from '../catalogue/errors.js';
import type { Catalogue } from '../catalogue/index.js';
import type {
  Operation,
  OperationContext,
  OperationServices,
  Outcome,
  RawArgs,
} from '../catalogue/operation.js';
import { usageLine } from '../catalogue/usage.js';
import { currentLogContext } from '../observability/logContext.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { AccessControl } from '../policy/access.js';
import type { Confirm, View } from '../render/view.js';
import { sharedSnapshot } from '../slack/actions/share.js';
import { explainError } from '../dispatch/errors.js';
import { extractProfileFlag, splitProfile } from '../dispatch/profileFlag.js';
import { newRequestId, type RequestContext } from '../dispatch/request.js';
import { producesSecret } from '../slack/run.js';
import { createsTenant } from '../slack/tenantCreation.js';
import type { ConsoleSlack } from './consoleSlack.js';
import { FormAbandoned, fillForm, type Prompter } from './forms.js';
import type { ConsoleUser, ConsoleWriter } from './output.js';

export interface ConsoleDeps {
  catalogue: Catalogue;
  access: AccessControl;
  scc: SccClients;
  tracker: Tracker;
  approvals: ApprovalGate;
  /** Which operations go to the approval gate (the policy's rule); default: the destructive ones. */
  requiresApproval?: (op: Operation) => boolean;
  /** Tenant creations queue behind SCC's limit when the queue runs, as on Slack. */
  tenantCreation?: TenantCreationQueue;
  /** The app the approvals' listeners are registered on (see interactions.ts). */
  bolt: Pick<App, 'processEvent'>;
  slack: ConsoleSlack;
  services?: OperationServices;
  log: Logger;
  users: readonly ConsoleUser[];
  /** The console's one channel. */
  channelId: string;
  metrics?: FwbotMetrics;
}

/** A numbered choice: a button of a view, or one the console offers itself (Reveal). */
export interface Choice {
  label: string;
  confirm?: Confirm;
  run(): Promise<void>;
}

/** Where the runner puts the buttons of what it showed (the session numbers them). */
export interface ChoiceSink {
  offerView(view: View, messageTs: string | undefined): void;
  offer(choices: Choice[]): void;
}

export interface Invocation {
  op: Operation;
  raw: RawArgs;
  commandText: string;
  profile?: string | undefined;
  form?: boolean;
}

export class ConsoleRunner {
  readonly #deps: ConsoleDeps;
  readonly #io: Prompter;
  readonly #write: ConsoleWriter;
  readonly #actingUser: () => ConsoleUser;
  readonly #choices: ChoiceSink;

  constructor(
    deps: ConsoleDeps,
    io: Prompter,
    write: ConsoleWriter,
    actingUser: () => ConsoleUser,
    choices: ChoiceSink,
  ) {
    this.#deps = deps;
    this.#io = io;
    this.#write = write;
    this.#actingUser = actingUser;
    this.#choices = choices;
  }

  /** The acting user's request, under the id of the line being handled (see logContext.ts). */
  request(op: Operation | undefined): RequestContext {
    const requestId = currentLogContext()?.requestId ?? newRequestId();
    const actor = { userId: this.#actingUser().id, channelId: this.#deps.channelId };
    const log = this.#deps.log.child({
      requestId,
      surface: 'console',
      userId: actor.userId,
      channelId: actor.channelId,
      ...(op ? { operationId: op.id } : {}),
    });
    return { requestId, actor, log };
  }

  /** A typed command line (without `/fw`). */
  async command(text: string): Promise<void> {
    let invocation: Invocation;
    try {
      const { text: rest, profile } = extractProfileFlag(text);
      const parsed = this.#deps.catalogue.parse(rest);
      const commandText = `/fw ${text}`;
      invocation = { op: parsed.op, raw: parsed.raw, commandText, profile, form: parsed.modal };
    } catch (error) {
      this.fail(error, this.request(undefined));
      return;
    }
    await this.perform(invocation);
  }

  #context(request: RequestContext, profile: string): OperationContext {
    const { services } = this.#deps;
    return {
      scc: this.#deps.scc.get(profile),
      profile,
      actor: request.actor,
      requestId: request.requestId,
      log: request.log,
      ...(services ? { services } : {}),
    };
  }

  /** Runs an invocation end to end; every failure is said to the user, never thrown. */
  async perform(invocation: Invocation): Promise<void> {
    const { op, commandText, profile } = invocation;
    const request = this.request(op);
    try {
      const access = await this.#deps.access.authorize({
        userId: request.actor.userId,
        channelId: request.actor.channelId,
        needs: op.role,
        action: `\`fw ${op.words.join(' ')}\``,
        profileOverride: profile,
      });
      const ctx = this.#context(request, access.profile);
      const raw = invocation.form ? await fillForm(this.#io, op, ctx, invocation.raw) : invocation.raw;
      const issues = op.validate(raw);
      if (issues.length > 0) throw new UsageError(op.id, issues, usageLine(op, 'fw'));
      if (producesSecret(op)) {
        this.#offerReveal(op, raw, ctx);
        return;
      }
      const { requiresApproval, tenantCreation } = this.#deps;
      if (requiresApproval ? requiresApproval(op) : op.destructive) {
        request.log.info('destructive: asking for approval');
        await this.#deps.approvals.request({ operation: op, raw, ctx, commandText });
        this.#io.print(
          `Asked for approval: someone else with the approver role must approve it on the card (try /as ${this.#approverHint()}).`,
        );
        return;
      }
      if (tenantCreation && createsTenant(op)) {
        await this.#queueTenant(tenantCreation, raw, access.profile, request);
        return;
      }
      request.log.info({ profile: access.profile }, 'running');
      await this.#show(await op.execute(ctx, raw), access.profile, request);
    } catch (error) {
      this.fail(error, request, op);
    }
  }

  /** As on Slack: announced, then queued with the announcement as its thread; the queue reports there. */
  async #queueTenant(
    queue: TenantCreationQueue,
    raw: RawArgs,
    profile: string,
    request: RequestContext,
  ): Promise<void> {
    const field = (name: string) => {
      const value = raw[name];
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    };
    const tenantName = field('name');
    if (tenantName === undefined) throw new Error('tenant creation without a name');
    const line = `<@${request.actor.userId}> asked to create tenant *${tenantName}*.`;
    const root = this.#deps.slack.post(this.#deps.channelId, line);
    this.#io.print(`fwbot in #console:\n${this.#write.text(line)}`);
    const queued = await queue.enqueue({
      tenantName,
      displayName: field('display-name'),
      salesOrderNumber: field('sales-order'),
      thread: {
        channelId: this.#deps.channelId,
        threadTs: root.ts,
        requesterId: request.actor.userId,
        profile,
      },
    });
    request.log.info({ place: queued.place }, 'tenant creation queued');
  }

  #approverHint(): string {
    return (
      this.#deps.users.find((u) => u.roles.includes('approver') && u.id !== this.#actingUser().id)?.name ??
      '<user>'
    );
  }

  /** Says what went wrong, as the Slack surface would (internal errors only by reference). */
  fail(error: unknown, request: RequestContext, op?: Operation): void {
    if (error instanceof FormAbandoned) {
      this.#io.print(`Form closed: ${error.message}; nothing was run.`);
      return;
    }
    if (error instanceof PermissionError && op)
      this.#deps.metrics?.commands.inc({ operation: op.id, outcome: 'denied' });
    // The console takes commands without `/fw`, so usage lines and hints are shown without it too.
    const explained = explainError(error, request);
    this.#io.print(this.#write.text(explained.text.replace(/`\/fw /g, '`')));
  }

  /** Announced or private: shows the view, and hands anything to follow to the tracker in its thread. */
  async #show(outcome: Outcome, profile: string, request: RequestContext): Promise<void> {
    const { view, track } = outcome;
    if (view.visibility === 'in_channel' || track.length > 0) {
      // The announcement is a message in the console's channel: its ts is the thread the tracker reports in.
      const root = this.#deps.slack.post(this.#deps.channelId, view.summary);
      this.#io.print(`fwbot in #console:\n${this.#write.view(view)}`);
      this.#choices.offerView(view, undefined);
      const thread = {
        channelId: this.#deps.channelId,
        threadTs: root.ts,
        requesterId: request.actor.userId,
        profile,
      };
      for (const item of track) await this.#deps.tracker.follow(item, thread);
      return;
    }
    this.#io.print(this.#write.view(view));
    this.#choices.offerView(view, undefined);
  }

  #offerReveal(op: Operation, raw: RawArgs, ctx: OperationContext): void {
    this.#io.print(
      `${op.summary}: the token is shown once, only here; fwbot does not store it. Choose 1 when you are ready to copy it.\n[1] Reveal token`,
    );
    this.#choices.offer([
      {
        label: 'Reveal token',
        run: async () => {
          const outcome = await op.execute(ctx, raw);
          if (!outcome.secretView) throw new Error(`${op.id} produced no secret view`);
          this.#io.print(this.#write.view(outcome.secretView));
          this.#io.print('(Shown once: fwbot keeps no copy. Generate a new one if it is lost.)');
        },
      },
    ]);
  }

  /** "Share in channel": the read runs again and its snapshot is shown as posted in the channel. */
  async share(value: string): Promise<void> {
    const { value: commandText, profile } = splitProfile(value);
    const parsed = this.#deps.catalogue.parse(commandText.replace(/^\/?fw\s+/, ''));
    const request = this.request(parsed.op);
    try {
      if (parsed.op.role !== 'viewer' || parsed.op.destructive)
        throw new UserError('Only read results can be shared this way.');
      const access = await this.#deps.access.authorize({
        userId: request.actor.userId,
        channelId: request.actor.channelId,
        needs: parsed.op.role,
        action: `\`fw ${parsed.op.words.join(' ')}\``,
        profileOverride: profile,
      });
      const outcome = await parsed.op.execute(this.#context(request, access.profile), parsed.raw);
      const snapshot = sharedSnapshot(outcome.view, request.actor.userId, commandText);
      this.#io.print(`fwbot in #console:\n${this.#write.view(snapshot)}`);
    } catch (error) {
      this.fail(error, request, parsed.op);
    }
  }
}
