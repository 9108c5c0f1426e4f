/**
 * The two Lua scripts a correct Redis lock needs, shared by the ioredis and node-redis targets.
 * Each runs atomically on the server, so no other client can slip in between the GET and the write.
 */

/** Delete the key only while it still holds our token. Returns 1 when deleted, 0 otherwise. */
export const COMPARE_AND_DELETE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0`;

/** Reset the key's TTL to ARGV[2] ms only while it still holds our token. Returns 1 or 0. */
export const COMPARE_AND_PEXPIRE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0`;

/** Mark the job done (overwrite the claim, keep its TTL) only while it still holds our token. Returns 1 or 0. */
export const COMPARE_AND_MARK_DONE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[1], 'done', 'KEEPTTL')
  return 1
end
return 0`;

/** A lock kept in a hash (KEYS[1]) field "owner": claim it when the hash is absent, with a TTL. */
export const HASH_CLAIM = `
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('hset', KEYS[1], 'owner', ARGV[1], 'state', 'running')
redis.call('pexpire', KEYS[1], ARGV[2])
return 1`;

/** Delete the hash only while its "owner" field still holds our token. Returns 1 or 0. */
export const HASH_COMPARE_AND_DELETE = `
if redis.call('hget', KEYS[1], 'owner') == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0`;

/** Reset the hash's TTL to ARGV[2] ms only while its "owner" field still holds our token. Returns 1 or 0. */
export const HASH_COMPARE_AND_PEXPIRE = `
if redis.call('hget', KEYS[1], 'owner') == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0`;
