// Lock shape (V310, V311): your acquire / release / extend, bound one to one.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { defineTarget } from 'lock-oracles';

const DEL_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
const PEXPIRE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
let redis: Redis;

export default defineTarget({
  connect: ({ url }) => {
    redis = new Redis(url);
  },
  async acquire({ key, ttlMs }) {
    const token = randomUUID();
    return (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK' ? { token } : null; // null: denied
  },
  release: ({ key }, lease) => redis.eval(DEL_IF_OURS, 1, key, String(lease.token)),
  extend: async ({ key }, lease, ttlMs) =>
    (await redis.eval(PEXPIRE_IF_OURS, 1, key, String(lease.token), ttlMs)) === 1,
  close: async () => {
    await redis.quit();
  },
});
