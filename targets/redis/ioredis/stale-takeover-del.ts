// BAD for V311 with --contenders 3 (ORACLES.md row V311): the stale-takeover pattern Redis's own SETNX page warns of. The lock's value is its expiry on the holder's clock (`<expiresAt>:<token>`, no Redis TTL); a contender that finds that expiry past its `Date.now()` DELetes the lock and takes it with SET NX. Two contenders that both read the stale value both delete and both take it: the later DEL removes the lock the other has just taken. With one contender (the default --contenders 2) the takeover is sound and V311 PASSes. Its twin, stale-takeover-cas.ts, differs only in the takeover: one compare-and-swap script on the value read.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

/** The expiry (ms since the epoch, on the writer's clock) a lock's value carries. */
const expiryOf = (value: string) => Number(value.split(':')[0]);

export default defineTarget({
  description:
    'ioredis: SET NX of `<expiresAt>:<token>` (no TTL); a stale lock (GET, expiry < Date.now()) is DEL then SET NX',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const mine = `${Date.now() + env.ttlMs}:${randomUUID()}`;
    if ((await redis.get().set(env.key, mine, 'NX')) !== null) return { token: mine };
    const seen = await redis.get().get(env.key);
    if (seen === null || expiryOf(seen) > Date.now()) return null;
    await redis.get().del(env.key);
    if ((await redis.get().set(env.key, mine, 'NX')) === null) return null;
    return { token: mine };
  },
  async release(env, lease) {
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1;
  },
  close: () => redis.close(),
});
