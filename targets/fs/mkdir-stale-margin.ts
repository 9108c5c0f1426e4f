// GOOD (late) for V311 on --store fs: mkdir-lock.ts whose stale rule pads the TTL with a second (as lock libraries that add a margin to their stale time do), bound as a user who does not know the margin would: no stale time declared, so the harness's read shows PTTL -1. A killed holder's lock is taken over about TTL + 1000 ms after its take: V311 PASSes it as freed late, its lifetime reported; --strict-ttl on FAILs it.
import { defineTarget, type TargetEnv } from '../contract.ts';
import { lockDir, OWNER } from './lock-dir.ts';
import mkdirLock from './mkdir-lock.ts';

const MARGIN_MS = 1000;

/** The env mkdir-lock.ts sees: its stale rule (mtime older than env.ttlMs) then allows the margin. */
const padded = (env: TargetEnv): TargetEnv => ({ ...env, ttlMs: env.ttlMs + MARGIN_MS });

export default defineTarget({
  description: `mkdir lock with an owner file; stale (mtime older than the TTL + ${MARGIN_MS} ms) locks taken over; owner-checked release`,
  storeKey: (env) => ({ path: lockDir(env).name, owner: OWNER }),
  acquire: (env) => mkdirLock.acquire(padded(env)),
  release: (env, lease) => mkdirLock.release!(padded(env), lease),
  extend: (env, lease) => mkdirLock.extend!(padded(env), lease),
});
