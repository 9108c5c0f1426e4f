/**
 * What the fs reference targets share: where a `mkdir` lock lives under the store's directory
 * (env.dir, --store fs), its owner file, and a token naming the holder. Not a target itself.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { TargetEnv } from '../contract.ts';

/** The lock's directory, relative to env.dir (what storeKey declares) and absolute (what the calls use). */
export function lockDir(env: TargetEnv): { name: string; path: string } {
  if (env.dir === undefined) throw new Error('this target keeps its lock in files: run it with --store fs');
  const name = `${env.key}.lock`;
  return { name, path: join(env.dir, name) };
}

/** The file inside the lock's directory that holds its owner's token. */
export const OWNER = 'owner';

export function ownerFile(env: TargetEnv): string {
  return join(lockDir(env).path, OWNER);
}

export function newToken(env: TargetEnv): string {
  return `${env.holder}-${randomUUID()}`;
}
