// /metrics exposes every series the README promises, each fed by the real thing it measures: commands
// through the instrumented catalogue against the simulator, SCC calls through the client's onCall hook,
// acks through a wrapped processEvent, queue depth and job outcomes from BullMQ on the test Redis,
// approvals from the audit stream, and Slack's 429s from a Web API client talking to the fake Slack.
import { webApi } from '@slack/bolt';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  instrumentBolt,
  instrumentCatalogue,
  instrumentGate,
  type ReceivedEvent,
} from '../../src/app/instrument.js';
import { AuditTrail } from '../../src/approvals/audit.js';
import { createCatalogue } from '../../src/catalogue/index.js';
import type { OperationContext } from '../../src/catalogue/operation.js';
import { observeQueues } from '../../src/jobs/queueMetrics.js';
import { tailAudit } from '../../src/observability/auditTail.js';
import { createHttpSide } from '../../src/observability/httpSide.js';
import { createMetrics, observeSlackClient, sccCallRecorder } from '../../src/observability/metrics.js';
import { QUEUE } from '../../src/redis/keys.js';
import { createSccClient } from '../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fakeSlack.js';
import { connectRedis, redisUrl, uniquePrefix } from '../support/testRedis.js';

const log = pino({ level: process.env.TEST_LOG ?? 'silent' });

describe('/metrics', () => {
  let sim: SimulatorHandle;
  let slack: FakeSlack;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual' });
    slack = await startFakeSlack();
  });
  afterAll(async () => {
    await sim.stop();
    await slack.stop();
  });

  it('exposes commands, acks, SCC calls, queue depth, job outcomes, approvals and Slack waits', async () => {
    const metrics = createMetrics();
    const scc = createSccClient({
      baseUrl: sim.url,
      token: sim.tokens.superAdmin,
      profile: 'default',
      retry: { maxAttempts: 1 },
      onCall: sccCallRecorder(metrics),
    });
    const ctx: OperationContext = {
      scc,
      profile: 'default',
      actor: { userId: 'U0TEST', channelId: 'C0TEST' },
      requestId: 'req-metrics',
      log,
      now: () => Date.now(),
    };
    const catalogue = instrumentCatalogue(createCatalogue(), metrics);

    // Commands: one that works, one refused by SCC (no such tenant), one sent for approval.
    const list = catalogue.parse('tenants list');
    await list.op.execute(ctx, list.raw);
    const show = catalogue.parse('tenants show no-such-tenant');
    await expect(show.op.execute(ctx, show.raw)).rejects.toThrow();
    const remove = catalogue.parse('tenants remove acme-eu');
    await instrumentGate({ request: async () => ({ approvalId: 'ap-1' }) }, metrics).request({
      operation: remove.op,
      raw: remove.raw,
      target: { facts: {}, description: { action: 'remove', line: 'acme-eu', fields: [], warnings: [] } },
      ctx,
      commandText: '/fw tenants remove acme-eu',
      role: 'operator',
    });

    // Ack latency: the wrapped processEvent times the ack the listener calls.
    const app = {
      async processEvent(event: ReceivedEvent) {
        await event.ack();
      },
    };
    instrumentBolt(app, metrics);
    await app.processEvent({ body: { command: '/fw', text: 'help' }, ack: async () => {} });

    // Queues: a tracking job that ends "succeeded", and one left waiting.
    const prefix = uniquePrefix('metrics').replace(/:$/, '');
    const observer = observeQueues({
      redisUrl: redisUrl(),
      prefix,
      profiles: ['default'],
      queues: ['tenant-creation'],
      metrics,
      log,
    });
    await observer.ready();
    const connection = connectRedis();
    const queue = new Queue(QUEUE.track, { connection, prefix });
    const worker = new Worker(QUEUE.track, async () => 'succeeded', { connection: connectRedis(), prefix });
    await queue.add('transaction', {}, { jobId: 'one' });
    await vi.waitFor(async () => {
      expect(await metrics.text()).toMatch(/fwbot_job_outcomes_total\{queue="track",outcome="succeeded"\} 1/);
    });
    await worker.close();
    await queue.add('transaction', {}, { jobId: 'two' });

    // Approvals: a record in the audit stream.
    const redis = connectRedis();
    const auditPrefix = uniquePrefix('metrics-audit');
    const trail = new AuditTrail({ redis, prefix: auditPrefix, retentionDays: 1, clock: Date.now });
    const tail = tailAudit({ redisUrl: redisUrl(), streamKey: trail.key, metrics, log, blockMs: 200 });
    await trail.record({
      actor: 'U0BOB',
      action: 'approved',
      operationId: 'interfaces.delete',
      target: 'Vlan20 on asa-hq-01',
      outcome: 'approved',
      approvalId: 'ap-1',
    });
    await vi.waitFor(async () => {
      expect(await metrics.text()).toMatch(/fwbot_approvals_total\{outcome="approved"\} 1/);
    });

    // Slack: a 429 met by a worker-style client (rejects at once instead of sleeping).
    const client = new webApi.WebClient('xoxb-metrics', {
      slackApiUrl: slack.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    observeSlackClient(client, metrics);
    slack.rateLimit('chat.postMessage', 1, 7);
    await expect(client.chat.postMessage({ channel: 'C0TEST', text: 'hi' })).rejects.toThrow();

    const side = createHttpSide({ port: 0, host: '127.0.0.1', metrics });
    const port = await side.listen();
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
    const text = await answer.text();
    await side.close();
    await tail.close();
    await observer.close();
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
    redis.disconnect();
    await scc.close();

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/fwbot_commands_total\{operation="tenants\.list",outcome="ok"\} 1/);
    expect(text).toMatch(/fwbot_commands_total\{operation="tenants\.show",outcome="(scc|user)_error"\} 1/);
    expect(text).toMatch(
      /fwbot_commands_total\{operation="tenants\.remove",outcome="approval_requested"\} 1/,
    );
    expect(text).toMatch(/fwbot_command_duration_seconds_count\{operation="tenants\.list"\} 1/);
    expect(text).toMatch(/fwbot_ack_latency_seconds_count\{kind="command"\} 1/);
    expect(text).toMatch(/fwbot_scc_calls_total\{operation="getMspManagedTenants",status="200"\} \d+/);
    expect(text).toMatch(
      /fwbot_scc_call_duration_seconds_bucket\{le="[^"]+",operation="getMspManagedTenants"\}/,
    );
    expect(text).toMatch(/fwbot_queue_jobs\{queue="track",state="waiting"\} 1/);
    expect(text).toMatch(/fwbot_queue_jobs\{queue="tenant-creation:default",state="waiting"\} 0/);
    expect(text).toMatch(/fwbot_job_outcomes_total\{queue="track",outcome="succeeded"\} 1/);
    expect(text).toMatch(/fwbot_approvals_total\{outcome="approved"\} 1/);
    expect(text).toMatch(/fwbot_slack_rate_limit_waits_total\{method="chat\.postMessage"\} 1/);
    expect(text).toMatch(/fwbot_slack_rate_limit_wait_seconds_total\{method="chat\.postMessage"\} 7/);
    expect(text).toMatch(/fwbot_process_cpu_seconds_total/);
  });
});
