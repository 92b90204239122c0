// Change windows and staged changes as the deploy tests set them up: a policy window open every day
// between two times of day (UTC), and a VLAN deletion staged on an ASA of the simulator through SCC's API.
import type { ChangeSettings } from '../../src/config/profilesFileSchema.js';
import { defaultChanges, openPeriod } from '../../src/config/profilesFileSchema.js';
import type { SccClient } from '../../src/scc/client.js';
import type { SimulatorHandle } from '../../src/simulator/index.js';

const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `HH:MM` in UTC of a moment. */
export const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

/** The policy's `changes` with one window, open every day from the time of day of `from` to that of `to`. */
export function openEveryDay(from: number, to: number): ChangeSettings {
  return {
    ...defaultChanges,
    windows: [
      {
        devices: undefined,
        profile: undefined,
        timeZone: 'UTC',
        open: [openPeriod([...EVERY_DAY], hhmm(from), hhmm(to))],
      },
    ],
  };
}

/** Stages the deletion of a VLAN interface on an ASA (SCC's copy only, until a deploy). */
export async function stageVlanDeletion(
  sim: SimulatorHandle,
  scc: SccClient,
  device: string,
  hardwareName: string,
): Promise<void> {
  const deviceUid = sim.deviceUid(device);
  const vlan = [...sim.state.interfaces.values()].find(
    (i) => i.deviceUid === deviceUid && i.hardwareName === hardwareName,
  );
  if (!vlan) throw new Error(`no ${hardwareName} on ${device}`);
  await scc.call('deleteAsaVlanInterface', { path: { deviceUid, interfaceUid: vlan.uid } });
}
