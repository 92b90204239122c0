-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- scheduled and due → running, or a takeover of a running item whose lease ran out (its process died).
-- The phase of a run that passed its point of no return (`changing`) is kept until the new runner decides.
-- ARGV: id, now, runner, lease ms. Returns {'claimed', previous phase ('' or 'changing'), attempts} or
-- {'busy', state}.
local state = redis.call('HGET', KEYS[1], 'state')
if not state then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return {'busy', 'missing'}
end
local now = tonumber(ARGV[2])
if state == 'scheduled' then
  if tonumber(redis.call('HGET', KEYS[1], 'dueAt')) > now then return {'busy', 'waiting'} end
elseif state == 'running' then
  if tonumber(redis.call('HGET', KEYS[1], 'leaseUntil') or '0') > now then return {'busy', state} end
else
  return {'busy', state}
end
local previous = redis.call('HGET', KEYS[1], 'phase') or ''
if previous ~= 'changing' then
  previous = ''
  redis.call('HSET', KEYS[1], 'phase', 'starting')
end
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local lease = now + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'state', 'running', 'runner', ARGV[3], 'leaseUntil', lease)
redis.call('ZADD', KEYS[2], lease, ARGV[1])
return {'claimed', previous, tostring(attempts)}
