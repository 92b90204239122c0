// Delivering, in the console, what the dispatcher decided (src/dispatch/dispatcher.ts) for a line the
// console user typed or a button they pressed, as src/slack/run.ts does for Slack: the line is parsed with
// the catalogue's grammar (a form the grammar asks for is filled at the prompt), handed to the same
// dispatcher as Slack's, and its result shown: an outcome printed (reads privately, changes in the
// console's channel, followed by the tracker), an approval card waiting for another user (/as), a Reveal
// offered as a numbered choice, or a queued call announced in the channel before it is enqueued. Every
// failure is said to the user, never thrown.
import type { Logger } from 'pino';
import type { Catalogue } from '../catalogue/index.js';
import type { Operation, Outcome } from '../catalogue/operation.js';
import { commandButtonInvocation } from '../dispatch/buttons.js';
import type { Invocation as Dispatch, Dispatched, Dispatcher } from '../dispatch/dispatcher.js';
import { explainError } from '../dispatch/errors.js';
import { handOnLater, leavesLater, type Tracker } from '../dispatch/ports.js';
import { extractProfileFlag, splitProfile } from '../dispatch/profileFlag.js';
import { newRequestId, type RequestContext } from '../dispatch/request.js';
import type { Confirm, View } from '../model/view.js';
import { currentLogContext } from '../observability/logContext.js';
import type { FwbotMetrics } from '../observability/metrics.js';
import { sharedSnapshot } from '../render/shared.js';
import type { ConsoleChat } from './consoleChat.js';
import { askButtonForm, FormAbandoned, fillForm, type Prompter } from './forms.js';
import type { ConsoleUser, ConsoleWriter } from './output.js';

/** What the console needs of the approvals: the card's buttons, pressed by the acting user. */
export interface ConsoleApprovals {
  press(
    action: { id: string; value: string },
    who: { userId: string; card?: { channel: string; ts: string } },
    askReason: () => Promise<string | undefined>,
  ): Promise<string | undefined> | undefined;
}

export interface ConsoleDeps {
  catalogue: Catalogue;
  /** The same dispatcher as Slack's: roles, approvals, reveals, queues and audit are decided there. */
  dispatcher: Dispatcher;
  tracker: Tracker;
  approvals: ConsoleApprovals;
  /** The console's chat: what the workers and approvals post in its channel, and its announcements. */
  consoleChat: ConsoleChat;
  log: Logger;
  users: readonly ConsoleUser[];
  /** The console's one channel. */
  channelId: string;
  /** Each person's App Home as a View (src/home/): the console's /home prints it. */
  home?: { view(userId: string): Promise<View> };
  metrics?: FwbotMetrics;
  /** `/sim …`: the demo's simulator, made to do what happens outside fwbot (src/demo/worldControls.ts). */
  world?: WorldControls;
}

/** What the console's `/sim` runs: words in, one answer out. */
export interface WorldControls {
  usage: string;
  run(words: readonly string[]): Promise<string>;
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
  raw: Dispatch['raw'];
  commandText: string;
  profile?: string | undefined;
  /** The grammar asked for the form (no arguments, or an operation that always opens it). */
  form?: boolean;
  entry: Dispatch['entry'];
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

  /**
   * A button that runs a command line, read as Slack reads it (src/dispatch/buttons.ts): dispatched as a
   * `button` entry, after asking what the policy requires that a button cannot carry (the change ticket).
   */
  async button(value: string): Promise<void> {
    let invocation: Invocation;
    try {
      const { op, raw, commandText, profileOverride } = commandButtonInvocation(this.#deps.catalogue, value);
      invocation = { op, raw, commandText, profile: profileOverride, entry: 'button' };
    } catch (error) {
      this.fail(error, this.request(undefined));
      return;
    }
    await this.perform(invocation);
  }

  /** A typed command line (without `/fw`). */
  async command(text: string): Promise<void> {
    let invocation: Invocation;
    try {
      const { text: rest, profile } = extractProfileFlag(text);
      const parsed = this.#deps.catalogue.parse(rest);
      const commandText = `/fw ${text}`;
      invocation = {
        op: parsed.op,
        raw: parsed.raw,
        commandText,
        profile,
        form: parsed.modal,
        entry: 'command',
      };
    } catch (error) {
      this.fail(error, this.request(undefined));
      return;
    }
    await this.perform(invocation);
  }

  /** Runs an invocation end to end through the dispatcher; every failure is said to the user, never thrown. */
  async perform(invocation: Invocation): Promise<void> {
    const { op, commandText, profile } = invocation;
    const request = this.request(op);
    const { dispatcher } = this.#deps;
    try {
      let raw = invocation.raw;
      let entry = invocation.entry;
      if (invocation.form) {
        const access = await dispatcher.authorize(request, op, profile);
        raw = await fillForm(this.#io, op, dispatcher.context(request, access.profile), raw);
        entry = 'form';
      }
      if (entry === 'button') {
        const form = await dispatcher.buttonForm(
          { op, raw, commandText, profileOverride: profile, entry },
          request,
        );
        if (form) raw = await askButtonForm(this.#io, form, raw);
      }
      const result = await dispatcher.dispatch(
        { op, raw, commandText, profileOverride: profile, entry },
        request,
      );
      await this.#deliver(result, request);
    } catch (error) {
      this.fail(error, request);
    }
  }

  async #deliver(result: Dispatched, request: RequestContext): Promise<void> {
    switch (result.kind) {
      case 'outcome':
        return this.#show(result.outcome, result.profile, request);
      case 'approval':
        this.#io.print(
          `Asked for approval: someone else with the approver role must approve it on the card (try /as ${this.#approverHint()}).`,
        );
        return;
      case 'reveal':
        this.#offerReveal(result.view, result.grantId);
        return;
      case 'queued': {
        const line = result.announcement;
        const root = this.#deps.consoleChat.printed(this.#deps.channelId, line.summary);
        this.#io.print(`fwbot in #console:\n${this.#write.view(line)}`);
        const queued = await result.enqueue({
          channelId: this.#deps.channelId,
          threadTs: root.ts,
          requesterId: request.actor.userId,
          profile: result.profile,
        });
        request.log.info({ place: queued.place }, 'queued');
        return;
      }
      case 'confirm':
        throw new Error('the console has approvers; a call came back asking for --yes');
    }
  }

  #approverHint(): string {
    return (
      this.#deps.users.find((u) => u.roles.includes('approver') && u.id !== this.#actingUser().id)?.name ??
      '<user>'
    );
  }

  /** Says what went wrong, as the Slack surface would (internal errors only by reference). */
  fail(error: unknown, request: RequestContext): void {
    if (error instanceof FormAbandoned) {
      this.#io.print(`Form closed: ${error.message}; nothing was run.`);
      return;
    }
    // The console takes commands without `/fw`, so usage lines and hints are shown without it too.
    const explained = explainError(error, request);
    this.#io.print(this.#write.text(explained.text.replace(/`\/fw /g, '`')));
  }

  /** Announced or private: shows the view, and hands anything to follow to the tracker in its thread. */
  async #show(outcome: Outcome, profile: string, request: RequestContext): Promise<void> {
    const { view } = outcome;
    if (view.visibility === 'in_channel' || leavesLater(outcome)) {
      // The announcement is a message in the console's channel: its ts is the thread the tracker reports in.
      const root = this.#deps.consoleChat.printed(this.#deps.channelId, view.summary);
      this.#io.print(`fwbot in #console:\n${this.#write.view(view)}`);
      this.#choices.offerView(view, undefined);
      const thread = {
        channelId: this.#deps.channelId,
        threadTs: root.ts,
        requesterId: request.actor.userId,
        profile,
      };
      await handOnLater(this.#deps.tracker, outcome, thread);
      return;
    }
    this.#io.print(this.#write.view(view));
    this.#choices.offerView(view, undefined);
  }

  #offerReveal(offer: View, grantId: string): void {
    this.#io.print(this.#write.view(offer));
    this.#choices.offer([{ label: 'Reveal token', run: () => this.reveal(grantId) }]);
  }

  /** A Reveal button (an offer, or one posted after an approval): the grant is used once, by its requester. */
  async reveal(grantId: string): Promise<void> {
    const request = this.request(undefined);
    try {
      const revealed = await this.#deps.dispatcher.reveal(grantId, request);
      this.#io.print(this.#write.view(revealed.secretView));
      this.#io.print('(Shown once: fwbot keeps no copy. Generate a new one if it is lost.)');
      const { outcome } = revealed;
      if (outcome.view.visibility === 'in_channel' || leavesLater(outcome))
        await this.#show(outcome, revealed.profile, request);
    } catch (error) {
      this.fail(error, request);
    }
  }

  /** "Share in channel": the read runs again and its snapshot is shown as posted in the channel. */
  async share(value: string): Promise<void> {
    const { value: commandText, profile } = splitProfile(value);
    const request = this.request(undefined);
    try {
      const parsed = this.#deps.catalogue.parse(commandText.replace(/^\/?fw\s+/, ''));
      const result = await this.#deps.dispatcher.dispatch(
        { op: parsed.op, raw: parsed.raw, commandText, profileOverride: profile, entry: 'share' },
        request,
      );
      if (result.kind !== 'outcome') throw new Error('a share came back as something other than a read');
      const snapshot = sharedSnapshot(result.outcome.view, request.actor.userId, commandText);
      this.#io.print(`fwbot in #console:\n${this.#write.view(snapshot)}`);
    } catch (error) {
      this.fail(error, request);
    }
  }
}
