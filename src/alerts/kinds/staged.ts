// Staged: changes left undeployed on a device (configState NOT_SYNCED) longer than the set time (4 h by
// default), told once, with who staged them from SCC's change log; closed when the device is in sync
// again (deployed or discarded). Read: the devices not in sync, every 5 minutes.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import { deployStaged, discardStaged, showChanges } from './actions.js';
import { changeLines, whoChanged } from './explain.js';
import {
  ANY_READER,
  DeviceMemo,
  defineAlertKind,
  deviceChanges,
  deviceFinding,
  type Finding,
  isoOf,
  memoOf,
  stillOpen,
} from './kind.js';

const State = DeviceMemo.extend({
  /** When the scan first saw the device out of sync (ms). */
  since: z.number(),
  /** Whether it has been told (the incident is open). */
  told: z.boolean(),
});

const NOT_SYNCED = 'NOT_SYNCED';

function hours(ms: number): string {
  const h = Math.round(ms / 3_600_000);
  if (h >= 1) return h === 1 ? '1 hour' : `${h} hours`;
  const m = Math.max(1, Math.round(ms / 60_000));
  return m === 1 ? '1 minute' : `${m} minutes`;
}

export const staged = defineAlertKind({
  kind: 'staged',
  summary: 'changes staged and left undeployed longer than the set time, and who staged them',
  tokenRoles: ANY_READER,
  words: {
    opened: 'left changes undeployed',
    closed: 'staged changes settled',
    noun: 'device',
    notice: 'staged-changes notice',
    now: ['device with changes left undeployed', 'devices with changes left undeployed'],
  },
  source: { from: 'devices', q: () => `configState:${NOT_SYNCED}` },
  acrossTenants: true,
  intervalMs: 5 * 60_000,
  state: State,
  // Ongoing while it lasts; a first read starts the clock at first sight, so it finds none of them yet.
  current: stillOpen,
  detect(input) {
    const { profile, now, settings } = input;
    const at = isoOf(now);
    const { next, changes } = deviceChanges(input, (device, before) =>
      device.configState === NOT_SYNCED
        ? { ...memoOf(device), since: before?.since ?? now, told: before?.told ?? false }
        : undefined,
    );
    const findings: Finding[] = [];
    for (const { uid, before, after } of changes) {
      if (after && after !== 'gone') {
        if (after.told || now - after.since < settings.stagedAfterMs) continue;
        next.set(uid, { ...after, told: true });
        const actions = after.tenant ? [] : [showChanges(uid), deployStaged(uid), discardStaged(uid)];
        findings.push(
          deviceFinding('staged', profile, uid, after, {
            field: 'configState',
            phase: 'open',
            state: NOT_SYNCED,
            previous: 'SYNCED',
            headline: `${untrusted(after.name)} has changes staged and not deployed for ${hours(now - after.since)}`,
            at,
            keyTime: isoOf(after.since),
            actions,
          }),
        );
      } else if (before?.told) {
        const gone = after === 'gone';
        findings.push(
          deviceFinding('staged', profile, uid, before, {
            field: 'configState',
            phase: 'close',
            state: gone ? 'REMOVED' : 'SYNCED',
            previous: NOT_SYNCED,
            headline: gone
              ? `${untrusted(before.name)} is no longer in the inventory`
              : `${untrusted(before.name)} is in sync again (deployed or discarded)`,
            at,
          }),
        );
      }
    }
    return { next, findings };
  },
  explain: {
    wants: (finding) => finding.phase === 'open',
    details: (entries) => {
      const who = whoChanged(entries);
      const lead =
        who.length > 0
          ? `Staged by ${who.map((user) => untrusted(user)).join(', ')} (SCC’s change log)`
          : 'SCC’s change log';
      return changeLines(entries, lead);
    },
  },
});
