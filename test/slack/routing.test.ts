// Routing decided outside the catalogue: with the tracking queue offering it, `/fw tenants create` is
// announced and queued behind SCC's one-per-30-seconds limit; and the approval policy may put a
// non-destructive operation (VPN client upgrades) behind an approval.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Operation, RawArgs } from '../../src/catalogue/operation.js';
import type { OperationQueue, QueuedCall } from '../../src/dispatch/ports.js';
import { PermissionError } from '../../src/model/errors.js';
import { blocksText, CHANNEL, type Harness, startHarness, USERS } from './support/harness.js';

/** Records what is queued; holds each call's declared key as the real queue does (src/jobs/operationQueue.ts). */
class RecordingQueue implements OperationQueue {
  readonly requests: (QueuedCall & { operationId: string })[] = [];
  readonly held = new Set<string>();
  async reserve(op: Operation, profile: string, raw: RawArgs) {
    const key = `${op.queue?.name}/${profile}/${op.queue?.key(raw)?.value}`;
    if (this.held.has(key)) return undefined;
    this.held.add(key);
    return { requestId: `req-${this.held.size}` };
  }
  async enqueue(op: Operation, call: QueuedCall) {
    this.requests.push({ operationId: op.id, ...call });
    return { place: this.requests.length, expectedStart: new Date() };
  }
}

describe('queued tenant creation', () => {
  const queue = new RecordingQueue();
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ queue });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('announces the request and queues it with the announcement as its thread', async () => {
    await h.command('tenants create acme-queued --display-name "Acme Queued" --sales-order SO-1', {
      userId: USERS.operator,
    });
    const post = await h.slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(blocksText(post.args)).toContain(`<@${USERS.operator}> asked to create tenant *acme-queued*.`);
    await h.waitForLog('"msg":"queued"');
    const ts = [...h.slack.messages().keys()][0]?.split('/')[1];
    expect(queue.requests).toEqual([
      {
        operationId: 'tenants.create',
        raw: { name: 'acme-queued', 'display-name': 'Acme Queued', 'sales-order': 'SO-1' },
        requester: { userId: USERS.operator, channelId: CHANNEL, teamId: expect.any(String) },
        // The thread is in the workspace the command came from: its reports go out with that client.
        thread: {
          channelId: CHANNEL,
          threadTs: ts,
          requesterId: USERS.operator,
          profile: 'default',
          teamId: 'T0FAKE',
        },
        requestId: 'req-1',
        target: undefined,
        audited: undefined,
      },
    ]);
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
  });

  it('refuses at once a second creation of a name already queued, whatever its case', async () => {
    const posts = h.slack.callsTo('chat.postMessage').length;
    const { responseUrl } = await h.command('tenants create ACME-Queued', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain(
      'A creation of tenant `ACME-Queued` is already queued or under way',
    );
    expect(queue.requests).toHaveLength(1);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(posts);
  });

  it('still refuses a bad name before queueing anything', async () => {
    const { responseUrl } = await h.command('tenants create "bad name!"', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain('Usage: `/fw tenants create');
    expect(queue.requests).toHaveLength(1);
  });

  it('refuses a taken name at once, after a read, without announcing or queueing anything', async () => {
    const posts = h.slack.callsTo('chat.postMessage').length;
    const { responseUrl } = await h.command('tenants create CONTOSO-eu', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toContain(
      'A tenant named `CONTOSO-eu` already exists in the MSP portal as `contoso-eu`',
    );
    expect(queue.requests).toHaveLength(1);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(posts);
    expect(h.sim.requestLog.list({ operationId: 'getMspManagedTenants' }).length).toBeGreaterThan(0);
    expect(h.sim.requestLog.list({ operationId: 'createTenant' })).toHaveLength(0);
  });
});

describe('approval policy beyond destructive operations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ approvalRules: { 'vpn.upgrade': 'four-eyes' } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('sends a VPN client upgrade to the approval gate when the policy says so', async () => {
    await h.command('vpn upgrade ftd-edge-01 --version 5.1.15.287', { userId: USERS.operator });
    await vi.waitFor(() => expect(h.gate.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(h.gate.requests.map((r) => [r.operation.id, r.raw])).toEqual([
      ['vpn.upgrade', { device: [h.sim.deviceUid('ftd-edge-01')], version: '5.1.15.287' }],
    ]);
    expect(h.sim.requestLog.list({ operationId: 'triggerFtdSecureClientUpgrade' })).toHaveLength(0);
  });
});

describe('a destructive command always gets one answer', () => {
  // The real gate posts the approval card (that is the answer) or throws; a throw must still reach the
  // requester. The fuzz drill's stand-in gate does neither, which is why it once counted these as silent.
  let h: Harness;
  let refusal: Error = new Error('unset');
  beforeAll(async () => {
    h = await startHarness({
      approvals: {
        request: async () => {
          throw refusal;
        },
      },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers privately when the approval gate refuses the request', async () => {
    refusal = new PermissionError(
      'Asking for a destructive operation needs the operator role here.',
      'operator',
    );
    const { responseUrl } = await h.command('tenants remove contoso-eu', { userId: USERS.operator });
    const reply = await h.reply(responseUrl);
    expect(reply.args.response_type).toBe('ephemeral');
    expect(blocksText(reply.args)).toContain('needs the operator role here');
  });

  it('answers privately, with a reference, when the approval card cannot be posted', async () => {
    refusal = new Error('not_in_channel');
    const { responseUrl } = await h.command('interfaces delete asa-hq-01 Vlan20', { userId: USERS.operator });
    expect(blocksText((await h.reply(responseUrl)).args)).toMatch(/went wrong inside fwbot \(ref \w+\)/);
  });
});
