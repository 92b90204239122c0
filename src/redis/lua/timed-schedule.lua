-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- A new item, unless one of this id waits or runs. An item that ended is replaced (the same thing scheduled
-- again), keeping its round so that what the new one says is not taken for what the old one said.
-- ARGV: id, dueAt, now, kind, profile, key, owner, what, payload JSON, devices JSON, thread JSON or ''.
-- Returns {'scheduled'} or {'exists', state}.
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'scheduled' or state == 'running' then return {'exists', state} end
local round = redis.call('HGET', KEYS[1], 'round') or '0'
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'scheduled', 'dueAt', ARGV[2], 'scheduledAt', ARGV[3],
  'kind', ARGV[4], 'profile', ARGV[5], 'key', ARGV[6], 'owner', ARGV[7], 'what', ARGV[8],
  'payload', ARGV[9], 'devices', ARGV[10], 'attempts', '0', 'round', round, 'failures', '0')
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'thread', ARGV[11]) end
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {'scheduled', 'scheduled'}
