-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- approved → executing, or a takeover of an executing request whose lease ran out (its process died).
-- KEYS: request hash, active index. ARGV: now, executor id, lease ms.
-- Returns {'claimed', phase, attempts} (phase '' for a fresh start) or {'busy', state}.
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
