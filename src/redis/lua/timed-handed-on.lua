-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
--  An ended item's followed work was handed on: it leaves the due index. ARGV: id.
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'scheduled' or state == 'running' then return 0 end
redis.call('HDEL', KEYS[1], 'track')
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
