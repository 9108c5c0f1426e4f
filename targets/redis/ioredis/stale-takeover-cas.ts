// GOOD for V311 with --contenders 3 (ORACLES.md row V311): stale-takeover-del.ts's twin, taking a stale lock over in one step — a compare-and-swap script that replaces the value only if it is still the stale one this contender read. Of two contenders that read the same stale value, only the first swap finds it; the second finds the winner's value and is denied.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { COMPARE_AND_DELETE } from '../lua.ts';
import { ioredisSlot } from './client.ts';

const redis = ioredisSlot();

/** Replace KEYS[1]'s value with ARGV[2] only if it is still ARGV[1]: 1 when swapped, else 0. */
const COMPARE_AND_SWAP = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0`;

/** The expiry (ms since the epoch, on the writer's clock) a lock's value carries. */
const expiryOf = (value: string) => Number(value.split(':')[0]);

export default defineTarget({
  description:
    'ioredis: SET NX of `<expiresAt>:<token>` (no TTL); a stale lock (GET, expiry < Date.now()) is taken over by one compare-and-swap script',
  connect: (env) => redis.connect(env),
  async acquire(env) {
    const mine = `${Date.now() + env.ttlMs}:${randomUUID()}`;
    if ((await redis.get().set(env.key, mine, 'NX')) !== null) return { token: mine };
    const seen = await redis.get().get(env.key);
    if (seen === null || expiryOf(seen) > Date.now()) return null;
    if ((await redis.get().eval(COMPARE_AND_SWAP, 1, env.key, seen, mine)) !== 1) return null;
    return { token: mine };
  },
  async release(env, lease) {
    return (await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1;
  },
  close: () => redis.close(),
});
