/** Lua for the V318 reference writers: one record in a hash with fields value, ts (ms) and version. */

/** Last-write-wins on the writer's wall-clock timestamp: apply only when ARGV[2] is newer than ts. */
export const WRITE_IF_NEWER_TIMESTAMP = `
local ts = tonumber(redis.call('HGET', KEYS[1], 'ts'))
if ts and tonumber(ARGV[2]) <= ts then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'ts', ARGV[2])
return 1`;

/** Hybrid logical clock: the write's stamp is max(writer's wall clock, stored stamp + 1), so it always orders after what it saw. */
export const WRITE_HYBRID_LOGICAL_CLOCK = `
local ts = tonumber(redis.call('HGET', KEYS[1], 'ts')) or 0
local stamp = math.max(tonumber(ARGV[2]), ts + 1)
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'ts', stamp)
return stamp`;

/** Optimistic concurrency on a version counter: apply only when the version is still the one read. */
export const WRITE_IF_VERSION = `
local version = tonumber(redis.call('HGET', KEYS[1], 'version')) or 0
if version ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'version', version + 1)
return 1`;
