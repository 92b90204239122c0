// What the scan costs SCC: 1,000 devices across managed tenants, every kind subscribed across tenants and
// on the portal's own tenant, 30 devices offline (open incidents, looked at sooner). The scan reads the
// exceptional sets, so its calls a minute stay near the cost of reading the inventory once a minute (5
// pages of 200), far from a read per device; the figure is printed for the docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKindOf } from '../../../src/alerts/index.js';
import type { SccCallEvent } from '../../../src/scc/client.js';
import { type SimulatorHandle, startSimulator } from '../../../src/simulator/index.js';
import { scanWorld, subscription } from './scanSupport.js';

const SECOND = 1_000;

describe('what the alert scan costs SCC', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, clock: 'manual', scale: { tenants: 20, devices: 1_000 } });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it('reads 1,000 devices with every kind for a few calls a minute, not one per device', async () => {
    const world = await scanWorld(sim);
    try {
      const acrossTenants = ALERT_KINDS.filter((kind) => alertKindOf(kind).acrossTenants);
      await world.subscriptions.subscribe(
        subscription('C0MSPNOC01', acrossTenants, { scope: { kind: 'all-tenants' } }),
      );
      await world.subscriptions.subscribe(subscription('C0OWN00001', [...ALERT_KINDS]));
      const bench = [...sim.state.devices.values()].filter((d) => d.device.name.startsWith('bench-'));
      expect(bench.length).toBe(1_000);
      for (const record of bench.slice(0, 30)) record.device.connectivityState = 'UNREACHABLE';

      await world.scanAfter(0); // baselines
      const calls: SccCallEvent[] = [];
      world.clients.calls.on('call', (event: SccCallEvent) => calls.push(event));
      for (let tick = 0; tick < 40; tick += 1) await world.scanAfter(15 * SECOND); // ten minutes
      const perMinute = calls.length / 10;
      const byOperation = Object.entries(
        calls.reduce<Record<string, number>>((counts, call) => {
          counts[call.operationId] = (counts[call.operationId] ?? 0) + 1;
          return counts;
        }, {}),
      ).sort();
      console.info(`alert scan, 1,000 devices, every kind: ${perMinute} SCC calls a minute`, byOperation);
      expect(calls.every((call) => call.operationId !== 'getDevice')).toBe(true);
      expect(perMinute).toBeLessThanOrEqual(2 * 5 + 10); // within 2× an inventory read a minute, plus the own tenant's lists
      expect(world.delivered).toEqual([]); // nothing changed: nothing told
    } finally {
      await world.close();
    }
  }, 60_000);
});
