// The HTTP side of a fwbot process: /healthz (the process is up), /readyz (its dependencies answer, and it
// is not draining) and /metrics (Prometheus text). In Slack's HTTP mode the routes are handed to Bolt's
// receiver as customRoutes, so one server serves Slack and operations; in Socket Mode (and in worker-only
// or demo processes) `listen()` starts a small server of its own on PORT.
//
// What each port says: PORT may be reachable by anyone (in HTTP mode it is Slack's), so its /readyz
// answers only whether the process is ready and each check's name with ok or not — no host, port or
// error text. With a metrics port (METRICS_PORT) `listenMetrics()` serves /metrics and the detailed
// /readyz (each check's reason and timing) there, and /metrics leaves PORT. Without one, the details are
// served nowhere; a check that starts failing is logged with its reason, and again when it passes (health.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createReadiness, type Readiness, type ReadinessCheck, type ReadinessReport } from './health.js';
import type { FwbotMetrics } from './metrics.js';

/** A route beside Slack's (Bolt takes these as custom routes, on its own server or on PORT). */
export interface HttpRoute {
  path: string;
  method: string | string[];
  handler(request: IncomingMessage, response: ServerResponse): void;
}

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export interface HttpSideOptions {
  /** Where `listen()` serves (Socket Mode, workers, demo); unused when Bolt serves the routes. */
  port: number;
  /** Where `listenMetrics()` serves /metrics and the detailed /readyz; /metrics then leaves PORT. */
  metricsPort?: number | undefined;
  /** Default 0.0.0.0: probes come from outside the container. */
  host?: string;
  /** The checks behind /readyz; or a prepared Readiness (e.g. one shared with the shutdown). */
  readinessChecks?: readonly ReadinessCheck[];
  readiness?: Readiness;
  metrics: FwbotMetrics;
  log?: Logger;
}

export interface HttpSide {
  /** For Bolt's `customRoutes` (HTTP mode, and Socket Mode when Bolt is given a port). */
  readonly routes: HttpRoute[];
  readonly readiness: Readiness;
  /** Answers a request if it is one of ours; false otherwise (so it can sit beside other handlers). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Starts a server of its own; resolves with the port it listens on (useful with port 0). */
  listen(): Promise<number>;
  /** Starts the server of /metrics and the detailed /readyz on the metrics port; resolves with its port. */
  listenMetrics(): Promise<number>;
  /** Marks the process not ready (shutdown began); /healthz keeps answering. */
  drain(): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`);
}

/** What /readyz says on PORT: ready or not, draining or not, and each check's name with ok or not. */
export interface PublicReadiness {
  ready: boolean;
  draining: boolean;
  checks: { name: string; ok: boolean }[];
}

export function publicReadiness(report: ReadinessReport): PublicReadiness {
  return {
    ready: report.ready,
    draining: report.draining,
    checks: report.checks.map(({ name, ok }) => ({ name, ok })),
  };
}

export function createHttpSide(options: HttpSideOptions): HttpSide {
  const readiness =
    options.readiness ??
    createReadiness(options.readinessChecks ?? [], {
      metrics: options.metrics,
      ...(options.log ? { log: options.log } : {}),
    });
  const startedAt = Date.now();
  const { metrics, log } = options;
  const separateMetrics = options.metricsPort !== undefined;
  let server: Server | undefined;
  let metricsServer: Server | undefined;

  const healthz = (_req: IncomingMessage, res: ServerResponse): void => {
    json(res, 200, { status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
  };

  /** /readyz: the whole report on the metrics port, what PORT may say elsewhere. */
  const readyzOf =
    (detailed: boolean) =>
    (_req: IncomingMessage, res: ServerResponse): void => {
      readiness.evaluate().then(
        (report) => json(res, report.ready ? 200 : 503, detailed ? report : publicReadiness(report)),
        (error: unknown) => {
          log?.error({ err: error }, 'readiness evaluation failed');
          json(res, 503, { ready: false, error: 'readiness evaluation failed' });
        },
      );
    };

  const metricsRoute = (_req: IncomingMessage, res: ServerResponse): void => {
    metrics.text().then(
      (text) => send(res, 200, metrics.contentType, text),
      (error: unknown) => {
        log?.error({ err: error }, 'metrics collection failed');
        send(res, 500, 'text/plain; charset=utf-8', 'metrics collection failed\n');
      },
    );
  };

  type Route = (req: IncomingMessage, res: ServerResponse) => void;
  const table: Record<string, Route> = {
    [HEALTH_PATH]: healthz,
    [READY_PATH]: readyzOf(false),
    ...(separateMetrics ? {} : { [METRICS_PATH]: metricsRoute }),
  };

  const handlerOf =
    (routes: Record<string, Route>) =>
    (req: IncomingMessage, res: ServerResponse): boolean => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const route = routes[path];
      if (!route) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' });
        res.end();
        return true;
      }
      route(req, res);
      return true;
    };
  const handle = handlerOf(table);

  /** A server of its own on `port` that answers `handler`'s routes and 404 to anything else. */
  const serve = async (
    handler: (req: IncomingMessage, res: ServerResponse) => boolean,
    port: number,
  ): Promise<Server> => {
    const own = createServer((req, res) => {
      if (!handler(req, res)) json(res, 404, { error: 'not found' });
    });
    await new Promise<void>((resolve, reject) => {
      own.once('error', reject);
      own.listen(port, options.host ?? '0.0.0.0', () => {
        own.off('error', reject);
        resolve();
      });
    });
    return own;
  };

  const closeServer = async (own: Server | undefined): Promise<void> => {
    if (!own) return;
    await new Promise<void>((resolve) => {
      own.close(() => resolve());
      // Probes and scrapes hold keep-alive sockets; they must not keep the process alive.
      own.closeIdleConnections();
    });
  };

  const portOf = (own: Server): number => (own.address() as AddressInfo).port; // TCP: an AddressInfo

  return {
    routes: Object.entries(table).map(([path, handler]) => ({ path, method: ['GET', 'HEAD'], handler })),
    readiness,
    handle,
    async listen() {
      if (server) throw new Error('the HTTP side is already listening');
      server = await serve(handle, options.port);
      const port = portOf(server);
      log?.info({ port }, separateMetrics ? 'health listening' : 'health and metrics listening');
      return port;
    },
    async listenMetrics() {
      if (options.metricsPort === undefined) throw new Error('no metrics port is configured');
      if (metricsServer) throw new Error('the metrics server is already listening');
      metricsServer = await serve(
        handlerOf({ [METRICS_PATH]: metricsRoute, [READY_PATH]: readyzOf(true) }),
        options.metricsPort,
      );
      const port = portOf(metricsServer);
      log?.info({ port }, 'metrics and detailed readiness listening');
      return port;
    },
    drain: () => readiness.drain(),
    async close() {
      const own = [server, metricsServer];
      server = undefined;
      metricsServer = undefined;
      await Promise.all(own.map(closeServer));
    },
  };
}
