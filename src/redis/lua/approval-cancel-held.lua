-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
-- Withdraws a held request before it runs: approved and held → cancelled, in one step, so that of a cancel
-- and the recovery pass's claim at the scheduled minute exactly one wins (the claim moves `approved` to
-- `executing`; this refuses anything but `approved`). KEYS: request hash, active index. ARGV: now, who,
-- reason, ttl ms of a final record. Returns {'ok', 'cancelled'}, {'refused', state, held ('1' or '0')} or
-- {'missing', '', '0'}.
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'missing', '', '0'} end
local held = redis.call('HEXISTS', KEYS[1], 'runAt')
if state ~= 'approved' or held == 0 then return {'refused', state, tostring(held)} end
redis.call('HSET', KEYS[1], 'state', 'cancelled', 'cancelledBy', ARGV[2], 'cancelledAt', ARGV[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[3]) end
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {'ok', 'cancelled', '1'}
