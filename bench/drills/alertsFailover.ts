// Drill (issue 26): a Redis Sentinel failover during the burst. The world, subscription and timetable of
// the alerts-kill drill, with Redis as a primary, two replicas and three sentinels (real processes on
// loopback); the worker process connects through Sentinel, as a deployment with REDIS_SENTINELS does (so
// it waits for a replica to acknowledge its exactly-once marks). As the burst of 300 devices goes offline,
// Slack accepts the desk's first post about it and holds the answer; the primary is SIGKILLed at that
// instant, and the answer released while a replica is promoted. Every transition must be shown exactly
// once and the burst in at most 5 messages. The time from the kill to the first write Redis accepted
// again is measured by a probe writing every 20 ms.
import type { ChildProcess } from 'node:child_process';
import { loadConfig } from '../../src/config.js';
import { connectRedis } from '../../src/redis/connection.js';
import { startSimulator } from '../../src/simulator/index.js';
import { startFakeSlack } from '../../test/support/fakeSlack.js';
import { startSentinelTopology } from '../../test/support/redisTopologies.js';
import { stopWorkers } from '../support/workers.js';
import {
  BURST,
  COMPRESS,
  DEVICES,
  drillCore,
  drillTimetable,
  dump,
  gist,
  Injector,
  settle,
  startDrillWorker,
  subscribe,
  TENANTS,
  untilBaseline,
  untilCall,
  verdict,
} from './alertsDrill.js';
import { type Drill, sleep } from './drill.js';

export const alertsFailoverDrill: Drill = {
  name: 'alerts-failover',
  summary: `SIGKILL the Sentinel primary during a burst of ${BURST} devices offline, mid-post: every transition told once`,
  async run() {
    const did: string[] = [];
    const findings: string[] = [];
    const topology = await startSentinelTopology({ replicas: 2 });
    did.push('started a primary, two replicas and three sentinels (down after 1 s, quorum 2) on loopback');
    const env = {
      REDIS_SENTINELS: topology.sentinelList,
      REDIS_SENTINEL_MASTER: topology.masterName,
      REDIS_WAIT_TIMEOUT_MS: '2000',
    };
    const config = loadConfig(env);
    const sim = await startSimulator({
      port: 0,
      clock: 'real',
      speed: COMPRESS,
      scale: { tenants: TENANTS, devices: DEVICES },
    });
    const slack = await startFakeSlack();
    const prefix = 'drill-alerts-failover';
    const core = drillCore(config.redis, prefix);
    const writes = connectRedis(config.redis);
    writes.on('error', () => undefined);
    let worker: ChildProcess | undefined;
    try {
      await subscribe(core);
      const injector = new Injector(sim, drillTimetable(sim));
      worker = await startDrillWorker({ sim, slack }, { prefix, env });
      did.push(
        `a worker process connected through Sentinel (REDIS_SENTINELS, REDIS_WAIT_REPLICAS 1 by default); ${DEVICES.toLocaleString('en-US')} devices across ${TENANTS} managed tenants, time compressed ${COMPRESS}×`,
      );
      await untilBaseline(core);
      injector.start();
      did.push(`injected ${injector.describe()}`);

      // As the burst happens: Slack accepts the desk's first post about it and holds the answer.
      const { offS } = injector.burstTimes();
      await injector.at(offS);
      slack.holdResponses('chat.postMessage', 1);
      const since = slack.calls.length;
      const post = await untilCall(slack, 'chat.postMessage', since, 30_000);
      const primary = await topology.primaryPort();
      const killedAt = Date.now();
      await topology.crash(primary);
      const firstWrite = (async () => {
        for (;;) {
          try {
            await writes.set(`${prefix}:probe`, String(Date.now()));
            return Date.now() - killedAt;
          } catch {
            await sleep(20);
          }
        }
      })();
      await sleep(200);
      const unanswered = slack.releaseHeld();
      slack.holdResponses('chat.postMessage', 0);
      const firstWriteMs = await firstWrite;
      const promoted = await topology.primaryPort();
      did.push(
        `SIGKILLed the primary (port ${primary}) ${((killedAt - injector.due(offS)) / 1000).toFixed(1)} s after the burst, with ${unanswered} post accepted by Slack and unanswered (${post ? `“${gist(post)}”` : 'none within 30 s'}); a replica (port ${promoted}) was promoted, the first write accepted ${firstWriteMs} ms after the kill`,
      );

      const complete = await settle(slack, injector, 60_000);
      dump(slack, sim, injector, did);
      const result = await verdict(slack, core, injector, complete);
      did.push(result.did);
      findings.push(...result.findings, `time from the kill to the first accepted write: ${firstWriteMs} ms`);
      return {
        did,
        findings,
        lost: result.lost,
        duplicated: result.duplicated,
        ...(result.failed ? { failed: true } : {}),
      };
    } finally {
      if (worker) await stopWorkers([worker]);
      writes.disconnect();
      await core.close();
      await slack.stop();
      await sim.stop();
      await topology.stop();
    }
  },
};
