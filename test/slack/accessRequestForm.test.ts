// The *Request access* form (issue 36): `/fw access request` alone opens a Slack modal whose fields are the
// request's arguments. A submission goes through the same validation as the typed command: a mistake comes
// back under its field (`response_action: errors`, the form stays open with what was typed), and a valid
// one asks for the same governed request the command would. Bolt real, the fake Slack Web API, the simulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { homeView } from '../../src/home/view.js';
import { homeBlocks } from '../../src/slack/homeTab.js';
import { decodeMetadata } from '../../src/slack/views/metadata.js';
import { driveClock } from '../support/driveClock.js';
import { CHANNEL, type Harness, newTriggerId, startHarness, USERS } from './support/harness.js';
import { type FieldValue, fieldNames, submissionPayload } from './support/modals.js';

describe('the Request access form', () => {
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
    h.gate.requests.length = 0;
  });

  async function open(text = 'access request') {
    const triggerId = newTriggerId();
    const { http } = await h.command(text, { userId: USERS.operator, triggerId });
    expect(http.status).toBe(200);
    return h.openedModal(triggerId);
  }

  async function submit(
    modal: Awaited<ReturnType<typeof open>>,
    values: Record<string, FieldValue>,
  ): Promise<Record<string, string> | undefined> {
    const http = await h.interact(submissionPayload(modal, USERS.operator, values));
    expect(http.status).toBe(200);
    if (http.body === '') return undefined;
    const answer = http.json() as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    return answer.errors;
  }

  const valid = {
    asa: '',
    protocol: 'tcp',
    source: '198.51.100.0/24',
    destination: '172.20.41.5',
    port: '8443',
    reason: 'partner sync',
    in: 'outside',
  };

  it('opens from `/fw access request` alone, with a field for each argument and nothing asked of SCC', async () => {
    const modal = await open();
    expect(fieldNames(modal.view)).toEqual([
      'asa',
      'devices',
      'protocol',
      'source',
      'destination',
      'port',
      'reason',
      'expires',
      'in',
    ]);
    expect(decodeMetadata(String(modal.view.private_metadata))?.operationId).toBe('access.request');
    const blocks = modal.view.blocks as { block_id: string; element: Record<string, unknown> }[];
    expect(blocks.find((b) => b.block_id === 'f.asa')?.element).toMatchObject({
      type: 'external_select',
      action_id: 'fw.select.device',
    });
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('shows each mistake under its own field, and asks SCC nothing', async () => {
    const modal = await open();
    const asa = h.sim.deviceUid('asa-dc-03');
    // A hostile source and no reason: both said, each under its field.
    const first = await submit(modal, { ...valid, asa, source: '198.51.100.7;reload', reason: '' });
    expect(Object.keys(first ?? {}).sort()).toEqual(['f.reason', 'f.source']);
    expect(first?.['f.source']).toContain('IPv4 host');
    // tcp without a port.
    const second = await submit(modal, { ...valid, asa, port: '' });
    expect(Object.keys(second ?? {})).toEqual(['f.port']);
    expect(second?.['f.port']).toContain('Is required for tcp');
    // Neither an ASA nor a query; then both.
    const neither = await submit(modal, { ...valid });
    expect(neither?.['f.asa']).toContain('--devices <query>');
    const both = await submit(modal, { ...valid, asa, devices: 'name:asa-*' });
    expect(both?.['f.devices']).toContain('not both');
    expect(await submit(modal, { ...valid, asa, expires: 'soon' })).toEqual({
      'f.expires': expect.stringContaining('a number of days'),
    });
    expect(h.sim.requestLog.list({ operationId: 'executeCliCommand' })).toHaveLength(0);
    expect(h.gate.requests).toHaveLength(0);
  });

  const replied = () =>
    h.slack.calls.some((c) => c.method === 'response_url' || c.method === 'chat.postEphemeral');

  it('asks for the same governed request as the typed command on a valid form', async () => {
    const modal = await open();
    const asa = h.sim.deviceUid('asa-dc-03');
    expect(await submit(modal, { ...valid, asa })).toBeUndefined();
    // packet-tracer runs on the simulator's manual clock: moved while the request is checked.
    await driveClock(
      h.sim.clock,
      waitUntil(() => h.gate.requests.length > 0 || replied()),
    );
    expect(replied()).toBe(false);
    const [request] = h.gate.requests;
    expect(request?.operation.id).toBe('access.request');
    expect(request?.raw).toMatchObject({
      asa,
      protocol: 'tcp',
      source: '198.51.100.0/24',
      destination: '172.20.41.5',
      port: '8443',
      reason: 'partner sync',
      in: 'outside',
    });
    expect(request?.target?.description.action).toContain(
      'let `198.51.100.0/24` reach `172.20.41.5` on tcp/8443',
    );
  });

  it('opens from the App Home’s *Request access* button, asks the channel, and asks for the same request there', async () => {
    // The button as the Home publishes it (views.publish's blocks), clicked on the Home: no channel.
    const home = homeBlocks(
      homeView({
        userId: USERS.operator,
        now: 0,
        toDecide: [],
        myRequests: [],
        followed: [],
        watches: [],
        incidents: [],
        recent: [],
      }),
    );
    const button = (home.blocks as { type: string; elements?: Record<string, unknown>[] }[])
      .flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []))
      .find((element) => (element.text as { text?: string } | undefined)?.text === 'Request access');
    expect(button).toMatchObject({ value: 'access request' });
    const triggerId = newTriggerId();
    const click = await h.interact({
      type: 'block_actions',
      user: { id: USERS.operator },
      team: { id: 'T0FAKE' },
      api_app_id: 'A0FWBOT',
      container: { type: 'view', view_id: 'V0HOME00001' },
      view: { id: 'V0HOME00001', type: 'home', blocks: home.blocks },
      trigger_id: triggerId,
      actions: [
        { action_id: button?.action_id, block_id: 'b', type: 'button', value: button?.value, action_ts: '1' },
      ],
    });
    expect(click.status).toBe(200);
    const modal = await h.openedModal(triggerId);
    // The channel first (it is not an argument), then the same fields as `/fw access request` opens.
    expect(fieldNames(modal.view)).toEqual([
      'fw.channel',
      'asa',
      'devices',
      'protocol',
      'source',
      'destination',
      'port',
      'reason',
      'expires',
      'in',
    ]);
    expect(decodeMetadata(String(modal.view.private_metadata))).toMatchObject({
      operationId: 'access.request',
      channelId: '',
    });
    const asa = h.sim.deviceUid('asa-dc-03');
    // The same validation: a mistake under its field; no channel picked is said under the channel.
    expect(await submit(modal, { ...valid, asa, port: '' })).toEqual({ 'f.port': expect.any(String) });
    expect(await submit(modal, { ...valid, asa })).toEqual({ 'fw.channel': 'Pick the channel to ask in.' });
    expect(h.gate.requests).toHaveLength(0);
    // A valid form with its channel: the governed request, as if typed in that channel.
    expect(await submit(modal, { ...valid, asa, 'fw.channel': CHANNEL })).toBeUndefined();
    await driveClock(
      h.sim.clock,
      waitUntil(() => h.gate.requests.length > 0 || replied()),
    );
    expect(replied()).toBe(false);
    const [request] = h.gate.requests;
    expect(request?.operation.id).toBe('access.request');
    expect(request?.ctx.actor.channelId).toBe(CHANNEL);
    expect(request?.raw).toMatchObject({ asa, source: '198.51.100.0/24', port: '8443' });
  });
});

/** Polls until the condition holds, with a generous bound (no timed assertion). */
async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
