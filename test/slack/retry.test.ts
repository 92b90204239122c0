// A first delivery is not a retry: Socket Mode numbers every delivery (`retry_attempt: 0` first), and
// the bot used to log "first delivery arrived as a retry" for each. Only a positive number is a retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, USERS } from './support/harness.js';

describe('retry numbers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('does not call delivery number 0 a retry, and does call 1 one', async () => {
    const first = await h.command('tenants list', {
      userId: USERS.viewer,
      headers: { 'x-slack-retry-num': '0', 'x-slack-retry-reason': 'http_timeout' },
    });
    await h.reply(first.responseUrl);
    expect(h.logs.some((line) => line.includes('first delivery arrived as a retry'))).toBe(false);

    const retried = await h.command('tenants list', {
      userId: USERS.viewer,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    await h.reply(retried.responseUrl);
    expect(h.logs.some((line) => line.includes('first delivery arrived as a retry'))).toBe(true);
  });
});
