/**
 * The two claim scripts of V317's Redis job-queue targets. A job's lock is a hash at the lock key:
 * `owner` and `lockExpiresAt` (epoch ms). A worker claims the job when it is unlocked or its lock
 * has expired, as a queue's stalled-job recovery does. The scripts differ only in whose clock
 * "now" is: the calling worker's (passed in) or the store's (`TIME`).
 */

/** KEYS[1] job; ARGV owner, ttl ms, the caller's Date.now(). 1 when claimed, 0 when locked. */
export const CLAIM_ON_CALLER_CLOCK = `
local now = tonumber(ARGV[3])
local expires = tonumber(redis.call('hget', KEYS[1], 'lockExpiresAt'))
if expires and expires > now then return 0 end
redis.call('hset', KEYS[1], 'owner', ARGV[1], 'lockExpiresAt', now + tonumber(ARGV[2]))
return 1`;

/** KEYS[1] job; ARGV owner, ttl ms. The same claim with now taken from the store's TIME. */
export const CLAIM_ON_STORE_CLOCK = `
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expires = tonumber(redis.call('hget', KEYS[1], 'lockExpiresAt'))
if expires and expires > now then return 0 end
redis.call('hset', KEYS[1], 'owner', ARGV[1], 'lockExpiresAt', now + tonumber(ARGV[2]))
return 1`;

/** KEYS[1] job; ARGV owner. Unlock only while we own it. */
export const UNLOCK_IF_OWNER = `
if redis.call('hget', KEYS[1], 'owner') == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0`;
