/** The fleet lock the V319 reference replicas take before running the daily job: SET key token PX ttl NX, never released early. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { TargetEnv } from '../contract.ts';

/** Run the job (report one "fire") when this replica takes `key` for `ttlMs`; do nothing when another replica holds it. */
export async function fireUnderFleetLock(env: TargetEnv, client: Redis, key: string, ttlMs: number): Promise<void> {
  const taken = await client.set(key, randomUUID(), 'PX', ttlMs, 'NX');
  if (taken === null) return;
  await env.effect('fire', { value: { at: new Date().toISOString(), key } });
}

/** The local date (YYYY-MM-DD) now, in the process's time zone (TZ). */
export function localDateNow(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}
