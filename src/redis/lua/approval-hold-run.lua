-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- Holds an approved request until `runAt`: sets the fields and moves its recovery time there, once and
-- only while it is still approved. KEYS: request hash, active index. ARGV: runAt, reason, zone, windows.
-- Returns 1 when this call held it, 0 when it was no longer approved or already held.
if redis.call('HGET', KEYS[1], 'state') ~= 'approved' then return 0 end
if redis.call('HEXISTS', KEYS[1], 'runAt') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'runAt', ARGV[1], 'runReason', ARGV[2], 'runZone', ARGV[3], 'runWindows', ARGV[4])
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]), redis.call('HGET', KEYS[1], 'id'))
return 1
