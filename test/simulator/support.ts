// Helpers for the simulator's behaviour tests: a simulator on port 0 with a manual clock, and raw HTTP
// calls (undici) that return status, headers and parsed body, so tests see exactly what went over the wire.
import { request } from 'undici';
import {
  type SimulatorHandle,
  type StartSimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is (not JSON-encoded) when given. */
  rawBody?: string;
  query?: Record<string, string | number | readonly string[]>;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<RawResponse> {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
  }
  const token = options.token === undefined ? 'sim-super-admin' : options.token;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await request(url, { method: method as 'GET', headers, body: payload });
  const text = await response.body.text();
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.statusCode, headers: response.headers, body, text };
}

/** A simulator plus `api(method, path, options)` bound to it. */
export async function simulator(options: StartSimulatorOptions = {}) {
  const sim: SimulatorHandle = await startSimulator(options);
  const api = (method: string, path: string, opts: CallOptions = {}) => call(sim.url, method, path, opts);
  return { sim, api };
}

/** The body of a response as a record, failing the test with the status and text when it is not one. */
export function obj(response: RawResponse): Record<string, unknown> {
  if (typeof response.body !== 'object' || response.body === null || Array.isArray(response.body)) {
    throw new Error(`expected a JSON object, got ${response.status}: ${response.text}`);
  }
  return response.body as Record<string, unknown>;
}

export function items(response: RawResponse): Record<string, unknown>[] {
  const list = obj(response).items;
  if (!Array.isArray(list)) throw new Error(`expected a page, got ${response.status}: ${response.text}`);
  return list as Record<string, unknown>[];
}

export const str = (value: unknown): string => {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
};

/** The events of a change log as the API answered it (none when there is no change log). */
export const eventsOf = (log: Record<string, unknown> | undefined): Record<string, string>[] =>
  (log?.events ?? []) as Record<string, string>[];
