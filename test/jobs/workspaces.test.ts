// Notifications go out with the Slack client of the workspace their thread is in (issue 29, OAuth mode): a
// transaction followed from a customer's own workspace is reported there with that workspace's
// installation's token (progress, notes and the final reply alike), one followed from the home workspace
// with the home workspace's, and a thread recorded before workspaces were told apart (no team) is the home
// workspace's.
import { describe, expect, it } from 'vitest';
import { slackClientsOf } from '../../src/app/surface.js';
import type { ThreadRef } from '../../src/dispatch/ports.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { installedWorkspaceClients } from '../../src/slackApi/clientsByTeam.js';
import { MemoryInstallations } from '../support/memoryInstallations.js';
import { driveUntil, finalReply, type Harness, quietLog, thread, useHarness } from './support/harness.js';

describe('notifications by workspace', () => {
  let h: Harness;
  useHarness((created) => {
    h = created;
  });

  /** Workers whose notifications go out with each installed workspace's token. */
  async function startInstalled() {
    const installations = new MemoryInstallations();
    installations.install({ teamId: 'T0HOME001' }, 'xoxb-home');
    installations.install({ teamId: 'T0CUSTOMR1' }, 'xoxb-customer');
    const byTeam = installedWorkspaceClients({
      tokens: installations,
      home: { teamId: 'T0HOME001' },
      make: (token) => slackClientsOf(token, h.slack.apiUrl),
    });
    return h.start({ chat: slackChatOf((team) => byTeam.forTeam(team, 'workers'), quietLog) });
  }

  async function follow(where: ThreadRef) {
    const { workers, clients } = await startInstalled();
    const tx = await clients.get('default').tenants.enableMulticloudDefense(h.sim.tenantUid('globex-apj'));
    await workers.jobs.tracker.follow(
      { kind: 'transaction', transactionUid: String(tx.transactionUid), label: 'enable MCD on globex-apj' },
      where,
    );
    return driveUntil(h.sim, clients, finalReply(h.slack, where), 15_000);
  }

  /** The tokens of every call fwbot made into the thread (posts and edits). */
  const tokensIn = (where: ThreadRef) =>
    new Set(
      h.slack.calls
        .filter((call) => call.args.channel === where.channelId && call.status === 200)
        .map((call) => call.token),
    );

  it("reports in a customer workspace's thread with that workspace's token", async () => {
    const where = { ...thread('default', 'C0CUSTCH01'), teamId: 'T0CUSTOMR1' };

    const reply = await follow(where);

    expect(reply.token).toBe('xoxb-customer');
    expect(tokensIn(where)).toEqual(new Set(['xoxb-customer']));
  });

  it("reports in the home workspace's thread with the home workspace's token", async () => {
    const where = { ...thread('default', 'C0HOMECH01'), teamId: 'T0HOME001' };

    const reply = await follow(where);

    expect(reply.token).toBe('xoxb-home');
  });

  it('reports a thread that names no workspace in the home workspace', async () => {
    const where = thread('default', 'C0OLDREC01');

    const reply = await follow(where);

    expect(reply.token).toBe('xoxb-home');
  });
});
