// GOOD for V310 (pause and narrow): redis-semaphore 5.8.0's Mutex bound through its public API as its users bind it: tryAcquire(), release(). Its release deletes the key only while it holds the Mutex's own identifier (a compare-and-delete script). The target reports no token (the binding keeps the Mutex, not its identifier): whose lock is in the key, the harness observes from the value each holder's SET … NX wrote at its wire proxy.
import type { Mutex } from 'redis-semaphore';
import { defineTarget } from '../../contract.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { jobMutex, mutexKey } from './mutex.ts';

const redis = ioredisSlot();
const held = new Map<number, Mutex>();
let next = 0;

export default defineTarget({
  description:
    'redis-semaphore Mutex: tryAcquire() (SET NX PX under mutex:<key>, its own refresh timer), release() (compare-and-delete); no token reported',
  connect: (env) => redis.connect(env),
  close: () => redis.close(),
  storeKey: mutexKey,
  async acquire(env) {
    const mutex = jobMutex(redis.get(), env, () => env.log('redis-semaphore: lock lost (onLockLost)'));
    if (!(await mutex.tryAcquire())) return null;
    held.set(++next, mutex);
    return { handle: next };
  },
  async release(env, lease) {
    env.log('releasing through the Mutex');
    const mutex = held.get(Number(lease.handle));
    held.delete(Number(lease.handle));
    await mutex?.release();
    return mutex !== undefined;
  },
});
