-- XADD with an id from the caller's clock, never below the stream's top (two processes' clocks differ by
-- a little), trimming everything older than the cutoff in the same step.
-- KEYS: the audit stream. ARGV: now, the cutoff (ms), then field, value… Returns the id of the record.
local ms = tonumber(ARGV[1])
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if top[1] then
  local topMs = tonumber(string.match(top[1][1], '^(%d+)-'))
  if topMs > ms then ms = topMs end
end
return redis.call('XADD', KEYS[1], 'MINID', ARGV[2], string.format('%d-*', ms), unpack(ARGV, 3))
