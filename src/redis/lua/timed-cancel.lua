-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- scheduled → cancelled, in one step against the claim: of a cancel and a claim exactly one wins (the claim
-- moves `scheduled` to `running`; this refuses anything but `scheduled`). ARGV: id, now, by, summary,
-- retention ms. Returns {'cancelled'}, {'refused', state} or {'missing'}.
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
