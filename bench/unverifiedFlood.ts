// `npx tsx bench/unverifiedFlood.ts [--entry path/to/src/entry/bot.ts] [--connections 300]`: what requests that
// did not come from Slack cost the real bot (`npm start` in HTTP mode) in memory. Each attack runs
// against a fresh bot process, so its resident-memory peak (VmHWM) is the attack's own:
//
//   unsigned   bodies just under 1 MiB with no Slack signature headers
//   forged     the same with a signature and a current timestamp that do not verify
//   forged-512 forged bodies just under 512 KiB (the per-request limit since issue 24)
//   slow       connections that declare a large body and send 1 KiB of it, then nothing
//
// Prints a table: statuses the bot answered, RSS before, the peak, RSS once every connection closed, and
// from the bot's /metrics then: V8 heap used, memory outside the heap (Buffers), unverified bytes held.
// `--entry` points at another checkout's entry (e.g. an export of an older commit) to compare.
import { request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import { slashCommandBody } from '../test/support/slackRequests.js';
import { startFwbot } from './drills/fwbotProcess.js';
import { pidOf, residentMemory, stopChild } from './support/processes.js';
import { startWorld } from './support/world.js';

const MIB = 1024 * 1024;
/** How long a dribbling connection is kept before the attacker gives up on an answer. */
const HOLD_SECONDS = 15;
/** How long after the attack "after" is read: V8 shrinks its heap and frees Buffers once the process idles. */
const SETTLE_SECONDS = Number(process.env.SETTLE_SECONDS ?? 10);

interface Attack {
  name: string;
  bodyBytes: number;
  signed: boolean;
  /** Send this many bytes of the body, then hold the connection open without sending more. */
  dribbleBytes?: number;
}

const ATTACKS: readonly Attack[] = [
  { name: 'unsigned', bodyBytes: MIB - 1024, signed: false },
  { name: 'forged', bodyBytes: MIB - 1024, signed: true },
  { name: 'forged-512', bodyBytes: 512 * 1024 - 1024, signed: true },
  { name: 'slow', bodyBytes: 256 * 1024, signed: true, dribbleBytes: 1024 },
];

/** One attacking connection; resolves with the status answered, or 'reset' when the socket was cut. */
function attackOnce(url: string, attack: Attack, body: Buffer): Promise<string> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(attack.bodyBytes),
    ...(attack.signed
      ? { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${'0'.repeat(64)}` }
      : {}),
  };
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      req.destroy();
    };
    req.on('response', (response) => {
      response.resume();
      settle(String(response.statusCode));
    });
    req.on('error', () => settle('reset'));
    if (attack.dribbleBytes === undefined) {
      req.end(body);
      return;
    }
    req.write(body.subarray(0, attack.dribbleBytes));
    // Without a body timeout the bot would hold it for Node's requestTimeout (5 minutes).
    const held = setTimeout(() => settle(`open after ${HOLD_SECONDS} s`), HOLD_SECONDS * 1000);
    req.on('close', () => clearTimeout(held));
  });
}

function tally(outcomes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts.entries()]
    .sort()
    .map(([outcome, n]) => `${n}×${outcome}`)
    .join(' ');
}

const mib = (bytes: number) => (bytes / MIB).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', default: 'src/entry/bot.ts' },
      connections: { type: 'string', default: '300' },
      only: { type: 'string', multiple: true },
    },
  });
  const connections = Number(values.connections);
  const chosen = values.only ? ATTACKS.filter((a) => values.only?.includes(a.name)) : ATTACKS;
  const world = await startWorld();
  const rows: string[][] = [];
  try {
    for (const attack of chosen) {
      const bot = await startFwbot(world, { entry: values.entry });
      const pid = pidOf(bot.child);
      try {
        // One ordinary command first, so the baseline includes what serving Slack costs anyway.
        const body = slashCommandBody({ text: 'help', responseUrl: `${world.slack.url}/response/warm` });
        await fetch(bot.eventsUrl, { method: 'POST', body }).then((r) => r.arrayBuffer());
        await sleep(1_000);
        const before = residentMemory(pid);
        const payload = Buffer.alloc(attack.bodyBytes, 'a');
        const started = Date.now();
        const outcomes = await Promise.all(
          Array.from({ length: connections }, () => attackOnce(bot.eventsUrl, attack, payload)),
        );
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        await sleep(SETTLE_SECONDS * 1000);
        const after = residentMemory(pid);
        const scraped = await (await fetch(bot.eventsUrl.replace('/slack/events', '/metrics'))).text();
        const series = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(scraped)?.[1]);
        rows.push([
          attack.name,
          `${connections} × ${(attack.bodyBytes / 1024).toFixed(0)} KiB${attack.dribbleBytes ? ` (sends ${attack.dribbleBytes} B)` : ''}`,
          tally(outcomes),
          `${seconds} s`,
          mib(before.rss),
          mib(after.peak),
          mib(after.rss),
          mib(series('fwbot_nodejs_heap_size_used_bytes')),
          mib(series('fwbot_nodejs_external_memory_bytes')),
          String(series('fwbot_slack_unverified_body_bytes')),
        ]);
      } finally {
        await stopChild(bot.child);
      }
    }
  } finally {
    await world.stop();
  }
  const header = [
    'attack',
    'requests',
    'answers',
    'took',
    'RSS before MiB',
    'peak MiB',
    'RSS after MiB',
    'heap after MiB',
    'buffers after MiB',
    'unverified bytes after',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`entry: ${values.entry}`);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
