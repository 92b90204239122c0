-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
--  A waiting item moves to another time. ARGV: id, at. Returns {'rescheduled'}, {'refused', state} or {'missing'}.
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', 'missing'} end
if state ~= 'scheduled' then return {'refused', state} end
redis.call('HSET', KEYS[1], 'dueAt', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[1])
return {'rescheduled', 'scheduled'}
