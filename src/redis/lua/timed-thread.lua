-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
--  An item learns the thread it speaks in (the announcement of the call that scheduled it, posted after the
--  call ran): kept only while it waits or runs, and only when it has none yet. ARGV: id, thread JSON.
--  Returns {'placed'}, {'kept', state} (it has a thread already, or ended) or {'missing'}.
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', 'missing'} end
if state ~= 'scheduled' and state ~= 'running' then return {'kept', state} end
if redis.call('HSETNX', KEYS[1], 'thread', ARGV[2]) == 0 then return {'kept', state} end
return {'placed', state}
