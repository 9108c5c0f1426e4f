/**
 * A Redis job queue's claim, the way many queues write it: the job hash `job:<id>` holds the
 * claimant in `lockId` and the claim's end in `lockExpiresAt`, an ISO 8601 instant the claiming
 * worker writes on its own clock (`Date.now() + ttl`); Redis gives the hash no TTL. A worker claims
 * a job that is unclaimed (no `lockId`, or an empty one) or whose `lockExpiresAt` is empty or has
 * passed by its own clock. The targets differ in `complete` (does it check the owner before
 * clearing the claim? does it delete the fields, or empty them as queue libraries do:
 * `HSET job:k lockId '' lockExpiresAt ''`?) and in whether the job renews.
 * They declare both fields with storeKey, so the harness judges the lease by `lockExpiresAt` on its
 * own clock instead of the hash's PTTL (-1).
 */
import { randomUUID } from 'node:crypto';
import { defineTarget, type Target, type TargetEnv } from '../../contract.ts';
import { sleep, stepMs, steps } from '../job-params.ts';
import { jobUnderLock } from '../lock-job.ts';
import { ioredisSlot } from '../ioredis/client.ts';

/** KEYS[1] job; ARGV lockId. Clear the claim only while it is ours, deleting its fields. */
const COMPLETE_IF_OWNER = `
if redis.call('hget', KEYS[1], 'lockId') ~= ARGV[1] then return 0 end
redis.call('hdel', KEYS[1], 'lockId', 'lockExpiresAt')
return 1`;

/** KEYS[1] job; ARGV lockId. Clear the claim only while it is ours, emptying its fields. */
const EMPTY_IF_OWNER = `
if redis.call('hget', KEYS[1], 'lockId') ~= ARGV[1] then return 0 end
redis.call('hset', KEYS[1], 'lockId', '', 'lockExpiresAt', '')
return 1`;

export interface AppClockClaimOptions {
  /**
   * complete() checks that the claim is still this worker's before clearing it: in one Lua script
   * (true), or by reading lockId first and clearing with a command of its own ('read-then-clear',
   * the check and the clear apart), or not at all (false).
   */
  completeChecksOwner: boolean | 'read-then-clear';
  /** How complete() clears the claim: deletes its fields (default), or empties them (the app's "free"). */
  clears?: 'hdel' | 'empty-fields';
  /** The job renews its claim (owner-checked) before each write and stops when that fails. */
  renews: boolean;
}

const jobKey = (env: TargetEnv) => `job:${env.key}`;

export function appClockClaim(options: AppClockClaimOptions): Target {
  const redis = ioredisSlot();
  const emptied = options.clears === 'empty-fields';
  /**
   * Set `lockId` and a new `lockExpiresAt` (ISO, this worker's clock + ttlMs) when `may` says so of
   * the claim as it stands, under WATCH so a claim made in between aborts the write (false).
   */
  const claimIf = async (
    env: TargetEnv,
    lockId: string,
    ttlMs: number,
    may: (current: { lockId: string | null; expiresMs: number | null }, nowMs: number) => boolean,
  ) => {
    const client = redis.get();
    await client.watch(jobKey(env));
    const [current, expires] = await client.hmget(jobKey(env), 'lockId', 'lockExpiresAt');
    const nowMs = Date.now();
    // An empty field is as good as none: the claim cleared.
    if (!may({ lockId: current || null, expiresMs: expires ? Date.parse(expires) : null }, nowMs)) {
      await client.unwatch();
      return false;
    }
    const expiresAt = new Date(nowMs + ttlMs).toISOString();
    return (await client.multi().hset(jobKey(env), 'lockId', lockId, 'lockExpiresAt', expiresAt).exec()) !== null;
  };
  const lock: Target & Required<Pick<Target, 'acquire' | 'release' | 'extend'>> = defineTarget({
    description: `ioredis job queue: claim job:<key> lockId + lockExpiresAt (ISO, the worker's Date.now() + ttl), no Redis TTL; complete ${options.completeChecksOwner === true ? 'checks lockId' : options.completeChecksOwner ? 'reads lockId, compares, then clears' : 'clears the claim with no owner check'}${emptied ? ", emptying its fields (lockId '', lockExpiresAt '')" : ''}; ${options.renews ? 'renews (owner-checked) before each write' : 'no renewal'}`,
    connect: (env) => redis.connect(env),
    storeKey: (env) => ({ key: jobKey(env), field: 'lockId', expiresField: 'lockExpiresAt' }),
    async acquire(env) {
      const lockId = randomUUID();
      // Free, or its claim's end has passed by this worker's clock (a stalled job's recovery).
      const free = (c: { lockId: string | null; expiresMs: number | null }, nowMs: number) =>
        c.lockId === null || c.expiresMs === null || c.expiresMs <= nowMs;
      return (await claimIf(env, lockId, env.ttlMs, free)) ? { token: lockId } : null;
    },
    async release(env, lease) {
      if (options.completeChecksOwner === true)
        return (
          (await redis
            .get()
            .eval(emptied ? EMPTY_IF_OWNER : COMPLETE_IF_OWNER, 1, jobKey(env), String(lease.token))) === 1
        );
      if (options.completeChecksOwner === 'read-then-clear') {
        if ((await redis.get().hget(jobKey(env), 'lockId')) !== String(lease.token)) return false;
        await env.seam('release:before-delete');
      }
      if (emptied) await redis.get().hset(jobKey(env), 'lockId', '', 'lockExpiresAt', '');
      else await redis.get().hdel(jobKey(env), 'lockId', 'lockExpiresAt');
      return true;
    },
    async extend(env, lease, ttlMs) {
      const lockId = String(lease.token);
      // Still ours and not yet lapsed by this worker's clock.
      const ours = (c: { lockId: string | null; expiresMs: number | null }, nowMs: number) =>
        c.lockId === lockId && c.expiresMs !== null && c.expiresMs > nowMs;
      return claimIf(env, lockId, ttlMs, ours);
    },
    async job(env) {
      if (options.renews) return jobUnderLock(env, lock);
      const lease = await lock.acquire(env);
      if (!lease) {
        env.log('the job is claimed elsewhere; skipping it');
        return;
      }
      for (let i = 0; i < steps(env); i++) {
        await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
      await lock.release(env, lease);
    },
    close: () => redis.close(),
  });
  return lock;
}
