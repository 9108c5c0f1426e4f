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
