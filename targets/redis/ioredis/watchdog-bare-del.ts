// BAD for V310 (ORACLES.md row V310, release without owner check), on a lock that renews itself: the
// release is a bare DEL. Held at its wire proxy the DEL cannot land (the watchdog keeps A's lease);
// cut off from the store from its DEL on, A's lease lapses, B takes the lock, and A's DEL removes it.
import { watchdogLock } from './watchdog.ts';

export default watchdogLock(
  'ioredis: SET NX PX, a watchdog renewing every TTL/3 until the release returns, bare DEL release',
  async (redis, key) => (await redis.del(key)) === 1,
);
