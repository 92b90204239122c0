// The baseline of the acknowledgement benchmark: a Bolt app in HTTP mode that verifies the signature and
// acks /fw, nothing else. Same Bolt version, receiver and endpoint as fwbot. Prints "ready" once it
// listens. Environment: PORT, SLACK_SIGNING_SECRET, SLACK_API_URL (auth.test goes to the fake Slack),
// BARE_LEAN.
import { App, LogLevel } from '@slack/bolt';

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const app = new App({
  token: 'xoxb-bare-bolt',
  signingSecret: need('SLACK_SIGNING_SECRET'),
  clientOptions: { slackApiUrl: need('SLACK_API_URL') },
  logLevel: LogLevel.ERROR,
  // BARE_LEAN=1: the two Bolt options fwbot turns off (no conversation store, no ignoreSelf), so the
  // benchmark also shows fwbot against a bare app configured like it.
  ...(process.env.BARE_LEAN === '1' ? { convoStore: false, ignoreSelf: false } : {}),
});
app.command('/fw', async ({ ack }) => {
  await ack();
});
await app.start(Number(need('PORT')));
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  app
    .stop()
    .then(() => process.exit(0))
    .catch(() => process.exit(1));
});
