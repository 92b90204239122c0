-- KEYS: open, due, last. ARGV: now, debounce, interval, lostAfter, '*' or user ids.
-- Returns user, dueAt, user, dueAt… for the marks this call made (each needs a publish job).
local now = tonumber(ARGV[1])
local users = {}
if ARGV[5] == '*' then
  users = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
else
  for i = 5, #ARGV do
    local u = ARGV[i]
    local until_ = redis.call('ZSCORE', KEYS[1], u)
    if until_ and tonumber(until_) > now then table.insert(users, u) end
  end
end
local out = {}
for _, u in ipairs(users) do
  local due = redis.call('ZSCORE', KEYS[2], u)
  if (not due) or (tonumber(due) + tonumber(ARGV[4]) < now) then
    local last = tonumber(redis.call('HGET', KEYS[3], u) or '0')
    local at = math.max(now + tonumber(ARGV[2]), last + tonumber(ARGV[3]))
    redis.call('ZADD', KEYS[2], at, u)
    table.insert(out, u)
    table.insert(out, tostring(at))
  end
end
return out
