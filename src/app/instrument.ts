// Decorators that count what fwbot does without touching the code that does it: a catalogue whose
// operations record `fwbot_commands_total` around execute(), an approval gate that records requests, and
// a Bolt app whose acks are timed. Every surface (Slack, console, CLI, the approvals executor) runs
// operations through the catalogue, so one decorator covers them all.

import type { Catalogue } from '../catalogue/index.js';
import type { Operation } from '../catalogue/operation.js';
import { SccUserError } from '../catalogue/sccErrors.js';
import type { ApprovalGate } from '../dispatch/ports.js';
import { newRequestId } from '../dispatch/request.js';
import { PermissionError, UsageError, UserError } from '../model/errors.js';
import { withLogContext } from '../observability/logContext.js';
import type { CommandOutcome, FwbotMetrics } from '../observability/metrics.js';
import { SccError } from '../scc/errors.js';

/** The outcome label of a failed command. */
export function failureOutcome(error: unknown): CommandOutcome {
  if (error instanceof PermissionError) return 'denied';
  if (error instanceof UsageError) return 'usage_error';
  if (error instanceof SccUserError || error instanceof SccError) return 'scc_error';
  if (error instanceof UserError) return 'user_error';
  return 'internal_error';
}

/** The same operation, counting each execute() by outcome and timing it. */
export function instrumentOperation(op: Operation, metrics: FwbotMetrics): Operation {
  return {
    ...op,
    // The facts a governed call was approved on are passed on: without them the operation resolves its
    // target again and acts on what it finds then, not on what was read again and compared.
    async execute(ctx, raw, facts) {
      const end = metrics.commandDuration.startTimer({ operation: op.id });
      try {
        const outcome = await op.execute(ctx, raw, facts);
        metrics.commands.inc({ operation: op.id, outcome: 'ok' });
        return outcome;
      } catch (error) {
        metrics.commands.inc({ operation: op.id, outcome: failureOutcome(error) });
        throw error;
      } finally {
        end();
      }
    },
  };
}

/** The catalogue with every operation instrumented; parse() and get() hand out the instrumented ones. */
export function instrumentCatalogue(catalogue: Catalogue, metrics: FwbotMetrics): Catalogue {
  const wrapped = new Map(catalogue.operations.map((op) => [op.id, instrumentOperation(op, metrics)]));
  const same = (op: Operation): Operation => wrapped.get(op.id) ?? op;
  return {
    ...catalogue,
    operations: catalogue.operations.map(same),
    get: (id) => {
      const op = catalogue.get(id);
      return op && same(op);
    },
    parse: (text) => {
      const parsed = catalogue.parse(text);
      return { ...parsed, op: same(parsed.op) };
    },
  };
}

/** The gate, counting governed calls sent for approval (and those refused on the way). */
export function instrumentGate(gate: ApprovalGate, metrics: FwbotMetrics): ApprovalGate {
  return {
    async request(input) {
      const operation = input.operation.id;
      try {
        const requested = await gate.request(input);
        metrics.commands.inc({ operation, outcome: 'approval_requested' });
        return requested;
      } catch (error) {
        metrics.commands.inc({ operation, outcome: failureOutcome(error) });
        throw error;
      }
    },
  };
}

/** What a Bolt receiver hands the app: the parsed body and the ack to call within 3 seconds. */
export interface ReceivedEvent {
  body: Record<string, unknown>;
  ack: (response?: never) => Promise<void>;
}

/** The part of a Bolt App that receivers call (App.processEvent). */
export interface EventProcessor<E> {
  processEvent(event: E): Promise<void>;
}

/** Which kind of interaction a Slack payload is: the label of `fwbot_ack_latency_seconds`. */
export function interactionKind(body: Record<string, unknown>): string {
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'block_actions':
      return 'action';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'block_suggestion':
      return 'options';
    case 'event_callback':
      return 'event';
    case 'shortcut':
    case 'message_action':
      return 'shortcut';
    default:
      return 'other';
  }
}

/**
 * Times every ack: from the moment the receiver hands an interaction to the app until ack() is called,
 * and gives the interaction an `eventId` that every log line written while handling it carries.
 * Receivers (HTTP and Socket Mode) call `app.processEvent` on the instance, so wrapping it there sees
 * every interaction without changing the listeners.
 */
export function instrumentBolt<E extends ReceivedEvent>(app: EventProcessor<E>, metrics: FwbotMetrics): void {
  const original = app.processEvent.bind(app);
  // One labelled child per kind, so timing an ack does not hash its labels on every request.
  const timers = new Map<string, ReturnType<typeof metrics.ackLatency.labels>>();
  const timerOf = (kind: string) => {
    let timer = timers.get(kind);
    if (!timer) {
      timer = metrics.ackLatency.labels(kind);
      timers.set(kind, timer);
    }
    return timer;
  };
  app.processEvent = (event: E) => {
    const end = timerOf(interactionKind(event.body)).startTimer();
    const ackEvent = event.ack;
    let timed = false;
    // The receiver builds this event for this request alone: its ack is wrapped in place.
    event.ack = async (...args) => {
      if (!timed) {
        timed = true;
        end();
      }
      return ackEvent.apply(event, args);
    };
    // Every log line written while this interaction is handled — by the surface, and by shared objects
    // such as the SCC clients — carries the same event id (see logContext.ts).
    return withLogContext({ eventId: newRequestId() }, () => original(event));
  };
}
