// SCC's change log and audit log through Slack: signed slash commands into the real Bolt app, the
// simulator behind the real client. A change log's diffs too long for a message reach the requester as a
// file in their direct messages, the table stays in the answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, CHANNEL, type Harness, startHarness, USERS } from './support/harness.js';

describe('changelog and audit-log through Slack', () => {
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

  /** Stages `count` MTU changes on the interfaces of asa-hq-01 straight through SCC's API. */
  async function stageMtuChanges(count: number): Promise<void> {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    const hq = h.sim.deviceUid('asa-hq-01');
    const vlans = [...h.sim.state.interfaces.values()].filter(
      (i) => i.deviceUid === hq && i.interfaceType === 'VLAN_INTERFACE',
    );
    for (let n = 0; n < count; n += 1) {
      const vlan = vlans[n % vlans.length];
      await scc.call('modifyAsaVlanInterface', {
        path: { deviceUid: hq, interfaceUid: String(vlan?.uid) },
        body: { mtu: 1400 - n },
      });
    }
  }

  it('answers a viewer privately with the events, and uploads long diffs as a file to their DMs', async () => {
    await stageMtuChanges(8);
    const { responseUrl } = await h.command('changelog asa-hq-01', { userId: USERS.viewer });
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    const text = blocksText(reply.args);
    expect(text).toContain('Change log of asa-hq-01');
    expect(text).toMatch(
      /Full output \(\d+ lines, \d+ KB\) attached as `changelog-asa-hq-01\.txt` in your direct messages/,
    );
    const opened = await h.slack.waitFor((c) => c.method === 'conversations.open');
    expect(opened.args.users).toBe(USERS.viewer);
    const upload = await h.slack.waitFor((c) => c.method === 'files.upload');
    expect(Number(upload.args.bytes)).toBeGreaterThan(3000);
    const complete = await h.slack.waitFor((c) => c.method === 'files.completeUploadExternal');
    expect(complete.args.channel_id).not.toBe(CHANNEL);
  });

  it('refuses a --since it cannot read, saying what it takes', async () => {
    const { responseUrl } = await h.command('changelog tenant --since yesterday', { userId: USERS.viewer });
    const text = blocksText((await h.reply(responseUrl)).args);
    expect(text).toContain('must be a duration such as 15m, 1h, 2d or 1w');
    expect(h.sim.requestLog.list({ operationId: 'getChangelogs' })).toHaveLength(0);
  });

  it('shows the audit log to a viewer, narrowed by user name and window', async () => {
    const { responseUrl } = await h.command('audit-log super.admin --since 2d', { userId: USERS.viewer });
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    expect(blocksText(reply.args)).toContain('Audit log in the last 2d');
    const sent = new URLSearchParams(h.sim.requestLog.list({ operationId: 'getAuditLogs' }).at(-1)?.query);
    expect(sent.get('searchText')).toBe('super.admin');
    expect(sent.get('q')).toMatch(/^eventTime:\[\S+ TO \*]$/);
    expect(sent.get('timeRange')).toBeNull();
  });
});
