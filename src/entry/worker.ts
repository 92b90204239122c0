import { runFwbotProcess } from '../app/process.js';
import { startWorker } from '../app/worker.js';
import type { Config } from '../config.js';
import type { HttpSide } from '../observability/httpSide.js';

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
}

/**
 * Serves the probes (and METRICS_PORT's server), or ends the process (exit 2) when a port is taken. Called
 * before any job is taken, so a worker that cannot be probed stops with nothing in hand; the usual cause
 * is a second process on one host left on the default PORT, or on the bot's METRICS_PORT.
 */
async function serveProbes(http: HttpSide, ports: Config['http']): Promise<void> {
  const taken = (what: string, variable: string, port: number, example: string): never => {
    process.stderr.write(
      `fwbot worker cannot serve ${what}: ${variable} ${port} is already in use on this host. ` +
        `Give each process on one host its own ${variable} (${example}).\n`,
    );
    return process.exit(2);
  };
  try {
    await http.listen();
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    const what = ports.metricsPort === undefined ? '/healthz, /readyz and /metrics' : '/healthz and /readyz';
    taken(what, 'PORT', ports.port, 'e.g. PORT=3000 for the bot, PORT=3001 for a worker');
  }
  if (ports.metricsPort === undefined) return;
  try {
    await http.listenMetrics();
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    await http.close();
    taken('/metrics', 'METRICS_PORT', ports.metricsPort, 'e.g. 9464 for the bot, 9465 for a worker');
  }
}

runFwbotProcess({
  name: 'fwbot worker',
  component: 'worker',
  async start({ config, log, metrics }) {
    const worker = await startWorker(config, log, {
      metrics,
      serve: (http) => serveProbes(http, config.http),
    });
    return worker.shutdownSteps();
  },
});
