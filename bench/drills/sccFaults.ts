// Drill: SCC misbehaves — 20 % 500s, 429 with Retry-After, 2 s latency spikes, connection resets (fault
// rules of the simulator). Reads through fwbot's SCC client must succeed or fail with a clear error;
// mutating calls must never be sent again once SCC may have applied them (simulator request log); and
// tracked transactions must each still end in exactly one final reply.

import { createJobs } from '../../src/jobs/workers.js';
import { createSccClient } from '../../src/scc/client.js';
import { silentLog, startWorkerProcess, stopWorkers } from '../support/workers.js';
import { ReplyTally, startWorld } from '../support/world.js';
import { DRILL_SCHEDULE, type Drill, until } from './drill.js';
import { followMany } from './followMany.js';

const READS = 200;
const WRITES = 60;
const TRACKED = 100;

export const sccFaultsDrill: Drill = {
  name: 'scc-faults',
  summary: 'SCC with 20% 500s, 429 + Retry-After, 2 s latency spikes, connection resets',
  async run() {
    const world = await startWorld({ sim: { clock: 'real', speed: 1 } });
    const { sim } = world;
    const rules = {
      serverError: sim.faults.add({ path: '/v1/**', rate: 0.2, status: 500 }).id,
      throttled: sim.faults.add({ path: '/v1/**', rate: 0.05, status: 429, retryAfterSeconds: 1 }).id,
      slow: sim.faults.add({ path: '/v1/**', rate: 0.05, latencyMs: 2_000 }).id,
      reset: sim.faults.add({ path: '/v1/**', rate: 0.05, reset: true }).id,
    };
    // The bot's own client settings: retries for what is safe to repeat, a timeout above the spikes.
    const client = createSccClient({
      baseUrl: sim.url,
      token: sim.tokens.superAdmin,
      profile: 'default',
      retry: { baseDelayMs: 50 },
    });
    const did: string[] = [];
    const findings: string[] = [];
    let failed = false;
    const prefix = 'drill-faults';
    const jobs = createJobs({
      redisUrl: world.redis.url,
      prefix,
      schedule: DRILL_SCHEDULE,
      logger: silentLog,
    });
    let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
    try {
      did.push(
        `fault rules on /v1/**: ${Object.entries(rules)
          .map(([k, id]) => `${id} ${k}`)
          .join(', ')}`,
      );
      // Reads, 20 at a time.
      let ok = 0;
      const errors = new Map<string, number>();
      let unclear = 0;
      for (let i = 0; i < READS; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            try {
              await client.tenants.list();
              ok += 1;
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              // Clear: an error of fwbot's own kind that names the operation and what happened.
              if (!(error instanceof Error) || !/listTenants|tenant/i.test(message) || message.length < 20)
                unclear += 1;
              const kind = message.replace(/[0-9a-f-]{36}/g, '…').slice(0, 140);
              errors.set(kind, (errors.get(kind) ?? 0) + 1);
            }
          }),
        );
      }
      did.push(`${READS} reads (GET tenants), 20 at a time: ${ok} succeeded, ${READS - ok} failed`);
      for (const [message, n] of errors) findings.push(`read failed ×${n}: ${message}`);
      if (unclear > 0) {
        failed = true;
        findings.push(`${unclear} read failures did not say clearly what failed`);
      }
      // Mutating calls, one at a time, so each call's requests can be read from the log.
      const tenant = sim.tenantUid('northwind-us');
      let repeatedAfterMaybeApplied = 0;
      let processedTwice = 0;
      let resentAfterThrottle = 0;
      let writesOk = 0;
      for (let i = 0; i < WRITES; i += 1) {
        const since = sim.requestLog.total;
        try {
          await client.tenants.users.add(tenant, []);
          writesOk += 1;
        } catch {
          // a failure is allowed; a repeat is not
        }
        const sent = sim.requestLog.list({ since }).filter((e) => e.method === 'POST');
        const throttle = (f: string | undefined) => f?.split(',').includes(rules.throttled) ?? false;
        const mayHaveApplied = (e: { status: number; fault?: string }) => !throttle(e.fault);
        const processed = sent.filter((e) => e.status !== 0 && e.status !== 500 && !throttle(e.fault)).length;
        if (processed > 1) processedTwice += 1;
        const firstMaybe = sent.findIndex(mayHaveApplied);
        if (firstMaybe !== -1 && firstMaybe < sent.length - 1) repeatedAfterMaybeApplied += 1;
        resentAfterThrottle += sent.filter((e) => throttle(e.fault)).length;
      }
      did.push(
        `${WRITES} mutating calls (POST add users to a tenant, answered 202), one at a time: ${writesOk} accepted, ${WRITES - writesOk} failed`,
      );
      findings.push(
        `mutating calls sent again after an attempt SCC may have applied (500, reset, answered): ${repeatedAfterMaybeApplied}; processed twice: ${processedTwice}; re-sent after a 429 with Retry-After (SCC did not process it, safe): ${resentAfterThrottle}`,
      );
      // Tracking under the same faults.
      const followed = await followMany(world, jobs, TRACKED, { minMs: 200, maxMs: 3_000 });
      worker = await startWorkerProcess(world, { prefix, schedule: DRILL_SCHEDULE });
      followed.go();
      const replies = new ReplyTally(world.slack);
      await until(() => replies.account(followed.threads).lost === 0, 90_000, 100);
      const account = replies.account(followed.threads);
      const gaveUp = world.slack.calls.filter(
        (c) =>
          c.method === 'chat.postMessage' && /gave up|giving up|stopped following/i.test(String(c.args.text)),
      ).length;
      did.push(
        `followed ${TRACKED} transactions through the same faults: ${account.delivered} final replies (${gaveUp} of them saying fwbot gave up)`,
      );
      const faults = sim.faults.list().map((r) => `${r.id} injected ${r.injected}`);
      findings.push(`faults injected: ${faults.join(', ')}`);
      return {
        did,
        lost: account.lost,
        duplicated: account.duplicated + repeatedAfterMaybeApplied + processedTwice,
        findings,
        failed,
      };
    } finally {
      if (worker) await stopWorkers([worker]);
      await jobs.close();
      await client.close();
      await world.stop();
    }
  },
};
