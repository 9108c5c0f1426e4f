// GOOD for V310 and V311 on --store fs, BAD for V317 there: `mkdir <key>.lock` with an owner file inside; a lock whose mtime is older than the stale time (the TTL) on the contender's wall clock is taken over (a contender whose clock runs ahead takes a live lock); release and extend check the owner file first.
import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { defineTarget } from '../contract.ts';
import { lockDir, newToken, OWNER, ownerFile } from './lock-dir.ts';

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
    'mkdir lock with an owner file; stale (mtime older than the TTL) locks taken over; owner-checked release',
  storeKey: (env) => ({ path: lockDir(env).name, owner: OWNER, staleMs: env.ttlMs }),
  async acquire(env) {
    const { path } = lockDir(env);
    if (!(await made(path))) {
      const seen = await stat(path).catch(() => undefined);
      if (!seen || seen.mtimeMs > Date.now() - env.ttlMs) return null;
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
