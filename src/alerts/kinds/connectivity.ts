// Connectivity: a device leaves ONLINE (UNREACHABLE, BAD_CREDENTIALS, NEW_CERT_DETECTED…) and comes back.
// Read: the devices that are not ONLINE, every 30 s; the ones in an open incident are also read by uid
// sooner, so "back online" is told soon and a device removed meanwhile is told as removed.
import { z } from 'zod';
import { untrusted } from '../../render/untrusted.js';
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
  /** SCC's connectivityState while it is not ONLINE. */
  state: z.string(),
  /** When the scan first saw it so (ms). */
  since: z.number(),
});

const ONLINE = 'ONLINE';

export const connectivity = defineAlertKind({
  kind: 'connectivity',
  summary: 'a device leaves ONLINE (unreachable, bad credentials, new certificate…) and comes back',
  tokenRoles: ANY_READER,
  words: {
    opened: 'went offline',
    closed: 'back online',
    noun: 'device',
    notice: 'connectivity notice',
    now: ['device offline', 'devices offline'],
  },
  source: { from: 'devices', q: () => `NOT connectivityState:${ONLINE}` },
  acrossTenants: true,
  intervalMs: 30_000,
  sooner: () => true,
  state: State,
  current: stillOpen,
  detect(input) {
    const { profile, now } = input;
    const at = isoOf(now);
    const { next, changes } = deviceChanges(input, (device, before) => {
      const state = device.connectivityState;
      if (!state || state === ONLINE) return undefined;
      return {
        ...memoOf(device),
        state,
        since: before?.state === state ? before.since : (before?.since ?? now),
      };
    });
    const findings: Finding[] = [];
    for (const { uid, before, after } of changes) {
      const finding = (what: Parameters<typeof deviceFinding>[4], memo: DeviceMemo) =>
        findings.push(deviceFinding('connectivity', profile, uid, memo, what));
      if (after === 'gone') {
        if (before)
          finding(
            {
              field: 'connectivityState',
              phase: 'close',
              state: 'REMOVED',
              previous: before.state,
              headline: `${untrusted(before.name)} is no longer in the inventory`,
              at,
            },
            before,
          );
      } else if (after === undefined) {
        if (before)
          finding(
            {
              field: 'connectivityState',
              phase: 'close',
              state: ONLINE,
              previous: before.state,
              headline: `${untrusted(before.name)} back online`,
              at,
            },
            before,
          );
      } else if (!before) {
        finding(
          {
            field: 'connectivityState',
            phase: 'open',
            state: after.state,
            previous: ONLINE,
            headline: `${untrusted(after.name)} is ${untrusted(after.state)}`,
            at,
          },
          after,
        );
      } else if (before.state !== after.state) {
        finding(
          {
            field: 'connectivityState',
            phase: 'update',
            state: after.state,
            previous: before.state,
            headline: `${untrusted(after.name)} is now ${untrusted(after.state)} (was ${untrusted(before.state)})`,
            at,
          },
          after,
        );
      }
    }
    return { next, findings };
  },
});
