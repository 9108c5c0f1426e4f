/** One npm etcd3 client per target module (each holder process imports its target once), and the lease TTL in etcd's whole seconds. */
import { Etcd3 } from 'etcd3';
import type { TargetEnv } from '../contract.ts';

export interface Etcd3Slot {
  connect(env: TargetEnv): Promise<void>;
  close(): Promise<void>;
  /** The connected client; throws when `connect` has not run. */
  get(): Etcd3;
}

export function etcd3Slot(): Etcd3Slot {
  let client: Etcd3 | undefined;
  return {
    async connect(env) {
      client = new Etcd3({ hosts: env.url });
      await client.get('lock-oracles:connect');
    },
    async close() {
      client?.close();
      client = undefined;
    },
    get() {
      if (!client) throw new Error('the etcd3 client is not connected: the harness must call connect(env) first');
      return client;
    },
  };
}

/** The run's TTL as an etcd lease TTL: whole seconds (the harness refuses a --ttl that is not). */
export const ttlSeconds = (env: TargetEnv): number => Math.max(1, Math.round(env.ttlMs / 1000));
