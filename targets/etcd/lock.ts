// GOOD for V311 (ORACLES.md row V311): npm etcd3 1.1.2's Lock: a lease of the run's TTL (kept alive by the client) and Create(key) == 0 then put on that lease, so a holder killed while holding frees the lock when its lease ends; release revokes the lease.
import { defineTarget } from '../contract.ts';
import { etcd3Slot, ttlSeconds } from './client.ts';
import { EtcdLockFailedError, type Lock } from 'etcd3';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3: Lock (a lease kept alive, Create == 0 then put on it); release revokes the lease',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  async acquire(env) {
    const lock = etcd.get().lock(env.key).ttl(ttlSeconds(env));
    try {
      await lock.acquire();
    } catch (error) {
      if (error instanceof EtcdLockFailedError) return null;
      throw error;
    }
    await env.seam('acquire:after-set');
    return { lock, token: '' };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    await (lease.lock as Lock).release();
    return true;
  },
  close: () => etcd.close(),
});
