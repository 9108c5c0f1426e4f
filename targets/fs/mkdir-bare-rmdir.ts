// BAD for V310 on --store fs: mkdir-lock.ts with its release's owner check removed: a bare `rm -r <key>.lock` removes whoever's lock is there.
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
  description: 'mkdir lock with an owner file; stale locks taken over; release is a bare rm -r of the lock directory',
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
  async release(env) {
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
