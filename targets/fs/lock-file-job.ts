/**
 * What the fs job targets share (V312 on --store fs): the lock file `<key>.lock` under env.dir,
 * created with `wx` (exclusive: EEXIST when another holder's file is there) holding the holder's
 * token, the job's writes, and a release that removes the file only while it still holds the token.
 * Not a target itself.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TargetEnv } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';

export function lockFile(env: TargetEnv): { name: string; path: string } {
  if (env.dir === undefined) throw new Error('this target keeps its lock in a file: run it with --store fs');
  const name = `${env.key}.lock`;
  return { name, path: join(env.dir, name) };
}

/** Create the lock file with `wx`; resolves "taken", or "held elsewhere" on EEXIST. */
export async function createLock(env: TargetEnv, token: string): Promise<'taken' | 'held elsewhere'> {
  return writeFile(lockFile(env).path, token, { flag: 'wx' }).then(
    () => 'taken' as const,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return 'held elsewhere' as const;
      throw error;
    },
  );
}

export const newJobToken = (env: TargetEnv) => `${env.holder}-${randomUUID()}`;

/** The protected writes, with the job's work between them. */
export async function work(env: TargetEnv): Promise<void> {
  for (let i = 0; i < steps(env); i++) {
    await env.effect('write', { value: i });
    await sleep(stepMs(env));
  }
}

/** Remove the lock file if it still holds `token`. */
export async function releaseLock(env: TargetEnv, token: string): Promise<void> {
  const { path } = lockFile(env);
  if ((await readFile(path, 'utf8').catch(() => null)) === token) await rm(path, { force: true });
}
