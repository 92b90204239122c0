-- KEYS: due. ARGV: at, user. A publish that has to wait (Slack's pace, a 429): due at `at`, or sooner if
-- a change already made it so. 1 when this call set the mark (a job must be queued for it).
local due = redis.call('ZSCORE', KEYS[1], ARGV[2])
if due and tonumber(due) <= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1
