-- A channel's desk marks: incident id -> version, each mark made by HINCRBY, so a mark made again while its
-- message is being shown is a new version. Marks a release before versions left in a set are taken in first
-- (version 1). KEYS: the marks (hash), the marks of the release before (set). Returns id, version, id, ...
local legacy = redis.call('SMEMBERS', KEYS[2])
for _, id in ipairs(legacy) do redis.call('HINCRBY', KEYS[1], id, 1) end
if #legacy > 0 then redis.call('DEL', KEYS[2]) end
return redis.call('HGETALL', KEYS[1])
