-- KEYS: meta, state. ARGV: field, the version read. Forgets the stream only if no scan or subscription
-- committed it since (answers 1), and moves its version on, so a scan still holding the old one cannot
-- commit over what comes next.
local v = redis.call('HGET', KEYS[1], ARGV[1] .. '|v') or '0'
if v ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1] .. '|v', tostring(tonumber(v) + 1))
redis.call('DEL', KEYS[2])
return 1
