-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- executing → done | failed, by the executor that holds the claim. The request stays in the active index
-- until its outcome is posted, so a crash between the two is finished by a recovery pass.
-- KEYS: request hash, active index. ARGV: executor id, final state, outcome JSON, now, grace ms. Returns 1 or 0.
if redis.call('HGET', KEYS[1], 'state') ~= 'executing' then return 0 end
if redis.call('HGET', KEYS[1], 'executor') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'outcome', ARGV[3], 'finishedAt', ARGV[4])
redis.call('HDEL', KEYS[1], 'leaseUntil', 'phase')
redis.call('ZADD', KEYS[2], tonumber(ARGV[4]) + tonumber(ARGV[5]), redis.call('HGET', KEYS[1], 'id'))
return 1
