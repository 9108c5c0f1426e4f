/**
 * The operation the V316 reference targets guard with a timeout: a BLPOP that never returns (no one
 * pushes), on its own connection so the guard can cut it off by disconnecting.
 */
import type { Redis } from 'ioredis';

export interface BlockingOperation {
  /** Stop waiting: disconnect the operation's connection and let the BLPOP end. */
  cancel(): Promise<void>;
}

export function startBlockingOperation(client: Redis, key: string): BlockingOperation {
  const connection = client.duplicate();
  connection.on('error', () => undefined);
  const pending = connection.blpop(`${key}:never-pushed`, 0).catch(() => null);
  return {
    async cancel() {
      connection.disconnect();
      await pending;
    },
  };
}
