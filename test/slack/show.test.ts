// /fw show through Slack, as signed slash commands and button clicks into the real Bolt app with the
// simulator answering as 9.x ASAs do: an answer too long for a message is previewed by what the command is
// run for (show failover: both units' state, not the configuration lines before it) with the whole answer
// as a file; the activation key is masked always and serial numbers unless the policy allows them, in the
// private answer, the file and the answer shared in the channel alike.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { driveClock } from '../support/driveClock.js';
import {
  blocksText,
  buttonsOf,
  clickPayload,
  type Harness,
  startHarness,
  textOf,
  USERS,
} from './support/harness.js';

/** What Slack shows of a reply, and the files uploaded for it (their whole text). */
async function answerOf(h: Harness, responseUrl: string) {
  const reply = await driveClock(h.sim.clock, h.reply(responseUrl));
  const uploads = h.slack.calls.filter((c) => c.method === 'files.upload').map((c) => String(c.args.content));
  return { args: reply.args, text: textOf(reply.args), blocks: blocksText(reply.args), uploads };
}

describe('show through Slack', () => {
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

  it('previews show failover by the state of both units, the whole answer attached', async () => {
    const { responseUrl } = await h.command('show asa-dc-03 failover', { userId: USERS.viewer });
    const answer = await answerOf(h, responseUrl);
    expect(answer.blocks).toContain('This host: Primary - Active');
    expect(answer.blocks).toContain('Other host: Secondary - Standby Ready');
    expect(answer.blocks).toContain('Interface web (172.20.40.1): Normal (Monitored)');
    expect(answer.blocks).toContain(
      'Above: the failover state of both units and their monitored interfaces.',
    );
    // The configuration lines that open the answer are in the file, not the preview.
    expect(answer.blocks).not.toContain('Unit Poll frequency');
    await h.slack.waitFor((c) => c.method === 'files.upload');
    const file = h.slack.calls.find((c) => c.method === 'files.upload');
    expect(String(file?.args.content)).toContain('Stateful Failover Logical Update Statistics');
  });

  it('masks the activation key and serial numbers in the answer, its file and the shared answer', async () => {
    const device = h.sim.state.devices.get(h.sim.deviceUid('asa-dc-03'));
    const serial = device?.device.serial ?? '';
    expect(serial).toMatch(/^JAD/);
    const { responseUrl } = await h.command('show asa-dc-03 version', { userId: USERS.viewer });
    const answer = await answerOf(h, responseUrl);
    expect(answer.text).toContain('Serial Number: *****');
    expect(answer.text).not.toContain(serial);
    expect(answer.text).not.toMatch(/Activation Key: 0x/);

    const share = buttonsOf(answer.args).find((b) => b.label === 'Share in channel');
    expect(share).toBeDefined();
    const url = h.slack.responseUrl();
    await h.interact(clickPayload(share ?? { actionId: '' }, USERS.viewer, url));
    const shared = await driveClock(h.sim.clock, h.reply(url));
    expect(shared.args.response_type).toBe('in_channel');
    const sharedText = textOf(shared.args);
    expect(sharedText).toContain('Running Permanent Activation Key: *****');
    expect(sharedText).not.toContain(serial);

    // show failover prints both units' serial numbers.
    const failover = await h.command('show asa-dc-03 failover', { userId: USERS.viewer });
    await answerOf(h, failover.responseUrl);
    await h.slack.waitFor((c) => c.method === 'files.upload');
    const files = h.slack.calls.filter((c) => c.method === 'files.upload').map((c) => String(c.args.content));
    expect(files.join('\n')).toContain('Serial Number: Ours *****, Mate *****');
    expect(files.join('\n')).not.toContain(serial);
  });
});

describe('show through Slack where the policy shows serial numbers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ operationPolicy: { deviceOutput: { serialNumbers: 'shown' } } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps serial numbers, and still masks the activation key', async () => {
    const serial = h.sim.state.devices.get(h.sim.deviceUid('asa-hq-01'))?.device.serial ?? '';
    const { responseUrl } = await h.command('show asa-hq-01 version', { userId: USERS.viewer });
    const answer = await answerOf(h, responseUrl);
    expect(answer.text).toContain(`Serial Number: ${serial}`);
    expect(answer.text).toContain('Running Permanent Activation Key: *****');
  });
});
