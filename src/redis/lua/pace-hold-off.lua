-- Slack's pace per channel (src/jobs/slackPace.ts). KEYS: the channel's pace. ARGV: delay ms.
-- Pushes the next free slot to now + ARGV[1] unless it is already later (after a 429).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ = now + tonumber(ARGV[1])
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ > nextAt then redis.call('SET', KEYS[1], until_, 'PX', tonumber(ARGV[1]) + 1000) end
return 0
