-- KEYS: due, last. ARGV: now, user, early. 1 = claimed (publish now); 0 = nothing due (someone else
-- claimed it); a negative number = due later, in that many ms.
local now = tonumber(ARGV[1])
local due = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not due then return 0 end
if tonumber(due) > now + tonumber(ARGV[3]) then return -(tonumber(due) - now) end
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return 1
