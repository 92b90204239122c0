// The console: a terminal chat with fwbot, like the shell adapters of Hubot or Errbot. A line is run the
// way the Slack surface runs /fw — the catalogue's grammar, the one permission check, destructive
// operations to the approval gate, secrets behind a "Reveal" choice, changes announced and followed by the
// tracker — and views are shown by the text renderer, buttons numbered. What the workers and approvals
// post (thread replies, cards, private notes) arrives through the console's stand-in Slack as it happens.
import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ApprovalGate, SccClients, TenantCreationQueue, Tracker } from '../app/ports.js';
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
import { currentLogContext, withLogContext } from '../observability/logContext.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import type { AccessControl } from '../policy/access.js';
import { decodePageState, PAGE_ACTION, SHARE_ACTION } from '../render/paging.js';
import { numberedButtons } from '../render/text.js';
import type { Button, Confirm, View } from '../render/view.js';
import { sharedSnapshot } from '../slack/actions/share.js';
import { explainError } from '../slack/errors.js';
import { extractProfileFlag, splitProfile } from '../slack/profileFlag.js';
import { newRequestId, type SlackRequest } from '../slack/request.js';
import { producesSecret } from '../slack/run.js';
import { createsTenant } from '../slack/tenantCreation.js';
import { viewOfMessage } from './blockView.js';
import type { ConsoleMessage, ConsoleModal, ConsoleSlack } from './consoleSlack.js';
import { FormAbandoned, fillForm, type Prompter } from './forms.js';
import { answerModal, clickButton } from './interactions.js';
import { type ConsoleUser, ConsoleWriter, indent } from './output.js';

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

interface Choice {
  label: string;
  confirm?: Confirm;
  run(): Promise<void>;
}

interface Invocation {
  op: Operation;
  raw: RawArgs;
  commandText: string;
  profile?: string | undefined;
  form?: boolean;
}

const HELP = [
  'Type fwbot commands as you would after /fw in Slack: `help`, `tenants list`, `interfaces asa-hq-01`.',
  '  /as <user>   act as someone else (see /users), e.g. to approve a request',
  '  /users       who is who, and what each may do',
  '  /whoami      who you are now',
  '  <number>     press that button of the last message that had buttons',
  '  /quit        leave (Ctrl-D works too)',
].join('\n');

export class ConsoleSession {
  readonly #deps: ConsoleDeps;
  readonly #io: Prompter;
  readonly #write: ConsoleWriter;
  #user: ConsoleUser;
  #choices: Choice[] = [];
  /** Whose message the current choices came from (a card update takes them away). */
  #choicesFrom: string | undefined;
  readonly #modals: ConsoleModal[] = [];
  readonly #unsubscribe: () => void;

  constructor(deps: ConsoleDeps, io: Prompter) {
    const first = deps.users[0];
    if (!first) throw new Error('the console needs at least one user');
    this.#deps = deps;
    this.#io = io;
    this.#write = new ConsoleWriter(deps.users);
    this.#user = first;
    const onPosted = (message: ConsoleMessage) => this.#posted(message);
    const onUpdated = (message: ConsoleMessage) => this.#updated(message);
    const onEphemeral = (note: { channel: string; user: string; text: string }) =>
      this.#io.print(`(only @${this.#write.name(note.user)} sees this) ${this.#write.text(note.text)}`);
    const onModal = (modal: ConsoleModal) => this.#modals.push(modal);
    deps.slack.on('posted', onPosted);
    deps.slack.on('updated', onUpdated);
    deps.slack.on('ephemeral', onEphemeral);
    deps.slack.on('modal', onModal);
    this.#unsubscribe = () => {
      deps.slack.off('posted', onPosted);
      deps.slack.off('updated', onUpdated);
      deps.slack.off('ephemeral', onEphemeral);
      deps.slack.off('modal', onModal);
    };
  }

  get user(): ConsoleUser {
    return this.#user;
  }

  get prompt(): string {
    return `${this.#user.name}> `;
  }

  greeting(): string {
    return `fwbot console — you are @${this.#user.name} (${this.#user.roles}) in #console. /help for help.`;
  }

  close(): void {
    this.#unsubscribe();
  }

  /**
   * Handles one line; resolves 'quit' when the user asks to leave. Each line is one request: its id is on
   * every log line written while it is handled, by the SCC clients and the approvals too.
   */
  handle(line: string): Promise<'quit' | 'ok'> {
    return withLogContext({ requestId: newRequestId() }, () => this.#handle(line));
  }

  async #handle(line: string): Promise<'quit' | 'ok'> {
    const text = line.trim();
    if (text === '') return 'ok';
    if (/^\d+$/.test(text)) {
      await this.#choose(Number(text));
      return 'ok';
    }
    const [word = '', ...rest] = text.split(/\s+/);
    switch (word.toLowerCase()) {
      case '/quit':
      case '/exit':
        return 'quit';
      case '/help':
        this.#io.print(HELP);
        return 'ok';
      case '/users':
        this.#io.print(
          this.#deps.users.map((u) => `  ${u.name.padEnd(8)} ${u.id.padEnd(10)} ${u.roles}`).join('\n'),
        );
        return 'ok';
      case '/whoami':
        this.#io.print(`@${this.#user.name} (${this.#user.id}): ${this.#user.roles}`);
        return 'ok';
      case '/as':
        this.#switchUser(rest.join(' '));
        return 'ok';
      default:
        await this.#command(text.replace(/^\/?fw(\s+|$)/i, ''));
        return 'ok';
    }
  }

  #switchUser(who: string): void {
    const wanted = who.replace(/^@/, '').toLowerCase();
    const user = this.#deps.users.find(
      (u) => u.name.toLowerCase() === wanted || u.id.toLowerCase() === wanted,
    );
    if (!user) {
      this.#io.print(`No console user “${who}”. Users: ${this.#deps.users.map((u) => u.name).join(', ')}.`);
      return;
    }
    this.#user = user;
    this.#io.print(`You are now @${user.name} (${user.roles}).`);
  }

  #request(op: Operation | undefined): SlackRequest {
    const requestId = currentLogContext()?.requestId ?? newRequestId();
    const actor = { userId: this.#user.id, channelId: this.#deps.channelId };
    const log = this.#deps.log.child({
      requestId,
      surface: 'console',
      userId: actor.userId,
      channelId: actor.channelId,
      ...(op ? { operationId: op.id } : {}),
    });
    return { requestId, actor, log };
  }

  async #command(text: string): Promise<void> {
    let invocation: Invocation;
    try {
      const { text: rest, profile } = extractProfileFlag(text);
      const parsed = this.#deps.catalogue.parse(rest);
      const commandText = `/fw ${text}`;
      invocation = { op: parsed.op, raw: parsed.raw, commandText, profile, form: parsed.modal };
    } catch (error) {
      this.#fail(error, this.#request(undefined));
      return;
    }
    await this.#perform(invocation);
  }

  #context(request: SlackRequest, profile: string): OperationContext {
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

  async #perform(invocation: Invocation): Promise<void> {
    const { op, commandText, profile } = invocation;
    const request = this.#request(op);
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
      this.#fail(error, request, op);
    }
  }

  /** As on Slack: announced, then queued with the announcement as its thread; the queue reports there. */
  async #queueTenant(
    queue: TenantCreationQueue,
    raw: RawArgs,
    profile: string,
    request: SlackRequest,
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
      this.#deps.users.find((u) => u.roles.includes('approver') && u.id !== this.#user.id)?.name ?? '<user>'
    );
  }

  #fail(error: unknown, request: SlackRequest, op?: Operation): void {
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
  async #show(outcome: Outcome, profile: string, request: SlackRequest): Promise<void> {
    const { view, track } = outcome;
    if (view.visibility === 'in_channel' || track.length > 0) {
      // The announcement is a message in the console's channel: its ts is the thread the tracker reports in.
      const root = this.#deps.slack.post(this.#deps.channelId, view.summary);
      this.#io.print(`fwbot in #console:\n${this.#write.view(view)}`);
      this.#setChoices(view, undefined);
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
    this.#setChoices(view, undefined);
  }

  #offerReveal(op: Operation, raw: RawArgs, ctx: OperationContext): void {
    this.#io.print(
      `${op.summary}: the token is shown once, only here; fwbot does not store it. Choose 1 when you are ready to copy it.\n[1] Reveal token`,
    );
    this.#choices = [
      {
        label: 'Reveal token',
        run: async () => {
          const outcome = await op.execute(ctx, raw);
          if (!outcome.secretView) throw new Error(`${op.id} produced no secret view`);
          this.#io.print(this.#write.view(outcome.secretView));
          this.#io.print('(Shown once: fwbot keeps no copy. Generate a new one if it is lost.)');
        },
      },
    ];
    this.#choicesFrom = undefined;
  }

  #setChoices(view: View, messageTs: string | undefined): void {
    const buttons = numberedButtons(view);
    if (buttons.length === 0) return;
    this.#choices = buttons.map((button) => this.#choiceFor(button, messageTs));
    this.#choicesFrom = messageTs;
  }

  #choiceFor(button: Button, messageTs: string | undefined): Choice {
    const base = { label: button.label, ...(button.confirm ? { confirm: button.confirm } : {}) };
    const { action, url } = button;
    if (url !== undefined) return { ...base, run: async () => this.#io.print(`Open: ${url}`) };
    if (!action) return { ...base, run: async () => this.#io.print('That button does nothing here.') };
    if (action.id === PAGE_ACTION) {
      return {
        ...base,
        run: async () => {
          const { value, profile } = splitProfile(action.value);
          const page = decodePageState(value);
          const op = this.#deps.catalogue.get(page.operationId);
          if (!op) throw new UserError('That list comes from a command fwbot no longer has.');
          await this.#perform({ op, raw: page.raw, commandText: `/fw ${op.words.join(' ')}`, profile });
        },
      };
    }
    if (action.id === SHARE_ACTION) return { ...base, run: () => this.#share(action.value) };
    if (messageTs !== undefined) {
      // Buttons of messages other parts of fwbot posted (approval cards): their own listeners decide.
      return {
        ...base,
        run: async () => {
          const who = { userId: this.#user.id, channelId: this.#deps.channelId };
          await clickButton(this.#deps.bolt, who, { ts: messageTs }, action);
          while (this.#modals.length > 0) {
            const modal = this.#modals.shift();
            if (modal) await answerModal(this.#deps.bolt, this.#io, who, modal.view);
          }
        },
      };
    }
    return { ...base, run: async () => this.#io.print('That button does nothing in the console.') };
  }

  async #share(value: string): Promise<void> {
    const { value: commandText, profile } = splitProfile(value);
    const parsed = this.#deps.catalogue.parse(commandText.replace(/^\/?fw\s+/, ''));
    const request = this.#request(parsed.op);
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
      this.#fail(error, request, parsed.op);
    }
  }

  async #choose(n: number): Promise<void> {
    const choice = this.#choices[n - 1];
    if (!choice) {
      this.#io.print(
        this.#choices.length === 0 ? 'No buttons to press.' : `Choose 1–${this.#choices.length}.`,
      );
      return;
    }
    if (choice.confirm) {
      const answer = await this.#io.ask(
        `${choice.confirm.title}: ${this.#write.text(choice.confirm.text)} (y/N) `,
      );
      if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
        this.#io.print(`${choice.confirm.deny}.`);
        return;
      }
    }
    try {
      await choice.run();
    } catch (error) {
      this.#fail(error, this.#request(undefined));
    }
  }

  #posted(message: ConsoleMessage): void {
    if (message.channel !== this.#deps.channelId) return;
    if (message.threadTs !== undefined) {
      const root = this.#deps.slack.message(message.channel, message.threadTs);
      const about = root ? this.#write.text(root.text).split('\n')[0]?.slice(0, 72) : message.threadTs;
      const body = message.blocks
        ? this.#write.view(viewOfMessage(message.text, message.blocks))
        : this.#write.text(message.text);
      this.#io.print(`  ↳ in the thread of “${about}”:\n${indent(body, '    ')}`);
      return;
    }
    const view = viewOfMessage(message.text, message.blocks);
    this.#io.print(`fwbot in #console:\n${this.#write.view(view)}`);
    this.#setChoices(view, message.ts);
  }

  #updated(message: ConsoleMessage): void {
    if (message.channel !== this.#deps.channelId) return;
    if (!message.blocks) {
      this.#io.print(`  ↻ ${indent(this.#write.text(message.text), '    ').trimStart()}`);
      return;
    }
    const view = viewOfMessage(message.text, message.blocks);
    this.#io.print(`fwbot updated a message in #console:\n${this.#write.view(view)}`);
    if (this.#choicesFrom === message.ts) {
      this.#choices = [];
      this.#setChoices(view, message.ts);
    }
  }
}
