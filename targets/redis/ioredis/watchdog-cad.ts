// GOOD for V310 (ORACLES.md row V310): the twin of watchdog-bare-del.ts whose release is a Lua
// compare-and-delete: arriving after B took the lock, it finds B's token and deletes nothing.
import { COMPARE_AND_DELETE } from '../lua.ts';
import { watchdogLock } from './watchdog.ts';

export default watchdogLock(
  'ioredis: SET NX PX, a watchdog renewing every TTL/3 until the release returns, Lua compare-and-delete release',
  async (redis, key, token) => (await redis.eval(COMPARE_AND_DELETE, 1, key, token)) === 1,
);
