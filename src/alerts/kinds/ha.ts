// HA: an ASA failover pair fails over (the active unit changed: told once) or a unit fails (an incident,
// closed when both units are healthy again). Read: the devices in a failover mode, every 30 s; their
// asaFailoverState ("Primary - Active") and asaFailoverMate.failoverState ("Secondary - Standby Ready")
// say which unit is active and whether one failed.
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
  type WatchedDevice,
} from './kind.js';

const State = DeviceMemo.extend({
  /** The unit that is active ("Primary", "Secondary"), when either says it is. */
  active: z.string().optional(),
  failed: z.boolean(),
  unit: z.string().optional(),
  mate: z.string().optional(),
});
type State = z.infer<typeof State>;

/** "Primary - Active" → { role: "Primary", status: "Active" }. */
function unitOf(text: string | undefined): { role: string; status: string } | undefined {
  if (!text) return undefined;
  const [role, ...rest] = text.split(' - ');
  const status = rest.join(' - ').trim();
  return status ? { role: (role ?? '').trim(), status } : { role: '', status: text.trim() };
}

function observe(device: WatchedDevice): State | undefined {
  if (device.failoverMode !== 'ACTIVE_STANDBY' && device.failoverMode !== 'ACTIVE_ACTIVE') return undefined;
  const unit = unitOf(device.failoverState);
  const mate = unitOf(device.mateState);
  const isActive = (u: typeof unit) => u !== undefined && /^active$/i.test(u.status);
  const active = isActive(unit) ? unit?.role : isActive(mate) ? mate?.role : undefined;
  const failed = [unit, mate].some((u) => u !== undefined && /fail/i.test(u.status));
  return {
    ...memoOf(device),
    failed,
    ...(active ? { active } : {}),
    ...(device.failoverState ? { unit: device.failoverState } : {}),
    ...(device.mateState ? { mate: device.mateState } : {}),
  };
}

function unitsLine(state: State): string {
  return `This unit: ${untrusted(state.unit ?? 'unknown')}; its mate: ${untrusted(state.mate ?? 'unknown')}.`;
}

export const ha = defineAlertKind({
  kind: 'ha',
  summary: 'an HA pair fails over (the active unit changed, or a unit failed)',
  tokenRoles: ANY_READER,
  words: {
    opened: 'failed over',
    closed: 'HA pair healthy again',
    noun: 'HA pair',
    notice: 'HA notice',
    now: ['HA pair with a failed unit', 'HA pairs with a failed unit'],
  },
  source: { from: 'devices', q: () => 'asaFailoverMode:(ACTIVE_STANDBY OR ACTIVE_ACTIVE)' },
  acrossTenants: true,
  intervalMs: 30_000,
  sooner: (state) => state.failed,
  state: State,
  current: stillOpen,
  detect(input) {
    const { profile, now } = input;
    const at = isoOf(now);
    const { next, changes } = deviceChanges(input, (device) => observe(device));
    const findings: Finding[] = [];
    const unitFailed = (uid: string, state: State) =>
      deviceFinding('ha', profile, uid, state, {
        field: 'failed',
        phase: 'open',
        state: 'FAILED',
        previous: 'HEALTHY',
        headline: `${untrusted(state.name)}: an HA unit failed`,
        details: [unitsLine(state)],
        at,
      });
    for (const { uid, before, after } of changes) {
      const now_ = after === 'gone' || after === undefined ? undefined : after;
      if (!before) {
        // A pair seen for the first time has not failed over; one with a unit already failed is an incident.
        if (now_?.failed) findings.push(unitFailed(uid, now_));
        continue;
      }
      if (now_ && before.active && now_.active && before.active !== now_.active) {
        findings.push(
          deviceFinding('ha', profile, uid, now_, {
            field: 'active',
            phase: 'notice',
            state: now_.active,
            previous: before.active,
            headline: `${untrusted(now_.name)} failed over: the ${untrusted(now_.active.toLowerCase())} unit is now active`,
            details: [unitsLine(now_)],
            at,
            incidentKey: `ha:${profile}:${uid}:failover`,
          }),
        );
      }
      const failedNow = now_?.failed ?? false;
      if (!before.failed && failedNow && now_) {
        findings.push(unitFailed(uid, now_));
      } else if (before.failed && !failedNow) {
        const memo = now_ ?? before;
        const gone = after === 'gone';
        findings.push(
          deviceFinding('ha', profile, uid, memo, {
            field: 'failed',
            phase: 'close',
            state: gone ? 'REMOVED' : now_ ? 'HEALTHY' : 'NOT_HA',
            previous: 'FAILED',
            headline: gone
              ? `${untrusted(memo.name)} is no longer in the inventory`
              : now_
                ? `${untrusted(memo.name)}: both HA units healthy again`
                : `${untrusted(memo.name)} is no longer in a failover pair`,
            ...(now_ ? { details: [unitsLine(now_)] } : {}),
            at,
          }),
        );
      }
    }
    return { next, findings };
  },
});
