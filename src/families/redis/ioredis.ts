/**
 * The harness's own Redis client library (ioredis), required on first use rather than when the
 * family's code loads (as zk-reads.ts requires ZooKeeper's): ~20 ms of CPU that a run on another
 * store never needs, and that a Redis run spends at its first read of the store, once A's lease is
 * running, instead of before the run begins. Node's require cache keeps the one instance.
 */
import { createRequire } from 'node:module';

export const ioredis = (): typeof import('ioredis') =>
  createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
