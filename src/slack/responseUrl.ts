// Where fwbot may POST a payload's response_url: a Slack host over https (hooks.slack.com, any
// *.slack.com on the default port), or the origin of the configured Slack Web API (SLACK_API_URL: tests
// and the demo point Slack at a fake that serves response URLs there). A request whose response_url is
// anything else is refused where it is first accepted, by a Bolt global middleware in front of every
// listener: acknowledged, one warning logged, nothing run and nothing posted. Everything fwbot later
// posts to (the command queue, a modal's metadata) carries a response_url that passed here.
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';

/** Whether fwbot may POST to this response_url. */
export type ResponseUrlCheck = (url: string) => boolean;

function slackHost(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    url.username === '' &&
    url.password === '' &&
    (host === 'slack.com' || host.endsWith('.slack.com'))
  );
}

/** The check for a deployment whose Slack Web API is at `slackApiUrl` (default: slack.com). */
export function responseUrlCheck(slackApiUrl?: string): ResponseUrlCheck {
  const apiOrigin = slackApiUrl === undefined ? undefined : new URL(slackApiUrl).origin;
  return (text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return false;
    }
    return slackHost(url) || (apiOrigin !== undefined && url.origin === apiOrigin && url.username === '');
  };
}

/** The response URLs a payload carries: commands and block actions one, view submissions a list. */
const ResponseUrls = z.object({
  response_url: z.unknown().optional(),
  response_urls: z.array(z.object({ response_url: z.unknown().optional() })).optional(),
});

function responseUrlsOf(body: unknown): unknown[] {
  const parsed = ResponseUrls.safeParse(body);
  if (!parsed.success) return [];
  const { response_url: one, response_urls: many = [] } = parsed.data;
  return [one, ...many.map((entry) => entry.response_url)].filter((url) => url !== undefined);
}

/** The host a refused URL names, for the log (never the whole URL: its path is a credential). */
function hostOf(url: unknown): string {
  try {
    return typeof url === 'string' ? new URL(url).host : typeof url;
  } catch {
    return 'not a URL';
  }
}

/** `command`, or the payload's type (`block_actions`, `view_submission`…), for the log. */
export function kindOf(body: unknown): string {
  const { command, type } = (body ?? {}) as { command?: unknown; type?: unknown };
  if (typeof command === 'string') return 'command';
  return typeof type === 'string' ? type.slice(0, 40) : 'unknown';
}

/** Refuses every request carrying a response_url that `check` does not accept. */
export function refuseForeignResponseUrls(
  check: ResponseUrlCheck,
  log: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const foreign = responseUrlsOf(args.body).find((url) => typeof url !== 'string' || !check(url));
    if (foreign === undefined) {
      await args.next();
      return;
    }
    log.warn(
      { host: hostOf(foreign), kind: kindOf(args.body) },
      'refused a Slack request whose response_url is not a Slack address; nothing run or posted',
    );
    if ('ack' in args && typeof args.ack === 'function') await args.ack();
  };
}
