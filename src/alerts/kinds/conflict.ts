// Conflict: SCC found the device's configuration changed outside SCC (CONFLICT_DETECTED), and when that is
// resolved. Read: the devices in conflict, every minute (and those in an open incident sooner). What
// changed comes from SCC's change log, read once per conflict found.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
import { acceptDeviceConfiguration, showChangelog, showChanges } from './actions.js';
import { changeLines } from './explain.js';
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

const State = DeviceMemo.extend({ since: z.number() });

const CONFLICT = 'CONFLICT_DETECTED';

export const conflict = defineAlertKind({
  kind: 'conflict',
  summary: 'a device was changed outside SCC (conflict detected), with what changed',
  tokenRoles: ANY_READER,
  words: {
    opened: 'changed outside SCC',
    closed: 'conflict resolved',
    noun: 'device',
    notice: 'conflict notice',
    now: ['conflict', 'conflicts'],
  },
  source: { from: 'devices', q: () => `conflictDetectionState:${CONFLICT}` },
  acrossTenants: true,
  intervalMs: 60_000,
  sooner: () => true,
  state: State,
  current: stillOpen,
  detect(input) {
    const { profile, now } = input;
    const at = isoOf(now);
    const { next, changes } = deviceChanges(input, (device, before) =>
      device.conflictDetectionState === CONFLICT
        ? { ...memoOf(device), since: before?.since ?? now }
        : undefined,
    );
    const findings: Finding[] = [];
    for (const { uid, before, after } of changes) {
      if (after && after !== 'gone' && !before) {
        // Buttons act through this profile: a managed tenant's device is not one this profile can change.
        const actions = after.tenant
          ? []
          : [showChangelog(uid), showChanges(uid), acceptDeviceConfiguration(uid)];
        findings.push(
          deviceFinding('conflict', profile, uid, after, {
            field: 'conflictDetectionState',
            phase: 'open',
            state: CONFLICT,
            previous: 'NO_CONFLICTS',
            headline: `${untrusted(after.name)} was changed outside SCC (conflict detected)`,
            at,
            actions,
          }),
        );
      } else if (before && (after === undefined || after === 'gone')) {
        const gone = after === 'gone';
        findings.push(
          deviceFinding('conflict', profile, uid, before, {
            field: 'conflictDetectionState',
            phase: 'close',
            state: gone ? 'REMOVED' : 'NO_CONFLICTS',
            previous: CONFLICT,
            headline: gone
              ? `${untrusted(before.name)} is no longer in the inventory`
              : `${untrusted(before.name)}: the conflict is resolved`,
            at,
          }),
        );
      }
    }
    return { next, findings };
  },
  explain: {
    wants: (finding) => finding.phase === 'open',
    details: (entries) => changeLines(entries, 'What SCC’s change log says changed'),
  },
});
