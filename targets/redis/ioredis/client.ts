/** One ioredis connection per target module (each holder process imports its target once). */
import { Redis } from 'ioredis';
import type { TargetEnv } from '../../contract.ts';

export interface IoredisSlot {
  connect(env: TargetEnv): Promise<void>;
  close(): Promise<void>;
  /** The connected client; throws when `connect` has not run. */
  get(): Redis;
}

export function ioredisSlot(): IoredisSlot {
  let client: Redis | undefined;
  return {
    async connect(env) {
      client = new Redis(env.url, { lazyConnect: true });
      client.on('error', (error: Error) => env.log(`ioredis: ${error.message}`));
      await client.connect();
    },
    async close() {
      await client?.quit();
      client = undefined;
    },
    get() {
      if (!client) throw new Error('the ioredis client is not connected: the harness must call connect(env) first');
      return client;
    },
  };
}
