-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- Claims the posting of a finished request's outcome, so one process posts it.
-- KEYS: request hash, active index. ARGV: now, lease ms. Returns 1 or 0.
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'done' and state ~= 'failed' then return 0 end
if redis.call('HGET', KEYS[1], 'notified') then return 0 end
local now = tonumber(ARGV[1])
if tonumber(redis.call('HGET', KEYS[1], 'noticeUntil') or '0') > now then return 0 end
local lease = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'noticeUntil', lease)
redis.call('ZADD', KEYS[2], lease, redis.call('HGET', KEYS[1], 'id'))
return 1
