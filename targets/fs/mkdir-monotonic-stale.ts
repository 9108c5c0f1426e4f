// GOOD for V317 on --store fs: mkdir-lock.ts with its staleness rule measured on the contender's own monotonic clock: a lock is stale once its mtime has stayed unchanged for longer than the stale time (the TTL) since this process first saw it at that mtime (performance.now()), never by comparing the mtime with its wall clock (Date.now()), which may run ahead.
import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { defineTarget } from '../contract.ts';
import { lockDir, newToken, OWNER, ownerFile } from './lock-dir.ts';

/** When this process first saw each lock at its current mtime, on its monotonic clock. */
const sightings = new Map<string, { mtimeMs: number; since: number }>();

/** Whether the lock at `path`, seen now at `mtimeMs`, has kept that mtime for longer than `staleMs`. */
function unchangedFor(path: string, mtimeMs: number, staleMs: number): boolean {
  const seen = sightings.get(path);
  if (seen?.mtimeMs === mtimeMs) return performance.now() - seen.since > staleMs;
  sightings.set(path, { mtimeMs, since: performance.now() });
  return false;
}

/** mkdir, or false when the directory is already there. */
async function made(path: string): Promise<boolean> {
  return mkdir(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
}

export default defineTarget({
  description:
    "mkdir lock with an owner file; a lock whose mtime stayed unchanged for the TTL on the contender's monotonic clock is taken over; owner-checked release",
  storeKey: (env) => ({ path: lockDir(env).name, owner: OWNER, staleMs: env.ttlMs }),
  async acquire(env) {
    const { path } = lockDir(env);
    if (!(await made(path))) {
      const seen = await stat(path).catch(() => undefined);
      if (!seen || !unchangedFor(path, seen.mtimeMs, env.ttlMs)) return null;
      await rm(path, { recursive: true, force: true });
      if (!(await made(path))) return null;
    }
    const token = newToken(env);
    await writeFile(ownerFile(env), token);
    await env.seam('acquire:after-set');
    return { token };
  },
  async release(env, lease) {
    const owner = await readFile(ownerFile(env), 'utf8').catch(() => null);
    if (owner !== lease.token) return false;
    await env.seam('release:before-delete');
    await rm(lockDir(env).path, { recursive: true, force: true });
    return true;
  },
  async extend(env, lease) {
    const owner = await readFile(ownerFile(env), 'utf8').catch(() => null);
    if (owner !== lease.token) return false;
    const now = new Date();
    await utimes(lockDir(env).path, now, now);
    return true;
  },
});
