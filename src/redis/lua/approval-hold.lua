-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- Renews the lease and/or moves the phase, only for the executor that holds the claim: a process whose
-- lease was taken over learns it here, before it sends anything to SCC.
-- KEYS: request hash, active index. ARGV: executor id, now, lease ms, phase ('' keeps it). Returns 1 or 0.
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
local lease = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'leaseUntil', lease)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'phase', ARGV[4]) end
redis.call('ZADD', KEYS[2], lease, redis.call('HGET', KEYS[1], 'id'))
return 1
