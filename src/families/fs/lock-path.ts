/**
 * Where a file lock lives: the target's location (a path string, or a FileLock) resolved under the
 * store's directory. A path outside it is refused: the harness reads and the holders' boundaries
 * cover only the scratch directory.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { FileLock, StoreLocation } from '../../../targets/contract.ts';
import { isFileLock, isLeaseRow } from '../../stores/store-location.ts';

/** A location as a file lock: a string is a path; a hash field or a lease row is none. */
export function asFileLock(location: StoreLocation): FileLock | undefined {
  if (typeof location === 'string') return { path: location };
  return isFileLock(location) ? location : undefined;
}

/** Why the fs store cannot read `location`, or undefined when it can. */
export function unreadableFileLock(location: StoreLocation): string | undefined {
  if (asFileLock(location)) return undefined;
  const what = isLeaseRow(location) ? `a Postgres lease row (${location.table})` : 'a Redis hash field';
  return `storeKey(env) names ${what}, but the store is a directory: return the lock's path, e.g. { path: env.key + '.lock', staleMs: env.ttlMs }`;
}

/** The lock's absolute path under `dir`; throws when the target named a path outside it. */
export function lockPathIn(dir: string, lock: FileLock): string {
  const path = resolve(dir, lock.path);
  const inside = relative(dir, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(
      `storeKey(env) names ${lock.path}, which is not under the store's directory ${dir}: build lock paths under env.dir (join(env.dir, env.key + '.lock'))`,
    );
  }
  return path;
}
