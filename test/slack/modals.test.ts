// /fw forms: opened at once with the trigger id, validated on submit with errors under the fields
// (tenant-name pattern, VLAN range, MTU range, member interfaces), and run when valid: the change is
// announced in the channel and what SCC answered 202 for is handed to the tracker, in that thread.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeMetadata, encodeMetadata } from '../../src/slack/views/metadata.js';
import { blocksText, CHANNEL, type Harness, newTriggerId, startHarness, USERS } from './support/harness.js';
import { type FieldValue, fieldNames, submissionPayload, suggestionPayload } from './support/modals.js';

describe('forms', () => {
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
    h.tracker.follows.length = 0;
  });

  async function open(text: string, userId: string = USERS.operator) {
    const triggerId = newTriggerId();
    const { http, responseUrl } = await h.command(text, { userId, triggerId });
    expect(http.status).toBe(200);
    return { modal: await h.openedModal(triggerId), responseUrl };
  }

  async function submit(
    modal: Awaited<ReturnType<typeof open>>['modal'],
    values: Record<string, FieldValue>,
    userId: string = USERS.operator,
  ): Promise<Record<string, string> | undefined> {
    const http = await h.interact(submissionPayload(modal, userId, values));
    expect(http.status).toBe(200);
    if (http.body === '') return undefined;
    const answer = http.json() as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    return answer.errors;
  }

  it('opens the form with the trigger id at once, carrying the operation and channel in its metadata', async () => {
    const { modal, responseUrl } = await open('tenants create');
    expect(fieldNames(modal.view)).toEqual(['name', 'display-name', 'sales-order']);
    expect(modal.view.callback_id).toBe('fw.modal');
    const meta = decodeMetadata(String(modal.view.private_metadata));
    expect(meta).toEqual({
      operationId: 'tenants.create',
      channelId: CHANNEL,
      profileOverride: undefined,
      prefilled: {},
      responseUrl,
    });
    expect(String(modal.view.private_metadata).length).toBeLessThanOrEqual(3000);
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('shows the tenant-name rule under the name field, and nothing is created', async () => {
    const { modal } = await open('tenants create');
    const errors = await submit(modal, { name: 'not a valid name!' });
    expect(Object.keys(errors ?? {})).toEqual(['f.name']);
    expect(errors?.['f.name']).toMatch(/letters, digits|a-zA-Z0-9/i);
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
  });

  it('creates the tenant on a valid submission, announces it with the transaction, and hands it to the tracker', async () => {
    const { modal } = await open('tenants create');
    expect(await submit(modal, { name: 'acme-new', 'display-name': 'Acme New' })).toBeUndefined();
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(post.args.channel).toBe(CHANNEL);
    const text = blocksText(post.args);
    expect(text).toContain(`<@${USERS.operator}> asked to create tenant`);
    expect(text).toContain('acme-new');
    expect(text).toMatch(/Transaction\*\n[0-9a-f-]{36}/);
    const ts = h.slack.messages().keys().next().value?.split('/')[1];
    await h.tracker.until(1);
    expect(h.tracker.follows).toEqual([
      {
        request: expect.objectContaining({ kind: 'transaction', label: 'create tenant acme-new' }),
        // The thread is in the workspace the form was submitted from: its reports go out with that client.
        thread: {
          channelId: CHANNEL,
          threadTs: ts,
          requesterId: USERS.operator,
          profile: 'default',
          teamId: 'T0FAKE',
        },
      },
    ]);
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(1);
  });

  it('replaces a form with no field to carry its errors by a notice saying what is wrong', async () => {
    // Every argument came prefilled (none is a field): `response_action: errors` would have no block to
    // point at, and Slack shows nothing for an empty errors map.
    const http = await h.interact({
      type: 'view_submission',
      user: { id: USERS.operator },
      team: { id: 'T0FAKE' },
      trigger_id: newTriggerId(),
      view: {
        id: 'V0NOFIELDS',
        callback_id: 'fw.modal',
        private_metadata: encodeMetadata({
          operationId: 'tenants.create',
          channelId: CHANNEL,
          profileOverride: undefined,
          prefilled: { name: 'not a valid name!' },
          responseUrl: h.slack.responseUrl(),
        }),
        state: { values: {} },
      },
    });
    expect(http.status).toBe(200);
    const answer = http.json() as { response_action: string; view: Record<string, unknown> };
    expect(answer.response_action).toBe('update');
    expect(answer.view.type).toBe('modal');
    const text = blocksText(answer.view);
    expect(text).toContain('This form cannot be sent as it is:\nname: ');
    expect(text).toContain('Usage: `/fw tenants create');
    expect(h.sim.requestLog.list()).toHaveLength(0);
  });

  it('shows the VLAN id range under the VLAN field', async () => {
    const { modal } = await open('interfaces create vlan asa-hq-01');
    const errors = await submit(modal, { 'vlan-id': '5000', name: 'lab' });
    expect(Object.keys(errors ?? {})).toEqual(['f.vlan-id']);
    expect(errors?.['f.vlan-id']).toMatch(/4070/);
  });

  it('shows the MTU range under the MTU field of a form fitted to the interface', async () => {
    const { modal } = await open('interfaces edit asa-hq-01 inside');
    expect(fieldNames(modal.view)).toContain('mtu');
    const errors = await submit(modal, { name: 'inside', mtu: '10000' });
    expect(Object.keys(errors ?? {})).toEqual(['f.mtu']);
    expect(errors?.['f.mtu']).toMatch(/64.*9198/);
  });

  it('asks for member interfaces of an EtherChannel under the members field', async () => {
    const { modal } = await open('interfaces create etherchannel asa-hq-01');
    const errors = await submit(modal, { members: [], name: 'uplink2' });
    expect(Object.keys(errors ?? {})).toEqual(['f.members']);
  });

  it('creates a VLAN interface from a valid form', async () => {
    const { modal } = await open('interfaces create vlan asa-hq-01');
    expect(await submit(modal, { 'vlan-id': '30', name: 'lab', ipv4: '10.30.0.1/24' })).toBeUndefined();
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(blocksText(post.args)).toContain('asa-hq-01');
    expect(h.sim.requestLog.list({ operationId: 'createAsaVlanInterface' })).toHaveLength(1);
  });

  it('answers SCC’s refusal after a valid form privately, through the command’s response_url', async () => {
    const { modal, responseUrl } = await open('tenants create');
    await submit(modal, { name: 'contoso-eu' });
    const reply = await h.reply(responseUrl);
    expect(blocksText(reply.args)).toMatch(/A tenant named `contoso-eu` already exists in the MSP portal\./);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('never echoes, stores or logs a token typed into the add-by-token form', async () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJ0ZW5hbnQiOiJ0ZXN0In0.Zm9ybS10b2tlbi1zaWduYXR1cmU';
    const { modal, responseUrl } = await open('tenants add');
    expect(fieldNames(modal.view)).toEqual(['api-token']);
    expect(await submit(modal, { 'api-token': token })).toBeUndefined();
    await Promise.race([h.reply(responseUrl), h.slack.waitFor((c) => c.method === 'chat.postMessage')]);
    expect(h.sim.requestLog.list({ operationId: 'addMspTenant' })).toHaveLength(1);
    expect(JSON.stringify(h.slack.calls)).not.toContain(token);
    expect(h.logs.join('\n')).not.toContain(token);
    expect(String(modal.view.private_metadata)).not.toContain(token);
  });

  it('picks the upgrade’s devices from a menu searching SCC, and upgrades the device chosen there', async () => {
    const { modal } = await open('vpn upgrade');
    const blocks = modal.view.blocks as { block_id: string; element: Record<string, unknown> }[];
    const devices = blocks.find((block) => block.block_id === 'f.device')?.element;
    expect(devices).toMatchObject({ type: 'multi_external_select', action_id: 'fw.select.device' });
    expect(devices?.min_query_length).toBe(0);
    expect(devices?.options).toBeUndefined();

    const suggestion = suggestionPayload(modal, USERS.operator, 'fw.select.device', 'f.device', 'edge');
    const asked = await h.interact(suggestion);
    const { options } = asked.json() as { options: { text: { text: string }; value: string }[] };
    const edge = options.find((option) => option.text.text.startsWith('ftd-edge-01 '));
    expect(edge?.value).toBe(h.sim.deviceUid('ftd-edge-01'));
    expect(options.every((option) => /· (ASA|\w*FTD)$/.test(option.text.text))).toBe(true);
    const [lookup] = h.sim.requestLog.list({ operationId: 'getDevices' });
    expect(decodeURIComponent(lookup?.query ?? '').replace(/\+/g, ' ')).toContain(
      'deviceType:ASA OR deviceType:*FTD',
    );

    const chosen = edge?.value ?? '';
    expect(
      await submit(modal, { device: [chosen], version: '5.1.15.287', name: 'menu-run' }),
    ).toBeUndefined();
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(blocksText(post.args)).toContain('5.1.15.287* on ftd-edge-01');
    expect(h.sim.requestLog.list({ operationId: 'triggerFtdSecureClientUpgrade' })).toHaveLength(1);
    expect(h.sim.requestLog.list({ operationId: 'triggerSecureClientUpgrade' })).toHaveLength(0);
  });
});

/** Leaves an ASA without a port a subinterface or an EtherChannel could use (management, VLAN, VTI only). */
function withoutFreePorts(h: Harness, deviceName: string): void {
  const deviceUid = h.sim.deviceUid(deviceName);
  for (const [uid, iface] of h.sim.state.interfaces) {
    const usable =
      (iface.interfaceType === 'PHYSICAL_INTERFACE' && !iface.managementInterface) ||
      iface.interfaceType === 'ETHER_CHANNEL_INTERFACE' ||
      iface.interfaceType === 'SUB_INTERFACE';
    if (iface.deviceUid === deviceUid && usable) h.sim.state.interfaces.delete(uid);
  }
}

describe('forms that cannot be filled', () => {
  describe('when SCC answers before the form opens', () => {
    let h: Harness;
    beforeAll(async () => {
      // A deadline no machine reaches: the form is fitted before anything opens, on every run.
      h = await startHarness({ formDeadlineMs: 60_000 });
    });
    afterAll(async () => {
      await h.stop();
    });
    beforeEach(() => {
      h.sim.reset();
      h.slack.reset();
    });

    it('says in one sentence why a subinterface or EtherChannel form cannot be filled, and opens nothing', async () => {
      withoutFreePorts(h, 'asa-branch-02');
      const cases: [string, string][] = [
        [
          'interfaces create subinterface asa-branch-02',
          'asa-branch-02 has no interface that can carry a subinterface: no data port outside an EtherChannel, and no EtherChannel.',
        ],
        [
          'interfaces create etherchannel asa-branch-02',
          'asa-branch-02 has no free physical port for an EtherChannel',
        ],
      ];
      for (const [text, sentence] of cases) {
        const { http, responseUrl } = await h.command(text, { userId: USERS.operator });
        expect(http.status).toBe(200);
        const reply = await h.reply(responseUrl);
        expect(reply.args.response_type).toBe('ephemeral');
        expect(blocksText(reply.args)).toContain(sentence);
      }
      expect(h.slack.callsTo('views.open')).toEqual([]);
      expect(h.slack.callsTo('views.update')).toEqual([]);
    });

    it('opens a fitted form at once, in one call, when its selects have options', async () => {
      const triggerId = newTriggerId();
      await h.command('interfaces create subinterface asa-hq-01', { userId: USERS.operator, triggerId });
      const opened = await h.slack.waitFor(
        (c) => c.method === 'views.open' && c.args.trigger_id === triggerId,
      );
      expect(fieldNames(opened.args.view as Record<string, unknown>)).toContain('parent');
      expect(opened.status).toBe(200);
      expect(h.slack.callsTo('views.update')).toEqual([]);
    });
  });

  describe('when SCC answers after the form opened as “Loading…”', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ formDeadlineMs: 0 });
    });
    afterAll(async () => {
      await h.stop();
    });
    beforeEach(() => {
      h.sim.reset();
      h.slack.reset();
    });

    it('replaces “Loading…” with the sentence, never with a select Slack would refuse', async () => {
      withoutFreePorts(h, 'asa-branch-02');
      const triggerId = newTriggerId();
      await h.command('interfaces create subinterface asa-branch-02', { userId: USERS.operator, triggerId });
      const updated = await h.slack.waitFor((c) => c.method === 'views.update');
      expect(updated.status).toBe(200);
      const view = updated.args.view as Record<string, unknown>;
      expect(view.callback_id).toBe('fw.notice');
      expect(blocksText(view)).toContain('asa-branch-02 has no interface that can carry a subinterface');
      expect(h.slack.calls.filter((c) => c.status !== 200)).toEqual([]);
    });

    it('replaces “Loading…” with the fitted form when it can be filled', async () => {
      const triggerId = newTriggerId();
      await h.command('interfaces create subinterface asa-hq-01', { userId: USERS.operator, triggerId });
      const modal = await h.openedModal(triggerId);
      expect(fieldNames(modal.view)).toContain('parent');
      expect(h.slack.callsTo('views.open')).toHaveLength(1);
    });
  });
});
