/**
 * Where a file lock lives: the target's location (a path string, or a FileLock) taken in relative to
 * the store's directory and normalised (`./`, `..` inside it, a trailing slash, an absolute path
 * under it all name one lock), the form the holders' reported calls use, so the probe, the
 * boundaries, explore, held calls and the evidence all compare one string. A path outside the
 * directory is refused: the harness reads and the holders' boundaries cover only the scratch
 * directory.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { FileLock, StoreLocation } from '../../../targets/contract.ts';
import { UsageError } from '../../core/errors.ts';
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

/** `path` (absolute, or relative to `base`) relative to `base`, normalised; undefined when it is `base` itself or outside it. */
function inside(base: string, path: string): string | undefined {
  const rel = relative(base, resolve(base, path));
  return rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel) ? undefined : rel;
}

/** The lock's path relative to `dir`, normalised; a usage error when it is not under `dir`. */
function lockPathUnder(dir: string, path: string): string {
  const rel = inside(dir, path);
  if (rel === undefined)
    throw new UsageError(
      `storeKey(env) names ${path}, which is not under the store's directory ${dir} (env.dir): build lock paths under env.dir, e.g. env.key + '.lock' (relative to env.dir) or join(env.dir!, env.key + '.lock')`,
    );
  return rel;
}

/**
 * The target's location as the harness names it on a file store under `dir`: the lock's path (and a
 * directory lock's owner file, inside it) relative to `dir` and normalised. Any other location is
 * returned as it is (unreadableFileLock says why the store cannot read it).
 */
export function fileLockIn(dir: string, location: StoreLocation): StoreLocation {
  const lock = asFileLock(location);
  if (!lock) return location;
  const path = lockPathUnder(dir, lock.path);
  let owner = lock.owner;
  if (owner !== undefined) {
    owner = inside(join(dir, path), owner);
    if (owner === undefined)
      throw new UsageError(
        `storeKey(env) names ${lock.owner} as the owner file of the lock ${lock.path}, which is not a file inside that directory: name the file inside the lock's directory, relative to it, e.g. owner: 'owner'`,
      );
  }
  return typeof location === 'string' ? path : { ...lock, path, ...(owner !== undefined ? { owner } : {}) };
}

/** The lock's absolute path under `dir`; a usage error when the target named a path outside it. */
export function lockPathIn(dir: string, lock: FileLock): string {
  return join(dir, lockPathUnder(dir, lock.path));
}

/** Whether a call's path (relative to the store's directory; "a -> b" for a rename) is the lock's path or inside it. */
export function onLockPath(path: string, lockPath: string): boolean {
  return path.split(' -> ').some((p) => p === lockPath || p.startsWith(`${lockPath}/`));
}
