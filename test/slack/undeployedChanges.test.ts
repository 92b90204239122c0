// A device with undeployed changes runs no command line (SCC refuses executeCliCommand on a NOT_SYNCED ASA,
// and the simulator does the same): through Slack, /fw trace and /fw show on such a device are answered in
// one sentence that names it, says it has undeployed changes and what to do, and no script reaches SCC;
// once the changes are deployed the same trace runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stripSentinels } from '../../src/model/marks.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { stageVlanDeletion } from '../support/changeWindows.js';
import { driveClock } from '../support/driveClock.js';
import { blocksText, type Harness, startHarness, USERS } from './support/harness.js';

const SENTENCE =
  'asa-hq-01 has undeployed changes (its configuration in SCC is NOT_SYNCED), and SCC runs no command line on it until they are deployed or discarded: `/fw changes asa-hq-01` shows them; deploy them with `/fw deploy asa-hq-01` or discard them with `/fw discard asa-hq-01`, then try again.';

describe('the command line of a device with undeployed changes, through Slack', () => {
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

  async function ask(text: string): Promise<string> {
    const { responseUrl } = await h.command(text, { userId: USERS.viewer });
    const reply = await driveClock(h.sim.clock, h.reply(responseUrl));
    return stripSentinels(`${String(reply.args.text ?? '')}\n${blocksText(reply.args)}`);
  }

  async function stage(): Promise<void> {
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    await stageVlanDeletion(h.sim, scc, 'asa-hq-01', 'Vlan20');
  }

  it('answers /fw trace and /fw show in one sentence, and sends no script', async () => {
    await stage();
    expect(await ask('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside')).toContain(SENTENCE);
    expect(await ask('show asa-hq-01 version')).toContain(SENTENCE);
    expect(receivedCliScripts(h.sim.state)).toEqual([]);
  });

  it('traces once the changes are deployed', async () => {
    await stage();
    const scc = h.clients.get('default');
    if (!scc) throw new Error('no default client');
    await scc.call('deployChangesToMultipleAsaDevices', {
      body: { deviceUids: [h.sim.deviceUid('asa-hq-01')] },
    });
    h.sim.clock.advance(120_000);
    const { data } = await scc.call('getDevice', { path: { deviceUid: h.sim.deviceUid('asa-hq-01') } });
    expect(data.configState).toBe('SYNCED');
    expect(await ask('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside')).toContain(
      'ALLOW on asa-hq-01',
    );
  });
});
