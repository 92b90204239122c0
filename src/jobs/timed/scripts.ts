// The Lua behind every change of an item of timed work. Each runs atomically inside Redis, so of any number of
// processes scheduling, claiming, cancelling or moving an item at once exactly one sees each transition
// succeed, and the others learn the state they lost to. Times come from the caller's clock.
//
// KEYS are always: [1] the item's hash, [2] the due index, and where a script ends an item [3] the ended
// index (src/jobs/keys.ts). The item's id is passed in ARGV, since the indexes hold ids, not keys.
import { scriptOf } from '../../redis/scripts.js';

/**
 * A new item, unless one of this id waits or runs. An item that ended is replaced (the same thing scheduled
 * again), keeping its round so that what the new one says is not taken for what the old one said.
 * ARGV: id, dueAt, now, kind, profile, key, owner, what, payload JSON, devices JSON, thread JSON or ''.
 * Returns {'scheduled'} or {'exists', state}.
 */
export const scheduleScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'scheduled' or state == 'running' then return {'exists', state} end
local round = redis.call('HGET', KEYS[1], 'round') or '0'
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'scheduled', 'dueAt', ARGV[2], 'scheduledAt', ARGV[3],
  'kind', ARGV[4], 'profile', ARGV[5], 'key', ARGV[6], 'owner', ARGV[7], 'what', ARGV[8],
  'payload', ARGV[9], 'devices', ARGV[10], 'attempts', '0', 'round', round, 'failures', '0')
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'thread', ARGV[11]) end
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {'scheduled', 'scheduled'}
`);

/**
 * scheduled and due → running, or a takeover of a running item whose lease ran out (its process died).
 * The phase of a run that passed its point of no return (`changing`) is kept until the new runner decides.
 * ARGV: id, now, runner, lease ms. Returns {'claimed', previous phase ('' or 'changing'), attempts} or
 * {'busy', state}.
 */
export const claimScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return {'busy', 'missing'}
end
local now = tonumber(ARGV[2])
if state == 'scheduled' then
  if tonumber(redis.call('HGET', KEYS[1], 'dueAt')) > now then return {'busy', 'waiting'} end
elseif state == 'running' then
  if tonumber(redis.call('HGET', KEYS[1], 'leaseUntil') or '0') > now then return {'busy', state} end
else
  return {'busy', state}
end
local previous = redis.call('HGET', KEYS[1], 'phase') or ''
if previous ~= 'changing' then
  previous = ''
  redis.call('HSET', KEYS[1], 'phase', 'starting')
end
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local lease = now + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'state', 'running', 'runner', ARGV[3], 'leaseUntil', lease)
redis.call('ZADD', KEYS[2], lease, ARGV[1])
return {'claimed', previous, tostring(attempts)}
`);

/**
 * Renews the lease and/or moves the phase, only for the runner that holds the claim: a runner whose item was
 * taken over learns it here, before it changes anything. ARGV: id, runner, now, lease ms, phase ('' keeps
 * it). Returns 1 or 0.
 */
export const renewScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[2] then return 0 end
local lease = tonumber(ARGV[3]) + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'leaseUntil', lease)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'phase', ARGV[5]) end
redis.call('ZADD', KEYS[2], lease, ARGV[1])
return 1
`);

/**
 * running → done | failed, by the runner that holds the claim. An item with followed work to hand on stays in
 * the due index (score: now) until it is handed on (handedOnScript), so a crash between the two loses
 * nothing; the record is kept for the retention, and the ended index is trimmed to it.
 * ARGV: id, runner, state, summary, now, track JSON ('' when none), retention ms. Returns 1 or 0.
 */
export const finishScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[2] then return 0 end
local now = tonumber(ARGV[5])
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'summary', ARGV[4], 'finishedAt', ARGV[5])
redis.call('HDEL', KEYS[1], 'runner', 'leaseUntil', 'phase')
redis.call('HINCRBY', KEYS[1], 'round', 1)
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'track', ARGV[6])
  redis.call('ZADD', KEYS[2], now, ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
redis.call('ZADD', KEYS[3], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[7]))
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1
`);

/** An ended item's followed work was handed on: it leaves the due index. ARGV: id. */
export const handedOnScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'scheduled' or state == 'running' then return 0 end
redis.call('HDEL', KEYS[1], 'track')
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`);

/**
 * running → scheduled again at a later time, by the runner that holds the claim: a kind's `again` (its next
 * round), a wait for the change windows, a transient failure. ARGV: id, runner, at, summary, keep phase
 * ('1': a failure after the point of no return, so the next claim sees it), next round ('1' or '0'),
 * failures in a row. Returns 1 or 0.
 */
export const deferScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'scheduled', 'dueAt', ARGV[3], 'summary', ARGV[4], 'failures', ARGV[7])
redis.call('HDEL', KEYS[1], 'runner', 'leaseUntil')
if ARGV[5] ~= '1' then redis.call('HDEL', KEYS[1], 'phase') end
if ARGV[6] == '1' then redis.call('HINCRBY', KEYS[1], 'round', 1) end
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[1])
return 1
`);

/**
 * scheduled → cancelled, in one step against the claim: of a cancel and a claim exactly one wins (the claim
 * moves `scheduled` to `running`; this refuses anything but `scheduled`). ARGV: id, now, by, summary,
 * retention ms. Returns {'cancelled'}, {'refused', state} or {'missing'}.
 */
export const cancelScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', 'missing'} end
if state ~= 'scheduled' then return {'refused', state} end
local now = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'cancelled', 'cancelledBy', ARGV[3], 'summary', ARGV[4], 'finishedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'phase')
redis.call('HINCRBY', KEYS[1], 'round', 1)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'cancelled', 'cancelled'}
`);

/** A waiting item moves to another time. ARGV: id, at. Returns {'rescheduled'}, {'refused', state} or {'missing'}. */
export const rescheduleScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', 'missing'} end
if state ~= 'scheduled' then return {'refused', state} end
redis.call('HSET', KEYS[1], 'dueAt', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[1])
return {'rescheduled', 'scheduled'}
`);
