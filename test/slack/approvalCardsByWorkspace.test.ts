// Approval cards live in the workspace of the request they show (issue 29, OAuth mode): the card is posted,
// updated and answered in its thread with that workspace's installation's token; a card of a request that
// names no workspace (made before there were others) is the home workspace's.
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slackClientsOf } from '../../src/app/surface.js';
import type { View } from '../../src/model/view.js';
import type { WorkspaceRef } from '../../src/model/workspace.js';
import { SlackApprovalNotifier } from '../../src/slack/approvalNotifier.js';
import { installedWorkspaceClients } from '../../src/slackApi/clientsByTeam.js';
import { SlackApi } from '../../src/slackApi/slackApi.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { MemoryInstallations } from '../support/memoryInstallations.js';

const view = (text: string): View => ({
  summary: text,
  blocks: [{ kind: 'text', text }],
  visibility: 'in_channel',
});

describe('approval cards by workspace', () => {
  let slack: FakeSlack;
  let notifier: SlackApprovalNotifier;
  beforeAll(async () => {
    slack = await startFakeSlack();
    const installations = new MemoryInstallations();
    installations.install({ teamId: 'T0HOME001' }, 'xoxb-home');
    installations.install({ teamId: 'T0CUSTOMR1' }, 'xoxb-customer');
    const byTeam = installedWorkspaceClients({
      tokens: installations,
      home: { teamId: 'T0HOME001' },
      make: (token) => slackClientsOf(token, slack.apiUrl),
    });
    const slackOf = (team: WorkspaceRef) => new SlackApi(byTeam.forTeam(team, 'answers'));
    notifier = new SlackApprovalNotifier(slackOf({}), pino({ level: 'silent' }), slackOf);
  });
  beforeEach(() => slack.reset());
  afterAll(async () => {
    await slack.stop();
  });

  const tokens = () => slack.calls.map((call) => `${call.method} ${call.token}`);

  it("posts, updates and answers a customer workspace's card with that workspace's token", async () => {
    const card = await notifier.postCard('C0CUSTCH01', view('delete device fw-1?'), {
      teamId: 'T0CUSTOMR1',
    });
    await notifier.updateCard(card, view('approved'));
    await notifier.postInThread(card, view('done'));

    expect(card).toMatchObject({ channel: 'C0CUSTCH01', teamId: 'T0CUSTOMR1' });
    expect(tokens()).toEqual([
      'chat.postMessage xoxb-customer',
      'chat.update xoxb-customer',
      'chat.postMessage xoxb-customer',
    ]);
  });

  it('posts and updates the card of a request that names no workspace in the home workspace', async () => {
    const card = await notifier.postCard('C0MSPOPS01', view('delete device fw-2?'));
    await notifier.updateCard(card, view('approved'));

    expect(tokens()).toEqual(['chat.postMessage xoxb-home', 'chat.update xoxb-home']);
  });
});
