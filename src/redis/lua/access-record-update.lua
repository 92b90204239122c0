--  Changes some fields of one access record, if it is still kept (access/records.ts). KEYS: the profile's
--  access records. ARGV: record id, the changed fields as a JSON object. Returns the record's new JSON, or
--  false when there is no such record (its rule was removed meanwhile).
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local record = cjson.decode(raw)
for field, value in pairs(cjson.decode(ARGV[2])) do record[field] = value end
local text = cjson.encode(record)
redis.call('HSET', KEYS[1], ARGV[1], text)
return text
