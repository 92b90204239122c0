-- Slack's pace per channel (src/jobs/slackPace.ts); Redis's own clock decides. KEYS: the channel's pace. ARGV: interval ms.
-- Returns 0 and books the slot when it is free, else the milliseconds until it is.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
if nextAt > now then return nextAt - now end
local interval = tonumber(ARGV[1])
if interval > 0 then redis.call('SET', KEYS[1], now + interval, 'PX', interval + 1000) end
return 0
