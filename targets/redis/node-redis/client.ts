/** One node-redis connection per target module (each holder process imports its target once). */
import { createClient } from 'redis';
import type { TargetEnv } from '../../contract.ts';

export type NodeRedisClient = ReturnType<typeof createClient>;

export interface NodeRedisSlot {
  connect(env: TargetEnv): Promise<void>;
  close(): Promise<void>;
  /** The connected client; throws when `connect` has not run. */
  get(): NodeRedisClient;
}

export function nodeRedisSlot(): NodeRedisSlot {
  let client: NodeRedisClient | undefined;
  return {
    async connect(env) {
      client = createClient({ url: env.url });
      // node-redis throws an 'error' event nobody listens to, which would crash the holder.
      client.on('error', (error: Error) => env.log(`node-redis: ${error.message}`));
      await client.connect();
    },
    async close() {
      await client?.close();
      client = undefined;
    },
    get() {
      if (!client) throw new Error('the node-redis client is not connected: the harness must call connect(env) first');
      return client;
    },
  };
}
