// The watch scan: a repeatable job that reads the most recently updated upgrade runs of every watched
// profile (runs started from Slack or anywhere else alike) and announces each run that has ended, once,
// in every channel that watches it. Announced runs are remembered per profile in Redis; the
// announcement itself is an exactly-once post keyed by profile, run and channel, so two scans racing
// (two worker processes, a scan repeated after a crash) still announce once.
import type { Processor } from 'bullmq';
import type { UpgradeWatch } from '../catalogue/operation.js';
import type { SccClients } from '../dispatch/ports.js';
import { mspWatchAnnouncement, readDeviceTenants } from '../follow/mspUpgradeRun.js';
import { isUpgradeTerminal, watchAnnouncement } from '../follow/upgradeWords.js';
import { SccApiError } from '../scc/errors.js';
import type { MspSecureClientUpgradeRunDto, SecureClientUpgradeRunDto } from '../scc/generated/models.js';
import type { JobsCore } from './core.js';
import type { NotifyJobData } from './payloads.js';
import type { SubscriptionWatches } from './watches.js';

export const WATCH_SCHEDULER_ID = 'fwbot-watch-scan';

/** Remembered runs per profile: many times what one scan reads, so a remembered run never comes back. */
const REMEMBERED_PER_SCAN = 20;

/** Whether a watch hears about a run: it has been through a scan, or was created before the run ended. */
export function watchHears(
  watch: UpgradeWatch,
  baselined: boolean,
  run: Pick<SecureClientUpgradeRunDto, 'lastUpdatedTime'>,
): boolean {
  if (baselined) return true;
  const ended = Date.parse(run.lastUpdatedTime ?? '');
  const created = Date.parse(watch.createdAt);
  return Number.isFinite(ended) && Number.isFinite(created) && ended >= created;
}

export function createWatchScanProcessor(
  core: JobsCore,
  registry: SubscriptionWatches,
  clients: SccClients,
): Processor {
  const { redis, keys, schedule, log } = core;

  const scanProfile = async (profile: string): Promise<number> => {
    const watches = await registry.list(profile);
    if (watches.length === 0) return 0;
    const baselined = await registry.baselined(profile);
    const page = await clients
      .get(profile)
      .secureClient.runs({ limit: schedule.watch.scanRuns, sort: ['lastUpdatedTime:DESC'] });
    const announcedKey = keys.announcedRuns(profile);
    let announced = 0;
    for (const run of page.items ?? []) {
      if (!run.uid || !isUpgradeTerminal(run.upgradeRunStatus)) continue;
      if ((await redis.zscore(announcedKey, run.uid)) !== null) continue;
      const messages: NotifyJobData[] = watches
        .filter((watch) => watchHears(watch, baselined.has(watch.channelId), run))
        .map((watch) => ({
          key: `watch|${profile}|${run.uid}|${watch.channelId}`,
          channelId: watch.channelId,
          text: watchAnnouncement(profile, run),
          eventType: 'fwbot_watch',
        }));
      // Queued before the run is remembered: a crash in between repeats the queueing, which adds nothing.
      await core.notify(messages);
      await redis.zadd(announcedKey, Date.now(), run.uid);
      announced += messages.length;
    }
    announced += await scanAcrossTenants(profile, watches, baselined, announcedKey);
    await redis.zremrangebyrank(announcedKey, 0, -(schedule.watch.scanRuns * REMEMBERED_PER_SCAN + 1));
    await registry.markBaselined(
      profile,
      watches.map((watch) => watch.channelId),
    );
    return announced;
  };

  /**
   * Upgrade runs across tenants (an MSP portal's own): only a portal's token may read them, so a profile
   * that is not one (403) is skipped quietly. Each ended run is announced with its devices by tenant.
   */
  const scanAcrossTenants = async (
    profile: string,
    watches: readonly UpgradeWatch[],
    baselined: ReadonlySet<string>,
    announcedKey: string,
  ): Promise<number> => {
    const scc = clients.get(profile);
    let runs: readonly MspSecureClientUpgradeRunDto[];
    try {
      const { data } = await scc.call('getMspSecureClientUpgradeRuns', {
        query: { limit: schedule.watch.scanRuns, sort: ['lastUpdatedTime:DESC'] },
      });
      runs = data.items ?? [];
    } catch (error) {
      if (error instanceof SccApiError && (error.status === 403 || error.status === 401)) return 0;
      throw error;
    }
    let announced = 0;
    for (const run of runs) {
      if (!run.uid || !isUpgradeTerminal(run.upgradeRunStatus)) continue;
      const memo = `msp:${run.uid}`;
      if ((await redis.zscore(announcedKey, memo)) !== null) continue;
      const hearing = watches.filter((watch) => watchHears(watch, baselined.has(watch.channelId), run));
      const tenants =
        hearing.length > 0
          ? await readDeviceTenants(
              scc,
              (run.devices ?? []).flatMap((d) => (d.uid ? [d.uid] : [])),
            )
          : {};
      const messages: NotifyJobData[] = hearing.map((watch) => ({
        key: `watch|${profile}|${memo}|${watch.channelId}`,
        channelId: watch.channelId,
        text: mspWatchAnnouncement(profile, run, tenants),
        eventType: 'fwbot_watch',
      }));
      await core.notify(messages);
      await redis.zadd(announcedKey, Date.now(), memo);
      announced += messages.length;
    }
    return announced;
  };

  return async () => {
    const profiles = await registry.profiles();
    const configured = new Set(clients.names());
    let announced = 0;
    for (const profile of profiles.sort()) {
      if (!configured.has(profile)) {
        log.warn({ profile }, 'watched profile is not configured in this worker; skipped');
        continue;
      }
      try {
        announced += await scanProfile(profile);
      } catch (error) {
        // One profile's trouble (SCC down, token revoked) does not stop the others; the next scan retries.
        log.warn({ err: error, profile }, 'upgrade run scan failed');
      }
    }
    return { profiles: profiles.length, announced };
  };
}
