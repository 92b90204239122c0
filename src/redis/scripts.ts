// The one home of Lua in Redis. Every script is a file in src/redis/lua/, named below, that says its KEYS
// and ARGV at its top; code runs it by name. The loader reads the file once, runs it by its digest and
// loads it on first use (after a Redis restart too). Each runs atomically inside Redis, so of any number of
// processes clicking, sweeping or recovering at once exactly one sees each transition succeed; the others
// learn the state they lost to. Times come from the caller's clock, so tests drive expiry and leases (only
// Slack's pace asks Redis for the time: workers on hosts whose clocks differ still agree).
//
// A script that is a transition fwbot acts on (an approval's, the timed work's, a device hold's, an audit
// record) returns only once the replicas the connection asks for hold it (replication.ts); the others
// (locks, paces, marks the next pass makes again) answer at once, as they always did. No TypeScript file
// but this one holds Lua (test/architecture holds it), and every key a script is given comes from
// src/redis/keys.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from './connection.js';
import { replicated } from './replication.js';

/** Its result returned once the connection's replicas hold it, or at once. */
type Durability = 'replicated' | 'at-once';

/** Every script, by the name of its file in src/redis/lua/ (without `.lua`). */
export const SCRIPTS = {
  // Approvals (src/approvals/store.ts, timing.ts): an approval request's state machine.
  'approval-decide': 'replicated',
  'approval-claim': 'replicated',
  'approval-hold': 'replicated',
  'approval-postpone': 'replicated',
  'approval-finish': 'replicated',
  'approval-claim-notice': 'replicated',
  'approval-noticed': 'replicated',
  'approval-hold-run': 'replicated',
  'approval-cancel-held': 'replicated',
  // The audit trail (src/approvals/audit.ts).
  'audit-append': 'replicated',
  // Timed work (src/jobs/timed/store.ts).
  'timed-schedule': 'replicated',
  'timed-claim': 'replicated',
  'timed-renew': 'replicated',
  'timed-finish': 'replicated',
  'timed-handed-on': 'replicated',
  'timed-defer': 'replicated',
  'timed-cancel': 'replicated',
  'timed-reschedule': 'replicated',
  'timed-thread': 'replicated',
  // Device holds (src/jobs/deviceHolds.ts).
  'holds-take': 'replicated',
  'holds-release': 'replicated',
  'holds-extend': 'replicated',
  // The access rules fwbot created (src/access/records.ts).
  'access-record-update': 'replicated',
  // Slack's pace per channel (src/jobs/slackPace.ts).
  'pace-reserve': 'at-once',
  'pace-hold-off': 'at-once',
  // A lock let go by its holder only (notifications, the desk, the alert scan's drain).
  'lock-release': 'at-once',
  // The alert scan's streams (src/jobs/alerts/state.ts) and subscriptions (subscriptions.ts).
  'alert-scan-commit': 'at-once',
  'alert-scan-forget': 'at-once',
  'alert-subscribe': 'at-once',
  'alert-unsubscribe': 'at-once',
  // The alert desk's marks of messages to show again (src/jobs/alerts/deskDelivery.ts).
  'desk-dirty-read': 'at-once',
  'desk-dirty-clear': 'at-once',
  // The App Home's marks (src/home/changes.ts).
  'home-mark': 'at-once',
  'home-claim': 'at-once',
  'home-open': 'at-once',
  'home-retry': 'at-once',
} as const satisfies Record<string, Durability>;

export type ScriptName = keyof typeof SCRIPTS;

export interface LuaScript {
  name: ScriptName;
  source: string;
  sha: string;
}

/** The folder of the scripts: beside this module, in src/ as in dist/ (the build copies it). */
export const LUA_FOLDER = new URL('./lua/', import.meta.url);

const read = new Map<ScriptName, LuaScript>();

/**
 * Every script read now, from `folder` (LUA_FOLDER unless a test says): throws naming the folder and the
 * missing files. Jobs and workers call it as they start, so a build or bundle that left the scripts
 * behind refuses to start, instead of running with every notification, approval and timed item failing
 * on its first script (which a worker only logs as a step that did not post).
 */
export function checkScripts(folder: URL = LUA_FOLDER): void {
  const missing: string[] = [];
  for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
    try {
      readFileSync(new URL(`${name}.lua`, folder), 'utf8');
    } catch {
      missing.push(`${name}.lua`);
    }
  }
  if (missing.length > 0)
    throw new Error(
      `fwbot's Lua scripts are missing from ${fileURLToPath(folder)} (${missing.length} of ${Object.keys(SCRIPTS).length}: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): they ship beside src/redis/scripts.ts, and whatever builds fwbot must copy src/redis/lua/ beside the built module (npm run build does, into dist/redis/lua/).`,
    );
}

/** A script's source and digest, read from its file once. */
export function scriptOf(name: ScriptName): LuaScript {
  const known = read.get(name);
  if (known) return known;
  if (!Object.hasOwn(SCRIPTS, name)) throw new Error(`no Lua script is named ${name}`);
  const source = readFileSync(new URL(`${name}.lua`, LUA_FOLDER), 'utf8');
  const script = { name, source, sha: createHash('sha1').update(source).digest('hex') };
  read.set(name, script);
  return script;
}

/**
 * Runs a script by its digest, loading it on first use, and for a replicated one waits for the replicas
 * the connection asks for (src/redis/replication.ts). Its keys must share one hash slot on a cluster
 * (src/redis/keys.ts slotPrefix).
 */
export async function runScript(
  redis: RedisClient,
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const result = await evaluate(redis, scriptOf(name), keys, args);
  const first = keys[0];
  if (SCRIPTS[name] === 'replicated' && first !== undefined) await replicated(redis, first);
  return result;
}

async function evaluate(
  redis: RedisClient,
  lua: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(lua.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(lua.source, keys.length, ...keys, ...args);
  }
}
