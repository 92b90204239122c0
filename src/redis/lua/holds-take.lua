-- Takes a hold on every device given, or on none. KEYS: the profile's holds, the holder's profiles, the
-- profiles with holds, the set of every profile's holds hash. ARGV: now, holder id, profile, until, then per
-- device its uid and its hold (JSON). A device held by another holder until later than now wins, under any
-- profile (a device's UUID is the same seen from its tenant or from the MSP portal): {'held', uid, hash}.
-- Lapsed holds are cleared on the way. A holder taking again keeps its `since`. Returns {'taken'}.
-- The other profiles' hashes are read from KEYS[4]'s members: one Redis, never a cluster.
local now = tonumber(ARGV[1])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'u:' and tonumber(all[i + 1]) <= now then
    local uid = string.sub(field, 3)
    redis.call('HDEL', KEYS[1], 'd:' .. uid, 'h:' .. uid, 's:' .. uid, 'u:' .. uid)
  end
end
for i = 5, #ARGV, 2 do
  local other = redis.call('HGET', KEYS[1], 'h:' .. ARGV[i])
  if other and other ~= ARGV[2] then return {'held', ARGV[i], KEYS[1]} end
end
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  if hash ~= KEYS[1] then
    for i = 5, #ARGV, 2 do
      local uid = ARGV[i]
      local other = redis.call('HGET', hash, 'h:' .. uid)
      local untilAt = tonumber(redis.call('HGET', hash, 'u:' .. uid) or '0')
      if other and other ~= ARGV[2] and untilAt > now then return {'held', uid, hash} end
    end
  end
end
for i = 5, #ARGV, 2 do
  local uid = ARGV[i]
  if redis.call('HGET', KEYS[1], 'h:' .. uid) ~= ARGV[2] then redis.call('HSET', KEYS[1], 's:' .. uid, ARGV[1]) end
  redis.call('HSET', KEYS[1], 'd:' .. uid, ARGV[i + 1], 'h:' .. uid, ARGV[2], 'u:' .. uid, ARGV[4])
end
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SADD', KEYS[4], KEYS[1])
return {'taken', ''}
