-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- executing → approved again, by the executor that holds the claim: the call was held back (a device it
-- changes is held by work whose kind lets others wait), and a recovery pass tries it again at ARGV[3].
-- KEYS: request hash, active index. ARGV: executor id, now, retry at. Returns 1 or 0.
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'approved')
redis.call('HDEL', KEYS[1], 'executor', 'leaseUntil', 'phase')
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), redis.call('HGET', KEYS[1], 'id'))
return 1
