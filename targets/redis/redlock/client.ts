/** One ioredis connection and one Redlock over it, per target module (one holder process each). */
import { Redis } from 'ioredis';
import { Redlock } from './redlock.ts';
import type { TargetEnv } from '../../contract.ts';

export interface RedlockSlot {
  connect(env: TargetEnv): Promise<void>;
  close(): Promise<void>;
  /** The Redlock instance; throws when `connect` has not run. */
  get(): Redlock;
  /** The ioredis connection Redlock locks through (the same Redis, for a fence); throws when `connect` has not run. */
  client(): Redis;
}

/** retryCount 0: one attempt, so a held lock is a denial at once rather than a wait. */
export function redlockSlot(): RedlockSlot {
  let redlock: Redlock | undefined;
  let connection: Redis | undefined;
  return {
    async connect(env) {
      const client = new Redis(env.url, { lazyConnect: true });
      client.on('error', (error: Error) => env.log(`ioredis: ${error.message}`));
      await client.connect();
      connection = client;
      redlock = new Redlock([client], { retryCount: 0 });
    },
    async close() {
      await redlock?.quit();
      redlock = undefined;
      connection = undefined;
    },
    get() {
      if (!redlock) throw new Error('the redlock client is not connected: the harness must call connect(env) first');
      return redlock;
    },
    client() {
      if (!connection) throw new Error('the redlock client is not connected: the harness must call connect(env) first');
      return connection;
    },
  };
}
