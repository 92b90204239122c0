// Which token a Slack call goes out with, by workspace (src/slackApi/clientsByTeam.ts): the configured
// bot's for every workspace in single-workspace mode; in OAuth mode each installed workspace's own (an
// Enterprise Grid org-wide install for its teams), the home workspace's for records that name none, a
// refusal that says so for a workspace with no installation, and a fresh lookup after an uninstall.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slackClientsOf } from '../../src/app/surface.js';
import {
  installedWorkspaceClients,
  singleWorkspaceClients,
  WorkspaceNotInstalled,
} from '../../src/slackApi/clientsByTeam.js';
import { classifySlackError } from '../../src/slackApi/errors.js';
import { SlackApi, type WebApiClient } from '../../src/slackApi/slackApi.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { MemoryInstallations } from '../support/memoryInstallations.js';

describe('Slack clients by workspace', () => {
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack();
  });
  beforeEach(() => slack.reset());
  afterAll(async () => {
    await slack.stop();
  });

  const post = (client: WebApiClient, channel: string) =>
    new SlackApi(client).postMessage(channel, { text: 'hello' });
  const tokenOf = (channel: string) =>
    slack.callsTo('chat.postMessage').find((call) => call.args.channel === channel)?.token;

  it('uses the configured bot token for every workspace in single-workspace mode', async () => {
    const byTeam = singleWorkspaceClients(slackClientsOf('xoxb-home', slack.apiUrl));

    await post(byTeam.forTeam({ teamId: 'T0OTHER01' }, 'answers'), 'C0A');
    await post(byTeam.forTeam(undefined, 'workers'), 'C0B');

    expect(tokenOf('C0A')).toBe('xoxb-home');
    expect(tokenOf('C0B')).toBe('xoxb-home');
  });

  describe('in OAuth mode', () => {
    let installations: MemoryInstallations;
    let byTeam: ReturnType<typeof installedWorkspaceClients>;
    beforeEach(() => {
      installations = new MemoryInstallations();
      installations.install({ teamId: 'T0HOME001' }, 'xoxb-home');
      installations.install({ teamId: 'T0CUSTOMR1' }, 'xoxb-customer');
      installations.install({ enterpriseId: 'E0GRID001' }, 'xoxb-grid');
      byTeam = installedWorkspaceClients({
        tokens: installations,
        home: { teamId: 'T0HOME001' },
        make: (token) => slackClientsOf(token, slack.apiUrl),
      });
    });

    it("calls each workspace with its own installation's token, and the home workspace's for no team", async () => {
      await post(byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers'), 'C0CUST');
      await post(byTeam.forTeam({ teamId: 'T0GRIDTM1', enterpriseId: 'E0GRID001' }, 'answers'), 'C0GRID');
      await post(byTeam.forTeam(undefined, 'answers'), 'C0HOME');
      await post(byTeam.forTeam({}, 'home'), 'C0HOME2');

      expect(tokenOf('C0CUST')).toBe('xoxb-customer');
      expect(tokenOf('C0GRID')).toBe('xoxb-grid');
      expect(tokenOf('C0HOME')).toBe('xoxb-home');
      expect(tokenOf('C0HOME2')).toBe('xoxb-home');
    });

    it('looks a workspace up once, not at every call', async () => {
      const client = byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers');
      await post(client, 'C0ONE');
      await post(client, 'C0TWO');
      await post(byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'answers'), 'C0THREE');

      expect(installations.lookups).toBe(1);
    });

    it('refuses, without calling Slack, for a workspace that never installed fwbot', async () => {
      const failed = await post(byTeam.forTeam({ teamId: 'T0STRANGER' }, 'workers'), 'C0X').catch(
        (error: unknown) => error,
      );

      expect(failed).toBeInstanceOf(WorkspaceNotInstalled);
      expect(String(failed)).toContain('T0STRANGER');
      // The workers treat it as final, like Slack's own answer for an uninstalled app's token.
      expect(classifySlackError(failed)).toMatchObject({ kind: 'refused', refusal: 'credentials' });
      expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    });

    it('drops a workspace’s clients when it uninstalls, and uses its new token after a reinstall', async () => {
      const client = byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers');
      await post(client, 'C0BEFORE');

      installations.remove({ teamId: 'T0CUSTOMR1' });
      const gone = await post(client, 'C0GONE').catch((error: unknown) => error);
      installations.install({ teamId: 'T0CUSTOMR1' }, 'xoxb-customer-2');
      await post(client, 'C0AFTER');

      expect(tokenOf('C0BEFORE')).toBe('xoxb-customer');
      expect(gone).toBeInstanceOf(WorkspaceNotInstalled);
      expect(tokenOf('C0AFTER')).toBe('xoxb-customer-2');
    });

    it('drops an organization’s clients when its org-wide install is removed', async () => {
      const grid = { teamId: 'T0GRIDTM1', enterpriseId: 'E0GRID001' };
      await post(byTeam.forTeam(grid, 'answers'), 'C0ORG1');

      installations.remove({ enterpriseId: 'E0GRID001' });
      const gone = await post(byTeam.forTeam(grid, 'answers'), 'C0ORG2').catch((error: unknown) => error);

      expect(gone).toBeInstanceOf(WorkspaceNotInstalled);
    });

    it('looks the installation up again after Slack refuses its token', async () => {
      await post(byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers'), 'C0FIRST');
      slack.refuse('chat.postMessage', 'token_revoked', 1);
      await post(byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers'), 'C0REVOKED').catch(() => undefined);
      installations.install({ teamId: 'T0CUSTOMR1' }, 'xoxb-customer-3');
      await post(byTeam.forTeam({ teamId: 'T0CUSTOMR1' }, 'workers'), 'C0THEN');

      expect(tokenOf('C0THEN')).toBe('xoxb-customer-3');
    });
  });
});
