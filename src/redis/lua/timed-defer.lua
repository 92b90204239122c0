-- Timed work (src/jobs/timed/store.ts). KEYS are always: [1] the item's hash, [2] the due index, and where
-- a script ends an item [3] the ended index. The item's id is passed in ARGV: the indexes hold ids, not keys.
-- running → scheduled again at a later time, by the runner that holds the claim: a kind's `again` (its next
-- round), a wait for the change windows, a transient failure. ARGV: id, runner, at, summary, keep phase
-- ('1': a failure after the point of no return, so the next claim sees it), next round ('1' or '0'),
-- failures in a row. Returns 1 or 0.
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'runner') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'scheduled', 'dueAt', ARGV[3], 'summary', ARGV[4], 'failures', ARGV[7])
redis.call('HDEL', KEYS[1], 'runner', 'leaseUntil')
if ARGV[5] ~= '1' then redis.call('HDEL', KEYS[1], 'phase') end
if ARGV[6] == '1' then redis.call('HINCRBY', KEYS[1], 'round', 1) end
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[1])
return 1
