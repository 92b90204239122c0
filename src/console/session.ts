// The console: a terminal chat with fwbot, like the shell adapters of Hubot or Errbot. Lines are fwbot
// commands (runner.ts hands them to the same dispatcher as /fw on Slack) or console commands (/as,
// /users …); a number presses that button of the last message that had buttons. What the workers and
// approvals post in its channel arrives through the console's chat (consoleChat.ts, inbox.ts) as the View
// it is, as it happens.

import type { ModalField } from '../catalogue/operation.js';
import { REVEAL_ACTION } from '../dispatch/dispatcher.js';
import { splitProfile } from '../dispatch/profileFlag.js';
import { newRequestId } from '../dispatch/request.js';
import { UserError } from '../model/errors.js';
import type { Button, View } from '../model/view.js';
import { withLogContext } from '../observability/logContext.js';
import { COMMAND_ACTION, decodePageState, PAGE_ACTION, SHARE_ACTION } from '../render/paging.js';
import { numberedButtons } from '../render/text.js';
import { ApprovalCards } from './approvalCards.js';
import { APPROVAL_COMMANDS, APPROVAL_HELP, ApprovalCommands } from './approvalCommands.js';
import { askField, type Prompter } from './forms.js';
import { ConsoleInbox } from './inbox.js';
import { ANSI, PLAIN } from './markup.js';
import { type ConsoleUser, ConsoleWriter } from './output.js';
import { type Choice, type ConsoleDeps, ConsoleRunner } from './runner.js';

export type { ConsoleDeps } from './runner.js';

const HELP = [
  'Type fwbot commands as you would after /fw in Slack: `help`, `tenants list`, `interfaces asa-hq-01`.',
  '  /as <user>   act as someone else (see /users), e.g. to approve a request',
  '  /users       who is who, and what each may do',
  '  /whoami      who you are now',
  '  /home        your App Home, as Slack’s Home tab shows it (its buttons can be pressed)',
  '  /sim …       (the demo’s simulator) make a device go offline, fail over, conflict…: /sim lists them',
  '  <number>     press that button of the last message that had buttons',
  APPROVAL_HELP,
  '  /quit        leave (Ctrl-D works too)',
].join('\n');

/** The reject reason, asked like Slack's reject modal asks it (Slack adds "(optional)" itself; so does askField). */
const REASON_FIELD: ModalField = {
  name: 'reason',
  label: 'Reason (shown on the card)',
  input: 'text',
  optional: true,
};

export class ConsoleSession {
  readonly #deps: ConsoleDeps;
  readonly #io: Prompter;
  readonly #write: ConsoleWriter;
  readonly #runner: ConsoleRunner;
  readonly #inbox: ConsoleInbox;
  readonly #cards = new ApprovalCards();
  readonly #approvalCommands: ApprovalCommands;
  #user: ConsoleUser;
  #choices: Choice[] = [];
  /** The message the current choices came from (its edit replaces them). */
  #choicesFrom: string | undefined;

  constructor(deps: ConsoleDeps, io: Prompter) {
    const first = deps.users[0];
    if (!first) throw new Error('the console needs at least one user');
    this.#deps = deps;
    this.#io = io;
    this.#user = first;
    this.#write = new ConsoleWriter(deps.users, io.styled ? ANSI : PLAIN);
    this.#runner = new ConsoleRunner(deps, io, this.#write, () => this.#user, {
      offerView: (view, messageTs) => this.#offerView(view, messageTs),
      offer: (choices) => {
        this.#choices = choices;
        this.#choicesFrom = undefined;
      },
    });
    this.#inbox = new ConsoleInbox(deps.consoleChat, deps.channelId, io, this.#write, {
      buttons: (view, messageTs, edited) => {
        const card = this.#cards.seen(view, messageTs);
        if (card) {
          this.#io.print(
            `(approval #${card.number}: /approve ${card.number} or /reject ${card.number} [reason] at any time; /approvals lists the pending ones)`,
          );
        }
        if (!edited) this.#offerView(view, messageTs);
        else if (this.#choicesFrom === messageTs) {
          // A decided card loses its buttons: so do the choices.
          this.#choices = [];
          this.#offerView(view, messageTs);
        }
      },
    });
    this.#approvalCommands = new ApprovalCommands(this.#cards, io, this.#write, {
      press: (button, messageTs, reason) => this.#press(this.#choiceFor(button, messageTs, reason)),
      offer: (card) => this.#offerView(card.view, card.messageTs),
    });
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
    this.#inbox.close();
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
    const [typed = '', ...rest] = text.split(/\s+/);
    const word = typed.toLowerCase();
    if ((APPROVAL_COMMANDS as readonly string[]).includes(word)) {
      await this.#approvalCommands.run(word, rest);
      return 'ok';
    }
    switch (word) {
      case '/quit':
      case '/exit':
        return 'quit';
      case '/help':
        this.#io.print(this.#write.text(HELP));
        return 'ok';
      case '/users':
        this.#io.print(
          this.#deps.users.map((u) => `  ${u.name.padEnd(8)} ${u.id.padEnd(12)} ${u.roles}`).join('\n'),
        );
        return 'ok';
      case '/whoami':
        this.#io.print(`@${this.#user.name} (${this.#user.id}): ${this.#user.roles}`);
        return 'ok';
      case '/as':
        this.#switchUser(rest.join(' '));
        return 'ok';
      case '/home':
        await this.#home();
        return 'ok';
      case '/sim':
        this.#io.print(
          this.#deps.world
            ? await this.#deps.world.run(rest)
            : 'There is no simulator here: /sim works in the demo on its built-in simulator.',
        );
        return 'ok';
      default:
        await this.#runner.command(text.replace(/^\/?fw(\s+|$)/i, ''));
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

  /** The acting user's Home, as Slack's Home tab shows it; its approval buttons act as on the Home. */
  async #home(): Promise<void> {
    const home = this.#deps.home;
    if (!home) {
      this.#io.print('This console has no Home (it runs without Redis).');
      return;
    }
    const view = await home.view(this.#user.id);
    this.#io.print(this.#write.view(view));
    const buttons = numberedButtons(view);
    this.#choices = buttons.map((button) => this.#choiceFor(button, undefined, undefined, 'home'));
    this.#choicesFrom = undefined;
  }

  #offerView(view: View, messageTs: string | undefined): void {
    const buttons = numberedButtons(view);
    if (buttons.length === 0) return;
    this.#choices = buttons.map((button) => this.#choiceFor(button, messageTs));
    this.#choicesFrom = messageTs;
  }

  /** A button as a choice; `reason` answers a reject's question in advance (/reject <n> <reason>). */
  #choiceFor(
    button: Button,
    messageTs: string | undefined,
    reason?: string,
    from: 'message' | 'home' = 'message',
  ): Choice {
    const base = { label: button.label, ...(button.confirm ? { confirm: button.confirm } : {}) };
    const { action, url } = button;
    if (url !== undefined) return { ...base, run: async () => this.#io.print(`Open: ${url}`) };
    if (!action) return { ...base, run: async () => this.#io.print('That button does nothing here.') };
    const { id } = action;
    if (id === PAGE_ACTION) {
      return {
        ...base,
        run: async () => {
          const { value, profile } = splitProfile(action.value);
          const page = decodePageState(value);
          const op = this.#deps.catalogue.get(page.operationId);
          if (!op) throw new UserError('That list comes from a command fwbot no longer has.');
          await this.#runner.perform({
            op,
            raw: page.raw,
            commandText: `/fw ${op.words.join(' ')}`,
            profile,
            entry: 'page',
          });
        },
      };
    }
    if (id === SHARE_ACTION) return { ...base, run: () => this.#runner.share(action.value) };
    if (id === COMMAND_ACTION) return { ...base, run: () => this.#runner.button(action.value) };
    if (messageTs === undefined && from === 'message') {
      return { ...base, run: async () => this.#io.print('That button does nothing in the console.') };
    }
    if (id === REVEAL_ACTION) return { ...base, run: () => this.#runner.reveal(action.value) };
    // The approval card's buttons: the approvals' own decisions, with the acting user's roles.
    return {
      ...base,
      run: async () => {
        // From the Home there is no message: the decision finds the card where it was posted.
        const who =
          messageTs === undefined
            ? { userId: this.#user.id }
            : { userId: this.#user.id, card: { channel: this.#deps.channelId, ts: messageTs } };
        const askReason = async () => {
          if (reason !== undefined) return reason;
          const answer = await askField(this.#io, REASON_FIELD);
          return typeof answer === 'string' ? answer : undefined;
        };
        const pressed = this.#deps.approvals.press(action, who, askReason);
        if (!pressed) {
          this.#io.print('That button does nothing in the console.');
          return;
        }
        const answer = await pressed;
        // As Slack would show it: privately, to the one who pressed.
        if (answer)
          this.#io.print(`(only @${this.#write.name(this.#user.id)} sees this) ${this.#write.text(answer)}`);
      },
    };
  }

  async #choose(n: number): Promise<void> {
    const choice = this.#choices[n - 1];
    if (!choice) {
      const count = this.#choices.length;
      this.#io.print(count === 0 ? 'No buttons to press.' : `Choose 1–${count}.`);
      return;
    }
    await this.#press(choice);
  }

  /** Presses a choice: its confirmation first, as Slack asks it; every failure is said, never thrown. */
  async #press(choice: Choice): Promise<void> {
    if (choice.confirm) {
      const { title, text, deny } = choice.confirm;
      const answer = await this.#io.ask(`${title}: ${this.#write.plain(text)} (y/N) `);
      if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
        this.#io.print(`${deny}.`);
        return;
      }
    }
    try {
      await choice.run();
    } catch (error) {
      this.#runner.fail(error, this.#runner.request(undefined));
    }
  }
}
