// One click from an alert to what mends it (issue 38, item 3), through Slack: signed clicks into the real
// Bolt app, the workers' scan and desk posting to the fake Slack, the simulator behind. An ASA that goes
// unreachable is told with a Reconnect… button; one that presents a new certificate, with Accept the new
// certificate…. Each runs the governed operation as the person who clicks: a viewer is refused, an operator
// asks for a second person's approval, and the card shows the certificate the ASA presents (its fingerprint).
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateProbe } from '../../src/app/certificateProbe.js';
import { sccClientsFrom } from '../../src/app/sccClients.js';
import type { OperationServices } from '../../src/catalogue/operation.js';
import { simulatorControls } from '../../src/demo/worldControls.js';
import { startWorkers, type Workers } from '../../src/jobs/workers.js';
import { managementRoute } from '../../src/simulator/index.js';
import { presentedKeyPair } from '../../src/simulator/state/managementCertificates.js';
import { slackChatOf } from '../../src/slack/chat.js';
import { createWorkerSlackClient } from '../../src/slackApi/clients.js';
import { quietLog, TEST_SCHEDULE } from '../jobs/support/harness.js';
import type { RecordedCall } from '../support/fakeSlack.js';
import { redisUrl, uniquePrefix } from '../support/testRedis.js';
import {
  blocksText,
  buttonsOf,
  CHANNEL,
  clickPayload,
  type Harness,
  STANDARD_POLICY,
  startHarness,
  USERS,
} from './support/harness.js';

describe('an offline ASA’s incident offers what mends it', () => {
  let h: Harness;
  let workers: Workers;
  const services: OperationServices = {};

  beforeAll(async () => {
    h = await startHarness({ services, policy: STANDARD_POLICY });
    workers = await startWorkers({
      redisUrl: redisUrl(),
      prefix: uniquePrefix('slack-alert-mending'),
      clients: sccClientsFrom(h.clients),
      chat: slackChatOf(createWorkerSlackClient('xoxb-test', h.slack.apiUrl), quietLog),
      schedule: TEST_SCHEDULE,
      logger: quietLog,
    });
    services.alerts = workers.jobs.alerts;
    services.certificates = createCertificateProbe({ route: managementRoute(h.sim.managementPort) });
  });
  afterAll(async () => {
    await workers.close();
    await h.stop();
  });

  async function click(message: RecordedCall, label: string, userId: string) {
    const button = buttonsOf(message.args).find((b) => b.label === label);
    if (!button) throw new Error(`no button “${label}”: ${buttonsOf(message.args).map((b) => b.label)}`);
    const url = h.slack.responseUrl();
    await h.interact(clickPayload(button, userId, url, CHANNEL));
    return url;
  }
  const waitForGate = async (count: number) => {
    for (let i = 0; i < 800 && h.gate.requests.length < count; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    return h.gate.requests[count - 1];
  };

  it('Reconnect… and, once the ASA presents a new certificate, Accept the new certificate…', {
    timeout: 120_000,
  }, async () => {
    const subscribed = await h.command('alerts subscribe connectivity', { userId: USERS.operator });
    expect(subscribed.http.status).toBe(200);
    const world = simulatorControls(h.sim.url);
    const uid = h.sim.deviceUid('asa-branch-02');

    expect(await world.run(['offline', 'asa-branch-02'])).toContain('UNREACHABLE');
    const incident = await h.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === CHANNEL &&
        /asa-branch-02\S* is UNREACHABLE/.test(blocksText(c.args)),
      30_000,
    );
    expect(buttonsOf(incident.args).map((b) => b.label)).toContain('Reconnect…');

    // A viewer may not reconnect: refused, nothing asked.
    const before = h.gate.requests.length;
    const refused = await click(incident, 'Reconnect…', USERS.viewer);
    expect(blocksText((await h.reply(refused)).args)).toMatch(/needs the \*operator\* role/);
    expect(h.gate.requests).toHaveLength(before);

    // An operator's click asks for the governed reconnect of that very device.
    await click(incident, 'Reconnect…', USERS.operator);
    const reconnect = await waitForGate(before + 1);
    expect(reconnect?.operation.id).toBe('devices.reconnect');
    expect(reconnect?.ctx.actor.userId).toBe(USERS.operator);
    expect(reconnect?.raw).toMatchObject({ device: uid });

    // The ASA now presents a new certificate: the incident's message is edited with the other button.
    expect(await world.run(['offline', 'asa-branch-02', 'NEW_CERT_DETECTED'])).toContain('NEW_CERT_DETECTED');
    const edited = await h.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        c.args.channel === CHANNEL &&
        /asa-branch-02\S* is now NEW_CERT_DETECTED/.test(blocksText(c.args)),
      30_000,
    );
    expect(buttonsOf(edited.args).map((b) => b.label)).toContain('Accept the new certificate…');
    await click(edited, 'Accept the new certificate…', USERS.operator);
    const accept = await waitForGate(before + 2);
    expect(accept?.operation.id).toBe('devices.accept-certificate');
    expect(accept?.raw).toMatchObject({ device: [uid] });
    // What the approver is shown: the certificate the ASA presents now, the one it rotated to.
    const presented = new X509Certificate(
      presentedKeyPair(h.sim.state.devices.get(uid) ?? { device: { uid } }).cert,
    );
    expect(accept?.target.description.code).toContain(`SHA-256  ${presented.fingerprint256}`);
  });
});
