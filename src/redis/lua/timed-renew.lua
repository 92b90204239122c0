-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- Renews the lease and/or moves the phase, only for the runner that holds the claim: a runner whose item was
-- taken over learns it here, before it changes anything. ARGV: id, runner, now, lease ms, phase ('' keeps
-- it). Returns 1 or 0.
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[2] then return 0 end
local lease = tonumber(ARGV[3]) + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'leaseUntil', lease)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'phase', ARGV[5]) end
redis.call('ZADD', KEYS[2], lease, ARGV[1])
return 1
