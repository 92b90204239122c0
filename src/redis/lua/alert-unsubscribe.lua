-- KEYS: records, fingerprints, channel's ids, profile's ids, profiles (as alert-subscribe). ARGV: id, fingerprint, the JSON read before (records never change, so an equal value is the
-- same record), profile. The profile leaves the set of profiles with its last subscription.
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[2]) end
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
if redis.call('SCARD', KEYS[4]) == 0 then redis.call('SREM', KEYS[5], ARGV[4]) end
return 1
