// `/fw shun` on the simulator, its view as the golden holds it: the impact read first, the shun on the device,
// its end scheduled per device; refused before anything is sent when no end can be scheduled.
import { describe, expect, it } from 'vitest';
import type { TimedSchedule, TimedWork } from '../../src/catalogue/services.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();

function recordingTimed(): { timed: TimedWork; scheduled: TimedSchedule<unknown>[] } {
  const scheduled: TimedSchedule<unknown>[] = [];
  const refused = () => Promise.reject(new Error('not in this test'));
  const timed: TimedWork = {
    schedule: async (_kind, item) => {
      scheduled.push(item);
      return { scheduled: true, item: {} as never };
    },
    cancel: refused,
    reschedule: refused,
    get: refused,
    list: refused,
    history: refused,
  };
  return { timed, scheduled };
}

describe('shun', () => {
  const op = catalogue.get('shun');
  if (!op) throw new Error('no shun operation');
  const raw = { address: '203.0.113.66', devices: 'asa-hq-01', for: '2h', reason: 'brute force' };

  it('reads the impact, shuns the address and schedules its end on each device', async () => {
    const { timed, scheduled } = recordingTimed();
    const outcome = await driveClock(h.sim.clock, op.execute({ ...h.context(), services: { timed } }, raw));
    h.golden('shun', outcome);
    const scripts = receivedCliScripts(h.sim.state).map((s) => s.script);
    expect(scripts).toEqual(['show conn address 203.0.113.66', 'shun 203.0.113.66']);
    expect(scheduled.map((s) => s.payload)).toEqual([
      expect.objectContaining({ device: 'asa-hq-01', address: '203.0.113.66', reason: 'brute force' }),
    ]);
  });

  it('sends no shun when its end cannot be scheduled', async () => {
    const before = receivedCliScripts(h.sim.state).filter((s) => s.script.startsWith('shun')).length;
    await expect(driveClock(h.sim.clock, op.execute(h.context(), raw))).rejects.toThrow(
      'cannot schedule the end of a shun',
    );
    expect(receivedCliScripts(h.sim.state).filter((s) => s.script.startsWith('shun')).length).toBe(before);
  });
});
