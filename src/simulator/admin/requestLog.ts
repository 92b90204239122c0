// The request log tests and benchmarks read through /_sim/requests: one entry per SCC API request
// (method, path, status, simulated and real time, operation id, the caller's tenant, injected fault),
// newest last, bounded.
/** What the server records; times are epoch ms and become ISO text only when the log is read. */
export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  status: number;
  operationId?: string;
  /** The tenant whose token the request carried (its name), once the token is known: which token SCC saw. */
  tenant?: string;
  time: number;
  realTime: number;
  durationMs: number;
  fault?: string;
}

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
  operationId?: string;
  /** The tenant whose token the request carried (its name); absent when the token was not recognised. */
  tenant?: string;
  /** Simulated time the request arrived, and the wall-clock time. */
  time: string;
  realTime: string;
  durationMs: number;
  fault?: string;
}

export class RequestLog {
  private entries: (RequestRecord & { seq: number })[] = [];
  private seq = 0;

  constructor(private readonly capacity = 10_000) {}

  add(entry: RequestRecord): void {
    this.seq += 1;
    this.entries.push({ seq: this.seq, ...entry });
    // Drop the oldest in batches so a long benchmark does not shift the array on every request.
    if (this.entries.length > this.capacity * 1.1) this.entries = this.entries.slice(-this.capacity);
  }

  list(
    filter: { since?: number; limit?: number; operationId?: string; path?: string } = {},
  ): RequestLogEntry[] {
    let out = this.entries.filter((e) => e.seq > (filter.since ?? 0));
    if (filter.operationId !== undefined) out = out.filter((e) => e.operationId === filter.operationId);
    if (filter.path !== undefined) out = out.filter((e) => e.path === filter.path);
    if (filter.limit !== undefined) out = out.slice(-filter.limit);
    return out.map((e) => ({
      ...e,
      time: new Date(e.time).toISOString(),
      realTime: new Date(e.realTime).toISOString(),
    }));
  }

  get total(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
  }
}
