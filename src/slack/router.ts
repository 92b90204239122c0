// fwbot's slash-command, button, form and select-menu handlers, chosen here by command name, action id or
// callback id behind one Bolt global middleware instead of one Bolt listener each. Bolt runs the matching middleware of every
// registered listener for every request, slash commands included; measured on this machine, twelve extra
// listeners cut a bare Bolt app's acknowledgements per second by about 28 %. Handlers get Bolt's own
// listener arguments (the middleware sees the same ack, body, payload and client). Every request's payload
// loses fwbot's mark characters here first (payloads.ts stripPayloadMarks), the one place Slack's text enters.
import type {
  AllMiddlewareArgs,
  App,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';
import type { Logger } from 'pino';
import { stripPayloadMarks } from './payloads.js';

type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
type ActionArgs = SlackActionMiddlewareArgs & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs & AllMiddlewareArgs;
type OptionsArgs = SlackOptionsMiddlewareArgs & AllMiddlewareArgs;
export type CommandListener = (args: CommandArgs) => Promise<void>;
export type ActionListener = (args: ActionArgs) => Promise<void>;
export type ViewListener = (args: ViewArgs) => Promise<void>;
export type OptionsListener = (args: OptionsArgs) => Promise<void>;

/** Where fwbot's surfaces register their handlers: an exact id or a pattern over it. */
export interface Listeners {
  /** Slash commands, by command name (`/fw`). */
  command(name: string, listener: CommandListener): void;
  /** Block actions (buttons), by action_id. */
  action(actionId: string | RegExp, listener: ActionListener): void;
  /** View submissions, by the view's callback_id. */
  view(callbackId: string | RegExp, listener: ViewListener): void;
  /** External select lookups (block_suggestion), by action_id. */
  options(actionId: string | RegExp, listener: OptionsListener): void;
}

type Route<L> = { match: string | RegExp; listener: L };

function find<L>(routes: readonly Route<L>[], id: string | undefined): L | undefined {
  if (id === undefined) return undefined;
  return routes.find(({ match }) => (typeof match === 'string' ? match === id : match.test(id)))?.listener;
}

export class SlackRouter implements Listeners {
  private readonly commandRoutes: Route<CommandListener>[] = [];
  private readonly actionRoutes: Route<ActionListener>[] = [];
  private readonly viewRoutes: Route<ViewListener>[] = [];
  private readonly optionRoutes: Route<OptionsListener>[] = [];

  constructor(private readonly log: Logger) {}

  command(name: string, listener: CommandListener): void {
    this.commandRoutes.push({ match: name, listener });
  }

  action(actionId: string | RegExp, listener: ActionListener): void {
    this.actionRoutes.push({ match: actionId, listener });
  }

  view(callbackId: string | RegExp, listener: ViewListener): void {
    this.viewRoutes.push({ match: callbackId, listener });
  }

  options(actionId: string | RegExp, listener: OptionsListener): void {
    this.optionRoutes.push({ match: actionId, listener });
  }

  /**
   * Installs the router on the app as one global middleware: a slash command, button click, form
   * submission or select lookup goes to its handler here and no further; anything else goes on to the
   * app's listeners (fwbot registers none). An interaction no handler claims is left unacknowledged, as Bolt leaves one that no
   * listener matches (Slack then shows the person an error).
   */
  attach(app: App): void {
    app.use(async (args) => {
      stripPayloadMarks(args.body);
      const { command, type } = args.body as { command?: unknown; type?: unknown };
      if (typeof command === 'string') {
        const slash = args as CommandArgs;
        return this.dispatch(find(this.commandRoutes, command), slash, 'command', command);
      }
      if (type === 'block_actions') {
        const action = args as ActionArgs;
        const id = 'action_id' in action.action ? action.action.action_id : undefined;
        return this.dispatch(find(this.actionRoutes, id), action, 'action', id);
      }
      if (type === 'view_submission') {
        const view = args as ViewArgs;
        const id = view.view.callback_id;
        return this.dispatch(find(this.viewRoutes, id), view, 'view', id);
      }
      if (type === 'block_suggestion') {
        const lookup = args as OptionsArgs;
        const id = 'action_id' in lookup.payload ? lookup.payload.action_id : undefined;
        return this.dispatch(find(this.optionRoutes, id), lookup, 'options', id);
      }
      await args.next();
    });
  }

  private async dispatch<A>(
    listener: ((args: A) => Promise<void>) | undefined,
    args: A,
    kind: string,
    id: string | undefined,
  ): Promise<void> {
    if (listener) return listener(args);
    this.log.warn({ kind, id }, 'an interaction no fwbot handler claims; not acknowledged');
  }
}
