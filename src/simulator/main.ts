// `npm run simulator -- --port 4010 [--speed N] [--seed NAME] [--host H] [--clock real|manual]
// [--tenants N --devices N]`: runs the
// SCC simulator standalone, prints its base URL, the demo tokens and the seeded inventory, and serves
// until SIGINT / SIGTERM. A promise rejection nothing handled is one line on stderr and it keeps serving
// (its world lives in memory); an exception nothing caught ends it with exit 1
// (observability/processFaults.ts).
import { parseArgs } from 'node:util';
import { installProcessFaults } from '../observability/processFaults.js';
import { type SimulatorHandle, startSimulator } from './simulator.js';
import { MAX_SCALE, type WorldScale } from './state/seedScale.js';

const USAGE = `usage: npm run simulator -- [--port 4010] [--host 127.0.0.1] [--speed 1] [--seed default] [--clock real|manual] [--tenants N --devices N]`;

function fail(message: string): never {
  console.error(`simulator: ${message}\n${USAGE}`);
  process.exit(2);
}

let running: SimulatorHandle | undefined;

installProcessFaults({
  kind: 'keep-serving',
  log: {
    error: (_fields, message) => console.error(`simulator: ${message}`),
    fatal: (_fields, message) => console.error(`simulator: ${message}`),
  },
  stop: () => {
    const stopping = running?.stop() ?? Promise.resolve();
    stopping.then(
      () => process.exit(1),
      () => process.exit(1),
    );
  },
});

async function main(): Promise<void> {
  let values: {
    port?: string;
    host?: string;
    speed?: string;
    seed?: string;
    clock?: string;
    tenants?: string;
    devices?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        speed: { type: 'string', default: '1' },
        seed: { type: 'string', default: 'default' },
        clock: { type: 'string', default: 'real' },
        tenants: { type: 'string' },
        devices: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  const speed = Number(values.speed);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`--port must be 0–65535, got ${values.port}`);
  if (!(speed > 0) || !Number.isFinite(speed)) fail(`--speed must be a positive number, got ${values.speed}`);
  if (values.clock !== 'real' && values.clock !== 'manual')
    fail(`--clock must be real or manual, got ${values.clock}`);
  let scale: WorldScale | undefined;
  if (values.tenants !== undefined || values.devices !== undefined) {
    const tenants = Number(values.tenants ?? '1');
    const devices = Number(values.devices ?? '0');
    if (!Number.isInteger(tenants) || tenants < 1 || tenants > MAX_SCALE.tenants)
      fail(`--tenants must be 1–${MAX_SCALE.tenants}, got ${values.tenants}`);
    if (!Number.isInteger(devices) || devices < 0 || devices > MAX_SCALE.devices)
      fail(`--devices must be 0–${MAX_SCALE.devices}, got ${values.devices}`);
    scale = { tenants, devices };
  }

  const sim = await startSimulator({
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    speed,
    seed: values.seed ?? 'default',
    clock: values.clock,
    ...(scale === undefined ? {} : { scale }),
  });
  running = sim;
  // A large world is summed up rather than listed.
  const listed = [...sim.state.devices.values()].filter(
    (d) => scale === undefined || !d.device.name.startsWith('bench-'),
  );
  const devices = listed.map(
    (d) => `    ${d.device.name.padEnd(14)} ${d.device.deviceType.padEnd(18)} ${d.device.uid}`,
  );
  const tenants = [...sim.state.tenants.values()]
    .filter((t) => scale === undefined || !t.name.startsWith('bench-'))
    .map(
      (t) =>
        `    ${t.name.padEnd(16)} ${t.region.padEnd(4)} ${(t.isPortal ? 'portal' : t.inPortal ? 'managed' : t.associated ? 'associated' : 'token only').padEnd(11)} ${t.uid}`,
    );
  console.log(
    [
      `SCC simulator listening on ${sim.url}  (seed "${sim.state.seed}", ${sim.clock.mode} clock${sim.clock.mode === 'real' ? ` ×${sim.clock.speed}` : ''})`,
      '',
      '  tokens (Authorization: Bearer <token>):',
      `    ${sim.tokens.superAdmin.padEnd(16)} super-admin of the MSP portal`,
      `    ${sim.tokens.admin.padEnd(16)} admin`,
      `    ${sim.tokens.readOnly.padEnd(16)} read-only`,
      '',
      '  tenants:',
      ...tenants,
      '',
      '  devices:',
      ...devices,
      ...(scale === undefined
        ? []
        : [`    … and ${scale.devices} devices across ${scale.tenants} managed tenants bench-…`]),
      '',
      `  admin: ${sim.url}/_sim   (state, reset, clock, tokens, requests, faults, devices, deployments, upgrades, users)`,
    ].join('\n'),
  );

  const stop = (signal: string) => {
    console.log(`\nsimulator: ${signal}, stopping`);
    sim.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('simulator: failed to stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('simulator: failed to start', error);
  process.exit(1);
});
