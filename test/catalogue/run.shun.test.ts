// `/fw shun` on the simulator, its view as the golden holds it: the impact read first, the shun on the device,
// its end scheduled per device; refused before anything is sent when no end can be scheduled.
import { describe, expect, it } from 'vitest';
import type { TimedSchedule, TimedWork } from '../../src/catalogue/services.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
/** The harness's clock is the machine's: a fixed one, so the shun's end reads the same in the golden. */
const AT = Date.UTC(2026, 0, 5, 9, 0);

function recordingTimed(): {
  timed: TimedWork;
  scheduled: TimedSchedule<unknown>[];
  moved: { key: string; at: number }[];
} {
  const scheduled: TimedSchedule<unknown>[] = [];
  const moved: { key: string; at: number }[] = [];
  const refused = () => Promise.reject(new Error('not in this test'));
  const timed: TimedWork = {
    schedule: async (_kind, item) => {
      scheduled.push(item);
      return { scheduled: true, item: {} as never };
    },
    cancel: async () => ({ outcome: 'cancelled', item: {} as never }),
    reschedule: async (ref, at) => {
      moved.push({ key: ref.key, at });
      return { outcome: 'rescheduled', item: {} as never };
    },
    speakIn: refused,
    get: refused,
    list: async () =>
      scheduled.map((item, i) => ({
        id: `shun-expiry~${item.profile}~${i}`,
        kind: 'shun-expiry',
        profile: item.profile,
        key: String(i),
        what: 'no shun',
        owner: item.owner,
        devices: [],
        state: 'scheduled' as const,
        dueAt: item.at,
        scheduledAt: item.at,
        attempts: 0,
        round: 0,
        payload: item.payload,
      })),
    history: refused,
  };
  return { timed, scheduled, moved };
}

describe('shun', () => {
  const op = catalogue.get('shun');
  if (!op) throw new Error('no shun operation');
  const raw = { address: '203.0.113.66', devices: 'asa-hq-01', for: '2h', reason: 'brute force' };

  it('reads the impact, shuns the address and schedules its end on each device', async () => {
    const { timed, scheduled } = recordingTimed();
    const outcome = await driveClock(
      h.sim.clock,
      op.execute({ ...h.context(), now: () => AT, services: { timed } }, raw),
    );
    h.golden('shun', outcome);
    // Its end learns the thread of the announcement once that is posted.
    expect(outcome.timed).toEqual([
      { kind: 'shun-expiry', profile: 'default', key: `${h.sim.deviceUid('asa-hq-01')}:203.0.113.66` },
    ]);
    const scripts = receivedCliScripts(h.sim.state).map((s) => s.script);
    expect(scripts).toEqual(['show conn address 203.0.113.66', 'shun 203.0.113.66']);
    expect(scheduled.map((s) => s.payload)).toEqual([
      expect.objectContaining({ device: 'asa-hq-01', address: '203.0.113.66', reason: 'brute force' }),
      // Its watch: re-applied after a failover, a reload or a reconnect while it lasts.
      { deviceUid: h.sim.deviceUid('asa-hq-01'), device: 'asa-hq-01', address: '203.0.113.66', seq: 0 },
    ]);
  });

  it('lists the active shuns it placed, one line per address and end', async () => {
    const { timed } = recordingTimed();
    const ctx = { ...h.context(), now: () => AT, services: { timed } };
    await driveClock(
      h.sim.clock,
      op.execute(ctx, { ...raw, devices: 'asa-hq-01,asa-dc-03', reason: 'scan password=x' }),
    );
    const list = catalogue.get('shun.list');
    if (!list) throw new Error('no shun.list');
    const outcome = await list.execute(ctx, {});
    h.golden('shun.list', outcome);
  });

  it('ends a shun early: its end brought forward to now, which sends `no shun`', async () => {
    const { timed, moved } = recordingTimed();
    const ctx = { ...h.context(), now: () => AT, services: { timed } };
    await driveClock(h.sim.clock, op.execute(ctx, raw));
    const unshun = catalogue.get('unshun');
    if (!unshun) throw new Error('no unshun');
    const outcome = await driveClock(h.sim.clock, unshun.execute(ctx, { address: '203.0.113.66' }));
    h.golden('unshun', outcome);
    expect(moved).toEqual([{ key: '0', at: AT }]);
    expect(receivedCliScripts(h.sim.state).map((s) => s.script)).not.toContain('no shun 203.0.113.66');
  });

  it('sends no shun when its end cannot be scheduled', async () => {
    const before = receivedCliScripts(h.sim.state).filter((s) => s.script.startsWith('shun')).length;
    await expect(driveClock(h.sim.clock, op.execute(h.context(), raw))).rejects.toThrow(
      'cannot schedule the end of a shun',
    );
    expect(receivedCliScripts(h.sim.state).filter((s) => s.script.startsWith('shun')).length).toBe(before);
  });
});
