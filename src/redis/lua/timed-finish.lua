-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- running → done | failed, by the runner that holds the claim. An item with followed work to hand on stays in
-- the due index (score: now) until it is handed on (handedOnScript), so a crash between the two loses
-- nothing; the record is kept for the retention, and the ended index is trimmed to it.
-- ARGV: id, runner, state, summary, now, track JSON ('' when none), retention ms. Returns 1 or 0.
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
