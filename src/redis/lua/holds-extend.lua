--  Moves the end of one holder's holds on one profile. KEYS: the profile's holds. ARGV: holder id, until.
local count = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'h:' and all[i + 1] == ARGV[1] then
    redis.call('HSET', KEYS[1], 'u:' .. string.sub(field, 3), ARGV[2])
    count = count + 1
  end
end
return count
