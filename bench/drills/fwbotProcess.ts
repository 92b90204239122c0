// The real fwbot (`src/entry/bot.ts`, as `npm start` runs it) in a child process of a drill, configured for
// the drill's world: HTTP mode with a known signing secret, the simulator as SCC, the fake Slack, the
// drill's Redis, and optionally a profiles file (role policy).
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../test/support/redisServer.js';
import { spawnTsx } from '../support/processes.js';
import type { World } from '../support/world.js';

export const DRILL_SIGNING_SECRET = 'drill-signing-secret';

export interface FwbotProcess {
  child: ChildProcess;
  eventsUrl: string;
}

export async function startFwbot(
  world: Pick<World, 'sim' | 'slack'> & { redis?: { url: string } },
  options: { profilesFile?: string; env?: Record<string, string>; entry?: string } = {},
): Promise<FwbotProcess> {
  const port = await freePort();
  // Another checkout's entry (bench/unverifiedFlood.ts compares against an older commit).
  const child = spawnTsx(options.entry ?? 'src/entry/bot.ts', [], {
    env: {
      SLACK_BOT_TOKEN: 'xoxb-drill-token',
      SLACK_SIGNING_SECRET: DRILL_SIGNING_SECRET,
      SLACK_API_URL: world.slack.apiUrl,
      SCC_API_TOKEN: world.sim.tokens.superAdmin,
      SCC_BASE_URL: world.sim.url,
      // Without the world's redis-server, options.env says where Redis is (REDIS_SENTINELS, …).
      ...(world.redis ? { REDIS_URL: world.redis.url } : {}),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      FWBOT_PROFILES: options.profilesFile ?? '',
      ...options.env,
    },
  });
  // At LOG_LEVEL=warn the "running" line is not printed: wait for /healthz instead.
  await waitForPort(port, child);
  return { child, eventsUrl: `http://127.0.0.1:${port}/slack/events` };
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`fwbot exited with ${child.exitCode} before listening`);
    if (Date.now() > deadline) throw new Error(`fwbot did not listen on ${port} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
