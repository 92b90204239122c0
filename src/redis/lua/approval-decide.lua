-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- pending → approved | rejected | cancelled | expired.
-- KEYS: request hash, pending index, active index. ARGV: now, target state, decidedBy, reason, ttl ms of a
-- final record, grace ms: an approved request waits that long for the approving process to claim it before
-- recovery passes of other processes may; approvals needed (1 when absent). A request past its expiry can only become expired, whoever clicks, even before the sweeper
-- has seen it. Returns {'ok', newState, decidedBy} (newState is 'expired' when it was too late), or
-- {'refused', currentState, decidedBy} when someone else decided first, or {'missing', '', ''}.
-- A request that needs several approvers collects them in `approvers` (comma-separated, each once): an
-- approval short of the count returns {'partial', 'pending', approvers}, the same person again
-- {'again', 'pending', approvers}; the one that completes the count approves it.
-- ARGV[8], for a request that needs both sides (`customer_approvers`): the side this approver counts for,
-- `m` (the MSP's), `c` (the customer's) or `e` (either), kept in `approverSides`; the count is then complete
-- only once two distinct people cover the two sides, so no number of one side's approvals completes it.
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
