-- KEYS: meta, state, outbox. ARGV: field, expected version, meta JSON, n sets, (subject, JSON)…, n deletes,
-- subject…, then one event JSON per remaining argument. Answers 1 when committed, 0 when another scan
-- committed the stream first (this one's findings are then dropped: that scan saw the same differences).
local v = redis.call('HGET', KEYS[1], ARGV[1] .. '|v') or '0'
if v ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3], ARGV[1] .. '|v', tostring(tonumber(v) + 1))
local i = 4
local n = tonumber(ARGV[i])
i = i + 1
for j = 1, n do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
n = tonumber(ARGV[i])
i = i + 1
for j = 1, n do
  redis.call('HDEL', KEYS[2], ARGV[i])
  i = i + 1
end
while i <= #ARGV do
  redis.call('XADD', KEYS[3], '*', 'e', ARGV[i])
  i = i + 1
end
return 1
