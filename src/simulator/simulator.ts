// Starting and stopping the simulator: wires the clock, the seeded world, the SCC routes and the admin
// routes to one node:http server, and hands tests a handle to drive simulated time and read the world.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultInjector } from './admin/faults.js';
import { RequestLog } from './admin/requestLog.js';
import { createAdmin } from './admin/routes.js';
import { operationHandlers } from './api/operations.js';
import { mintTenantToken } from './auth.js';
import { type ClockMode, createClock } from './clock.js';
import { createFront } from './http/server.js';
import { startManagementEndpoint } from './management.js';
import { ParkedRequests, type SimRuntime } from './runtime.js';
import type { SimState } from './state/model.js';
import { keepWorld, openWorldFile, type WorldOrigin } from './state/saved.js';
import { DEFAULT_SEED, DEFAULT_START_TIME, seedState } from './state/seed.js';
import type { WorldScale } from './state/seedScale.js';
import { DEMO_TOKENS } from './state/seedTenants.js';

export interface StartSimulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; loopback by default. */
  host?: string;
  /** Seed name: the same name always yields the same world. Default "default". */
  seed?: string;
  /**
   * A large MSP world for benchmarks: `tenants` more managed tenants sharing `devices` devices, on top of
   * the seed's world (state/seedScale.ts). Kept across resets unless a reset gives another.
   */
  scale?: WorldScale;
  /**
   * On a real clock, how many times faster than SCC's the work goes (transactions, runs, waits, expiries);
   * the times it reports stay the wall clock's. Ignored by a manual clock.
   */
  speed?: number;
  /** 'manual' (default): time moves only through clock.advance(); 'real': it is the wall clock. */
  clock?: ClockMode;
  /** Simulated start time (epoch ms). Default: a fixed date for a manual clock, now for a real one (and a
   * reset of a real clock starts again from now, so its times stay the wall clock's). */
  startTime?: number;
  /** The wall time a real clock follows (see ClockOptions.wall); tests only. */
  wall?: () => number;
  /**
   * Keeps the world in this file: restored from it at start (work that was in flight then ends in ERROR),
   * written to it whenever it changes and on stop. A file of another seed or shape is replaced.
   */
  worldFile?: string;
}

export interface SimulatorHandle {
  /** Base URL, e.g. http://127.0.0.1:40123 — the stand-in for https://api.<region>.security.cisco.com/firewall. */
  readonly url: string;
  readonly port: number;
  /**
   * The port of the ASAs' management HTTPS (management.ts): `managementRoute(port)` sends a certificate
   * probe's handshakes there.
   */
  readonly managementPort: number;
  readonly tokens: typeof DEMO_TOKENS;
  readonly clock: {
    readonly mode: ClockMode;
    readonly speed: number;
    now(): number;
    /** Moves simulated time forward; pending work (transactions, device answers, runs) progresses. */
    advance(ms: number): void;
    /** How long SCC work of `ms` lasts here: `ms / speed` (see SimClock.span). */
    span(ms: number): number;
  };
  /** The current world (a new object after reset). */
  readonly state: SimState;
  /** Where the world at start came from: the seed, or the world file. */
  readonly world: WorldOrigin;
  readonly faults: FaultInjector;
  readonly requestLog: RequestLog;
  /** A token acting as an API-only super-admin of that tenant (e.g. for the cdFMC second leg). */
  mintTenantToken(tenantUid: string): string;
  /** UID of a seeded (or created) device / tenant by name; throws when there is none. */
  deviceUid(name: string): string;
  tenantUid(name: string): string;
  /** Resolves once at least `count` requests are waiting on simulated time (synchronous gateway calls). */
  untilParked(count?: number): Promise<void>;
  /** Back to the seed (or to another seed, or scale): world, clock, log and faults. */
  reset(seed?: string, scale?: WorldScale): void;
  stop(): Promise<void>;
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<SimulatorHandle> {
  const mode = options.clock ?? 'manual';
  // A real clock starts from the wall clock's now and keeps to it (see clock.ts).
  const startTime = options.startTime ?? (mode === 'manual' ? DEFAULT_START_TIME : Date.now());
  let seed = options.seed ?? DEFAULT_SEED;
  let scale = options.scale;
  const clock = createClock({
    mode,
    start: startTime,
    speed: mode === 'real' ? (options.speed ?? 1) : 1,
    ...(options.wall ? { wall: options.wall } : {}),
  });
  const opened =
    options.worldFile === undefined
      ? { state: undefined, origin: { kind: 'seeded' } as const }
      : openWorldFile(options.worldFile, seed, startTime);
  const world: WorldOrigin = opened.origin;
  const sim: SimRuntime = {
    clock,
    state: opened.state ?? seedState(seed, startTime, scale),
    baseUrl: '',
    parked: new ParkedRequests(),
  };
  const faults = new FaultInjector(seed);
  const log = new RequestLog();

  const reset = (newSeed?: string, newScale?: WorldScale): void => {
    seed = newSeed ?? seed;
    scale = newScale ?? scale;
    sim.parked.releaseAll();
    const from = mode === 'real' && options.startTime === undefined ? Date.now() : startTime;
    clock.reset(from);
    sim.state = seedState(seed, from, scale);
    faults.clear(seed);
    log.clear();
  };

  const server: Server = createServer(
    { keepAlive: true },
    createFront({
      sim,
      handlers: operationHandlers,
      faults,
      log,
      admin: createAdmin({ sim, faults, log, reset }),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const management = await startManagementEndpoint(() => sim.state, options.host ?? '127.0.0.1');
  const keeper = options.worldFile === undefined ? undefined : keepWorld(options.worldFile, () => sim.state);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  sim.baseUrl = `http://${host}:${address.port}`;

  const byName = <T>(
    items: Iterable<T>,
    name: string,
    get: (t: T) => { name: string; uid: string },
    what: string,
  ) => {
    for (const item of items) if (get(item).name === name) return get(item).uid;
    throw new Error(`the simulator has no ${what} named ${name}`);
  };

  return {
    url: sim.baseUrl,
    port: address.port,
    managementPort: management.port,
    tokens: DEMO_TOKENS,
    clock: {
      mode,
      speed: clock.speed,
      now: () => clock.now(),
      advance: (ms) => clock.advance(ms),
      span: (ms) => clock.span(ms),
    },
    get state() {
      return sim.state;
    },
    world,
    faults,
    requestLog: log,
    mintTenantToken: (tenantUid) => mintTenantToken(sim.state, tenantUid),
    deviceUid: (name) => byName(sim.state.devices.values(), name, (d) => d.device, 'device'),
    tenantUid: (name) => byName(sim.state.tenants.values(), name, (t) => t, 'tenant'),
    untilParked: (count = 1) => sim.parked.until(count),
    reset,
    stop: async () => {
      sim.parked.releaseAll();
      clock.close();
      keeper?.stop();
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeIdleConnections();
      // Requests still in flight get a moment to finish; then their connections are cut.
      const cut = setTimeout(() => server.closeAllConnections(), 1_000);
      cut.unref();
      await Promise.all([closed, management.close()]);
      clearTimeout(cut);
    },
  };
}
