-- An approval request's state machine (src/approvals/store.ts). Times come from the caller's clock.
--  KEYS: request hash, active index. ARGV: ttl ms of a final record.
redis.call('HSET', KEYS[1], 'notified', '1')
redis.call('ZREM', KEYS[2], redis.call('HGET', KEYS[1], 'id'))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
