-- Releases the holds of one holder on one profile, or of one device only when `uid` is given (an admin's).
-- KEYS: the profile's holds. ARGV: holder id, uid ('' for all). Returns, per released device, its hold
-- (JSON), since and until.
local released = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'h:' and all[i + 1] == ARGV[1] then
    local uid = string.sub(field, 3)
    if ARGV[2] == '' or ARGV[2] == uid then
      local fields = redis.call('HMGET', KEYS[1], 'd:' .. uid, 's:' .. uid, 'u:' .. uid)
      table.insert(released, fields[1] or '')
      table.insert(released, fields[2] or '0')
      table.insert(released, fields[3] or '0')
      redis.call('HDEL', KEYS[1], 'd:' .. uid, 'h:' .. uid, 's:' .. uid, 'u:' .. uid)
    end
  end
end
return released
