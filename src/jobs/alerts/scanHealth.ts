// How the alert scan shows in /readyz and /metrics. Readiness reads what each profile's last scan wrote
// (state.ts ScanHealth), so every process says the same whichever worker scanned: a profile whose
// intervals had to be stretched to stay within its SCC budget, and kinds its token cannot read, are said in
// the check's detail. The check passes: a scan that runs slower than asked still runs, and taking the
// process out of service would not make SCC answer more calls.
import type { ReadinessCheck } from '../../observability/health.js';
import type { FwbotMetrics } from '../../observability/metrics.js';
import type { RedisClient } from '../../redis/connection.js';
import type { AlertScanMetrics } from './scan.js';
import { AlertScanStore, type ScanHealth } from './state.js';

function describe(profile: string, health: ScanHealth): string {
  const pace =
    health.stretch > 1
      ? `every interval ×${health.stretch.toFixed(1)} to stay within ${health.callsPerMinute} SCC calls a minute`
      : 'on time';
  return `${profile}: ${pace}${health.unreadable ? `; ${health.unreadable}` : ''}`;
}

export function alertScanCheck(redis: RedisClient, prefix: string): ReadinessCheck {
  const store = new AlertScanStore(redis, prefix);
  return {
    name: 'alerts',
    async check() {
      const health = await store.health();
      if (health.size === 0) return 'no profile has alert subscriptions';
      return [...health].map(([profile, h]) => describe(profile, h)).join('; ');
    },
  };
}

/** The scan's series in fwbot's registry. */
export function alertScanMetrics(metrics: FwbotMetrics): AlertScanMetrics {
  return {
    stretch: (profile, factor) => metrics.alertScanStretch.set({ profile }, factor),
    calls: (profile, kind, count) => metrics.alertScanCalls.inc({ profile, kind }, count),
    events: (kind, phase, count) => metrics.alertEvents.inc({ kind, phase }, count),
  };
}
