-- KEYS: records, fingerprints, channel's ids, profile's ids, profiles. ARGV: id, fingerprint, JSON,
-- profile. Returns {1, id} when created, {0, id} when an equal one exists, {-1} when the id is taken.
local existing = redis.call('HGET', KEYS[2], ARGV[2])
if existing then return {0, existing} end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return {-1} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('SADD', KEYS[5], ARGV[4])
return {1, ARGV[1]}
