// What an SCC operation handler receives and returns. Handlers are plain functions of a request
// context; the server does routing, authentication, body parsing, faults and logging around them.

import type { SccOperationId } from '../../scc/operationTypes.js';
import type { Principal } from '../auth.js';
import type { SimRuntime } from '../runtime.js';
import type { SimState } from '../state/model.js';

export interface RequestContext {
  readonly sim: SimRuntime;
  /** The world at the time of the request (the same object as sim.state unless a reset happens). */
  readonly state: SimState;
  readonly operationId: SccOperationId;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body, or undefined when the request had none. */
  readonly body: unknown;
  /** Simulated time when the request arrived. */
  readonly now: number;
}

export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => SimResponse | Promise<SimResponse>;

/** One handler per SCC operation: the compiler checks that every operation of the client is served. */
export type OperationHandlers = Record<SccOperationId, Handler>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): SimResponse =>
  headers === undefined ? { status, body } : { status, body, headers };
