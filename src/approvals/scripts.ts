// The Lua scripts behind every state change. Each runs atomically inside Redis, so of fifty processes
// clicking, sweeping or recovering at once exactly one sees each transition succeed; the others learn
// the state they lost to. Times come from the caller's clock so tests can drive expiry and leases. How a
// script is run (by digest, replicated) is src/redis/scripts.ts's.
import { scriptOf } from '../redis/scripts.js';

export { type LuaScript, runScript, scriptOf } from '../redis/scripts.js';

/**
 * pending → approved | rejected | cancelled | expired.
 * KEYS: request hash, pending index, active index. ARGV: now, target state, decidedBy, reason, ttl ms of a
 * final record, grace ms: an approved request waits that long for the approving process to claim it before
 * recovery passes of other processes may; approvals needed (1 when absent). A request past its expiry can only become expired, whoever clicks, even before the sweeper
 * has seen it. Returns {'ok', newState, decidedBy} (newState is 'expired' when it was too late), or
 * {'refused', currentState, decidedBy} when someone else decided first, or {'missing', '', ''}.
 * A request that needs several approvers collects them in `approvers` (comma-separated, each once): an
 * approval short of the count returns {'partial', 'pending', approvers}, the same person again
 * {'again', 'pending', approvers}; the one that completes the count approves it.
 * ARGV[8], for a request that needs both sides (`customer_approvers`): the side this approver counts for,
 * `m` (the MSP's), `c` (the customer's) or `e` (either), kept in `approverSides`; the count is then complete
 * only once two distinct people cover the two sides, so no number of one side's approvals completes it.
 */
export const decideScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', '', ''} end
if state ~= 'pending' then
  return {'refused', state, redis.call('HGET', KEYS[1], 'decidedBy') or ''}
end
local now = tonumber(ARGV[1])
local target = ARGV[2]
local expiresAt = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if now >= expiresAt then target = 'expired' end
local needed = tonumber(ARGV[7] or '1') or 1
local side = ARGV[8] or ''
if target == 'approved' and (needed > 1 or side ~= '') then
  local list = redis.call('HGET', KEYS[1], 'approvers') or ''
  local count = 0
  for who in string.gmatch(list, '[^,]+') do
    if who == ARGV[3] then return {'again', 'pending', list} end
    count = count + 1
  end
  if list == '' then list = ARGV[3] else list = list .. ',' .. ARGV[3] end
  redis.call('HSET', KEYS[1], 'approvers', list)
  local complete = count + 1 >= needed
  if side ~= '' then
    local sides = (redis.call('HGET', KEYS[1], 'approverSides') or '') .. side
    redis.call('HSET', KEYS[1], 'approverSides', sides)
    local _, m = string.gsub(sides, 'm', '')
    local _, c = string.gsub(sides, 'c', '')
    local _, e = string.gsub(sides, 'e', '')
    local covered = (m >= 1 and c >= 1) or (e >= 1 and (m >= 1 or c >= 1)) or e >= 2
    complete = complete and covered
  end
  if not complete then return {'partial', 'pending', list} end
elseif target == 'approved' then
  redis.call('HSET', KEYS[1], 'approvers', ARGV[3])
end
redis.call('HSET', KEYS[1], 'state', target, 'decidedAt', ARGV[1])
if target ~= 'expired' then
  redis.call('HSET', KEYS[1], 'decidedBy', ARGV[3])
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[4]) end
end
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
if target == 'approved' then
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[6]), redis.call('HGET', KEYS[1], 'id'))
else
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return {'ok', target, ARGV[3]}
`);

/**
 * approved → executing, or a takeover of an executing request whose lease ran out (its process died).
 * KEYS: request hash, active index. ARGV: now, executor id, lease ms.
 * Returns {'claimed', phase, attempts} (phase '' for a fresh start) or {'busy', state}.
 */
export const claimScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'busy', 'missing'} end
local now = tonumber(ARGV[1])
local previous = ''
if state == 'executing' then
  local lease = tonumber(redis.call('HGET', KEYS[1], 'leaseUntil') or '0')
  if lease > now then return {'busy', state} end
  previous = redis.call('HGET', KEYS[1], 'phase') or 'checking'
elseif state ~= 'approved' then
  return {'busy', state}
end
local lease = now + tonumber(ARGV[3])
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'state', 'executing', 'executor', ARGV[2], 'leaseUntil', lease, 'phase', 'checking')
redis.call('ZADD', KEYS[2], lease, redis.call('HGET', KEYS[1], 'id'))
return {'claimed', previous, tostring(attempts)}
`);

/**
 * Renews the lease and/or moves the phase, only for the executor that holds the claim: a process whose
 * lease was taken over learns it here, before it sends anything to SCC.
 * KEYS: request hash, active index. ARGV: executor id, now, lease ms, phase ('' keeps it). Returns 1 or 0.
 */
export const holdScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
local lease = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'leaseUntil', lease)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'phase', ARGV[4]) end
redis.call('ZADD', KEYS[2], lease, redis.call('HGET', KEYS[1], 'id'))
return 1
`);

/**
 * executing → approved again, by the executor that holds the claim: the call was held back (a device it
 * changes is held by work whose kind lets others wait), and a recovery pass tries it again at ARGV[3].
 * KEYS: request hash, active index. ARGV: executor id, now, retry at. Returns 1 or 0.
 */
export const postponeScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'approved')
redis.call('HDEL', KEYS[1], 'executor', 'leaseUntil', 'phase')
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), redis.call('HGET', KEYS[1], 'id'))
return 1
`);

/**
 * executing → done | failed, by the executor that holds the claim. The request stays in the active index
 * until its outcome is posted, so a crash between the two is finished by a recovery pass.
 * KEYS: request hash, active index. ARGV: executor id, final state, outcome JSON, now, grace ms. Returns 1 or 0.
 */
export const finishScript = scriptOf(`
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'outcome', ARGV[3], 'finishedAt', ARGV[4])
redis.call('HDEL', KEYS[1], 'leaseUntil', 'phase')
redis.call('ZADD', KEYS[2], tonumber(ARGV[4]) + tonumber(ARGV[5]), redis.call('HGET', KEYS[1], 'id'))
return 1
`);

/**
 * Claims the posting of a finished request's outcome, so one process posts it.
 * KEYS: request hash, active index. ARGV: now, lease ms. Returns 1 or 0.
 */
export const claimNoticeScript = scriptOf(`
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'done' and state ~= 'failed' then return 0 end
if redis.call('HGET', KEYS[1], 'notified') then return 0 end
local now = tonumber(ARGV[1])
if tonumber(redis.call('HGET', KEYS[1], 'noticeUntil') or '0') > now then return 0 end
local lease = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'noticeUntil', lease)
redis.call('ZADD', KEYS[2], lease, redis.call('HGET', KEYS[1], 'id'))
return 1
`);

/** KEYS: request hash, active index. ARGV: ttl ms of a final record. */
export const noticedScript = scriptOf(`
redis.call('HSET', KEYS[1], 'notified', '1')
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`);
