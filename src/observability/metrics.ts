// fwbot's Prometheus series, in one registry per process (never prom-client's global one, so tests and
// several app instances in one process do not collide). Everything else in src/observability feeds these:
// the catalogue decorator (commands), the Bolt wrapper (ack latency), the SCC client's onCall hook (SCC
// calls), the queue observer (queue depth, job outcomes), the audit tail (approvals) and the Slack
// clients' rate_limited event (rate-limit waits).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { SccCallEvent } from '../scc/client.js';

/** How a command ended, as far as a surface can tell. */
export const COMMAND_OUTCOMES = [
  'ok',
  'usage_error',
  'denied',
  'scc_error',
  'user_error',
  'internal_error',
  'approval_requested',
] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

export interface FwbotMetrics {
  readonly registry: Registry;
  /** `fwbot_commands_total{operation, outcome}`. */
  readonly commands: Counter<'operation' | 'outcome'>;
  /** `fwbot_command_duration_seconds{operation}`: from the start of execute() to its result. */
  readonly commandDuration: Histogram<'operation'>;
  /** `fwbot_ack_latency_seconds{kind}`: Slack interaction received → ack() called. */
  readonly ackLatency: Histogram<'kind'>;
  /** `fwbot_scc_calls_total{operation, status}`: one per HTTP attempt; status is the code or the failure. */
  readonly sccCalls: Counter<'operation' | 'status'>;
  readonly sccCallDuration: Histogram<'operation'>;
  /** `fwbot_queue_jobs{queue, state}`: jobs waiting, active, delayed… (read from Redis at scrape time). */
  readonly queueJobs: Gauge<'queue' | 'state'>;
  /** `fwbot_job_outcomes_total{queue, outcome}`. */
  readonly jobOutcomes: Counter<'queue' | 'outcome'>;
  /** `fwbot_approvals_total{outcome}`: requested, approved, rejected, expired, executed, failed… */
  readonly approvals: Counter<'outcome'>;
  /** `fwbot_slack_rate_limit_waits_total{method}` and the seconds Slack asked to wait. */
  readonly slackRateLimitWaits: Counter<'method'>;
  readonly slackRateLimitSeconds: Counter<'method'>;
  /** `fwbot_ready{check}`: 1 when the last readiness check passed. */
  readonly readiness: Gauge<'check'>;
  /** `fwbot_slack_requests_refused_total{reason}`: HTTP-mode requests refused before Bolt read them. */
  readonly slackRequestsRefused: Counter<'reason'>;
  /** `fwbot_slack_unverified_body_bytes`: bytes reserved by request bodies being read, not yet verified. */
  readonly slackUnverifiedBodyBytes: Gauge;
  /** `fwbot_unhandled_rejections_total`: promise rejections nothing handled (the process kept serving). */
  readonly unhandledRejections: Counter;
  /** `fwbot_alert_scan_stretch{profile}`: every scan interval is multiplied by this to stay within the budget. */
  readonly alertScanStretch: Gauge<'profile'>;
  /** `fwbot_alert_scan_calls_total{profile, kind}`: SCC calls the alert scan made. */
  readonly alertScanCalls: Counter<'profile' | 'kind'>;
  /** `fwbot_alert_events_total{kind, phase}`: transitions the alert scan handed to the desk. */
  readonly alertEvents: Counter<'kind' | 'phase'>;
  /** Where `fwbot_queue_jobs` is read from at each scrape (see queues.ts); none until set. */
  setQueueDepthSource(source: QueueDepthSource | undefined): void;
  /** Prometheus text exposition of every series. */
  text(): Promise<string>;
  readonly contentType: string;
}

/** One reading of a queue: how many of its jobs are in a state. */
export interface QueueDepth {
  queue: string;
  state: string;
  count: number;
}

export type QueueDepthSource = () => Promise<readonly QueueDepth[]>;

export interface MetricsOptions {
  /** Node's process metrics (CPU, memory, event loop lag, GC) with the `fwbot_` prefix. Default true. */
  processMetrics?: boolean;
}

export function createMetrics(options: MetricsOptions = {}): FwbotMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'fwbot_' });
  const registers = [registry];
  let depthSource: QueueDepthSource | undefined;
  const metrics: FwbotMetrics = {
    registry,
    commands: new Counter({
      name: 'fwbot_commands_total',
      help: 'Commands run, by catalogue operation and outcome.',
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    commandDuration: new Histogram({
      name: 'fwbot_command_duration_seconds',
      help: 'Time from the start of an operation to its result, by catalogue operation.',
      labelNames: ['operation'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    ackLatency: new Histogram({
      name: 'fwbot_ack_latency_seconds',
      help: 'Time from receiving a Slack interaction to acknowledging it (Slack allows 3 s).',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    }),
    sccCalls: new Counter({
      name: 'fwbot_scc_calls_total',
      help: 'SCC API attempts, by operation id and HTTP status (or timeout, connection, aborted).',
      labelNames: ['operation', 'status'],
      registers,
    }),
    sccCallDuration: new Histogram({
      name: 'fwbot_scc_call_duration_seconds',
      help: 'Duration of one SCC API attempt, by operation id.',
      labelNames: ['operation'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 75],
      registers,
    }),
    queueJobs: new Gauge({
      name: 'fwbot_queue_jobs',
      help: 'Jobs in each queue by state, read from Redis when scraped (the same for every process).',
      labelNames: ['queue', 'state'],
      registers,
      // Read at scrape time: the queues live in Redis and are shared by every process.
      async collect() {
        if (!depthSource) return;
        const readings = await depthSource();
        this.reset();
        for (const { queue, state, count } of readings) this.set({ queue, state }, count);
      },
    }),
    jobOutcomes: new Counter({
      name: 'fwbot_job_outcomes_total',
      help: 'Jobs that ended, by queue and outcome (tracked work: succeeded, failed, unknown, stopped).',
      labelNames: ['queue', 'outcome'],
      registers,
    }),
    approvals: new Counter({
      name: 'fwbot_approvals_total',
      help: 'Approval requests and decisions, by outcome (from the audit trail).',
      labelNames: ['outcome'],
      registers,
    }),
    slackRateLimitWaits: new Counter({
      name: 'fwbot_slack_rate_limit_waits_total',
      help: 'Times Slack answered 429 and fwbot had to wait, by Web API method.',
      labelNames: ['method'],
      registers,
    }),
    slackRateLimitSeconds: new Counter({
      name: 'fwbot_slack_rate_limit_wait_seconds_total',
      help: 'Seconds Slack asked fwbot to wait (Retry-After), by Web API method.',
      labelNames: ['method'],
      registers,
    }),
    readiness: new Gauge({
      name: 'fwbot_ready',
      help: 'Result of the last readiness check by dependency: 1 passed, 0 failed.',
      labelNames: ['check'],
      registers,
    }),
    slackRequestsRefused: new Counter({
      name: 'fwbot_slack_requests_refused_total',
      help: 'HTTP-mode requests refused before their body was verified: unsigned, too_large, busy, slow, unreadable.',
      labelNames: ['reason'],
      registers,
    }),
    slackUnverifiedBodyBytes: new Gauge({
      name: 'fwbot_slack_unverified_body_bytes',
      help: 'Bytes reserved by HTTP-mode request bodies being read and not yet verified (bounded per process).',
      registers,
    }),
    unhandledRejections: new Counter({
      name: 'fwbot_unhandled_rejections_total',
      help: 'Promise rejections nothing handled; each is logged once and the process keeps serving.',
      registers,
    }),
    alertScanStretch: new Gauge({
      name: 'fwbot_alert_scan_stretch',
      help: 'Factor by which the alert scan stretches its intervals to stay within the SCC calls per minute of a profile (1: on time).',
      labelNames: ['profile'],
      registers,
    }),
    alertScanCalls: new Counter({
      name: 'fwbot_alert_scan_calls_total',
      help: 'SCC calls made by the alert scan, by profile and alert kind.',
      labelNames: ['profile', 'kind'],
      registers,
    }),
    alertEvents: new Counter({
      name: 'fwbot_alert_events_total',
      help: 'Transitions the alert scan found and handed to the incident desk, by kind and phase.',
      labelNames: ['kind', 'phase'],
      registers,
    }),
    setQueueDepthSource(source) {
      depthSource = source;
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
  return metrics;
}

/** The SCC client's `onCall` hook, counting each attempt by operation and status. */
export function sccCallRecorder(metrics: FwbotMetrics): (event: SccCallEvent) => void {
  return (event) => {
    const status = event.status === undefined ? event.outcome : String(event.status);
    metrics.sccCalls.inc({ operation: event.operationId, status });
    metrics.sccCallDuration.observe({ operation: event.operationId }, event.durationMs / 1000);
  };
}

/** What a Slack Web API client looks like to us: it emits `rate_limited` (seconds, { url }). */
export interface RateLimitEmitter {
  on(
    event: 'rate_limited',
    listener: (retryAfterSeconds: number, request: { url?: unknown }) => void,
  ): unknown;
}

/** `https://slack.com/api/chat.postMessage` → `chat.postMessage`. */
export function slackMethodOf(url: unknown): string {
  if (typeof url !== 'string') return 'unknown';
  const method = url.split('?')[0]?.split('/').pop();
  return method && /^[a-zA-Z.]+$/.test(method) ? method : 'unknown';
}

/** Counts every 429 a Slack client meets (Bolt's app.client, the workers' client, the approvals' client). */
export function observeSlackClient(client: RateLimitEmitter, metrics: FwbotMetrics): void {
  client.on('rate_limited', (retryAfterSeconds, request) => {
    const method = slackMethodOf(request.url);
    metrics.slackRateLimitWaits.inc({ method });
    if (Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0)
      metrics.slackRateLimitSeconds.inc({ method }, retryAfterSeconds);
  });
}
