import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, CHANNEL, type Harness, newTriggerId, startHarness, USERS } from './support/harness.js';

describe('/fw language through Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sim.reset();
    h.slack.reset();
  });

  async function ask(text: string, userId: string = USERS.viewer): Promise<string> {
    const { responseUrl } = await h.command(text, { userId });
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    return blocksText(reply.args);
  }

  it('answers help privately, with every area', async () => {
    const text = await ask('help');
    for (const area of ['Devices', 'Tenants', 'Interfaces', 'Reports', 'Gateway', 'VPN'])
      expect(text).toContain(area);
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('answers text with a broken emoji (a lone surrogate) like any other text, not as an internal error', async () => {
    // Form-encoded HTTP bodies cannot carry a lone surrogate, but Socket Mode's JSON can: drive Bolt's
    // dispatch directly, as the socket receiver does.
    const responseUrl = h.slack.responseUrl();
    await h.app.app.processEvent({
      body: {
        command: '/fw',
        text: 'devices \uD83D',
        user_id: USERS.viewer,
        channel_id: CHANNEL,
        team_id: 'T0FAKE',
        trigger_id: newTriggerId(),
        response_url: responseUrl,
      },
      ack: async () => undefined,
    });
    const reply = blocksText((await h.reply(responseUrl)).args);
    expect(reply).not.toMatch(/went wrong inside fwbot|\(ref /);
    expect(h.logs.filter((line) => line.includes('URI malformed'))).toEqual([]);
    expect(h.sim.requestLog.list().map((e) => e.operationId)).toEqual(['getDevices']);
  });

  it('answers a typo with did-you-mean', async () => {
    expect(await ask('tenant list')).toContain('Did you mean `/fw tenants`?');
    expect(await ask('tenants lsit')).toContain('Did you mean `/fw tenants list`');
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('answers a missing argument with the usage line', async () => {
    expect(await ask('tenants show')).toBe(
      'Missing `tenant`: tenant name, display name or UUID.\nUsage: `/fw tenants show &lt;tenant&gt;`',
    );
  });

  it('refuses a bad UUID before calling SCC', async () => {
    const text = await ask('vpn run not-a-uuid');
    expect(text).toContain('must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect(text).toContain('Usage: `/fw vpn run');
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('says what was searched when a name matches nothing', async () => {
    expect(await ask('interfaces no-such-firewall')).toContain(
      'No device named “no-such-firewall” in the inventory (searched device names containing it).',
    );
  });

  it('answers an ambiguous name with the choices', async () => {
    const text = await ask('tenants show in');
    expect(text).toBe('“in” matches 3 tenants: northwind-us, initech-aus, failing-labs-in. Which one?');
  });

  it('escapes what the user typed when echoing it', async () => {
    expect(await ask('<!channel>')).toContain('&lt;!channel&gt;');
  });
});
