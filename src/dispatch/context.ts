// The context every run of an operation gets (OperationContext in src/catalogue/operation.ts), built in one
// place for the dispatcher and for what runs calls later (the approvals' executor, the queues' workers): the
// profile's SCC client, who asks and the request's id and logger, the clock, and what the deployment gives
// operations (its Redis-backed services, its policy). Each caller passes its own clients (workers' make no
// retries) and the one clock of the process: the executor's, so a card and the run it announces agree.
import type { OperationContext, OperationPolicy, OperationServices } from '../catalogue/operation.js';
import type { SccClients } from './ports.js';
import type { RequestContext } from './request.js';

export interface ContextSources {
  scc: SccClients;
  services?: OperationServices | undefined;
  policy?: OperationPolicy | undefined;
  /** The clock operations read (OperationContext.now); the machine's when none is given. */
  clock?: (() => number) | undefined;
}

/**
 * The operation's context on a profile; `approvedBy` when the call runs after someone's approval, and
 * `approval` (its card's thread and the grants to re-check) when the approvals' executor runs it.
 */
export function operationContext(
  sources: ContextSources,
  request: RequestContext,
  profile: string,
  approvedBy?: string,
  approval?: OperationContext['approval'],
): OperationContext {
  const { services, policy } = sources;
  return {
    scc: sources.scc.get(profile),
    profile,
    actor: request.actor,
    requestId: request.requestId,
    log: request.log,
    now: sources.clock ?? Date.now,
    ...(services ? { services } : {}),
    ...(policy ? { policy } : {}),
    ...(approvedBy ? { approvedBy } : {}),
    ...(approval ? { approval } : {}),
  };
}
