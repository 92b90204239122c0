// The Slack Web API clients fwbot makes: one per use, all here, so what each is allowed to do on a 429 or
// a slow answer is decided in one place. The calls themselves go through SlackApi (slackApi.ts).
import { webApi } from '@slack/bolt';

export type SlackWebClient = webApi.WebClient;

/** Options a client is made with (the console routes its calls to itself with its own `fetch`). */
export type SlackClientOptions = NonNullable<ConstructorParameters<typeof webApi.WebClient>[1]>;

/** The bot's client for answering people: the Web API client's own retries on 429 and on failures. */
export function slackClient(token: string, options: SlackClientOptions = {}): SlackWebClient {
  return new webApi.WebClient(token, options);
}

/**
 * A Slack client fit for workers: a 429 comes back at once as an error carrying Retry-After (the job
 * reschedules itself), and nothing retries by sleeping inside the client.
 */
export function createWorkerSlackClient(
  token: string,
  slackApiUrl?: string,
  options: SlackClientOptions = {},
): SlackWebClient {
  return new webApi.WebClient(token, {
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    // Well inside the notification lock (schedule.slack.lockMs), so a hung call never outlives it.
    timeout: 15_000,
    ...(slackApiUrl ? { slackApiUrl } : {}),
    ...options,
  });
}
