-- Clears desk marks whose message was shown, each only if it was not marked again since it was read (its
-- version unchanged): a mark made while the message was being shown stays for the next delivery.
-- KEYS: the marks (hash). ARGV: id, version, id, version, ... Returns how many were cleared.
local cleared = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    cleared = cleared + redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return cleared
