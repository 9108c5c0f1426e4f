/**
 * The harness's own read of a file lock (the probe oracles judge with, as PTTL is on Redis): lstat
 * of the lock's path (exists, file or directory, mtime) and its content (a file's, or a directory
 * lock's owner file), read by this process, never through a holder. A file has no store-side
 * expiry: PTTL -1, unless the target declared the library's stale time, when the lease left is
 * mtime + staleMs - this machine's wall clock (the kernel's, which also stamped the mtime). A lease
 * file's JSON record, when declared, gives the value (its owner field) and the expiry it carries
 * (ms since the epoch or ISO 8601); a blank owner or expiry there is the app's "free"
 * (../lease-fields.ts). A lock declared `flock: true` is a kernel lock on the file instead: held while
 * /proc/locks lists one on the file's inode (kernel-locks.ts), free while the file sits there unlocked.
 */
import { lstat, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileLock } from '../../../targets/contract.ts';
import type { LockState } from '../family.ts';
import { recordLease } from '../lease-fields.ts';
import { kernelLocksOn } from './kernel-locks.ts';
import { lockPathIn } from './lock-path.ts';

/** What the harness read at a file lock, beyond what every family reports. */
export interface FileLockState extends LockState {
  /** What is at the path: a file, a directory, something else (a symlink), or nothing. */
  kind: 'file' | 'dir' | 'other' | 'none';
  /** The path's mtime (epoch ms), or null when nothing is there. */
  mtimeMs: number | null;
  /** The harness's own clock's age of that mtime (ms), or null. */
  ageMs: number | null;
  /** The path's inode (null when nothing is there): whose call made it, by the inode its call left. */
  ino: number | null;
  /** A declared lease record: the file's whole content as read (its value is the owner field). */
  content?: string | null;
}

export async function readFileLock(dir: string, lock: FileLock): Promise<FileLockState> {
  const path = lockPathIn(dir, lock);
  const where = whereOf(lock);
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!stat)
    return { where, exists: false, value: null, pttlMs: -2, kind: 'none', mtimeMs: null, ageMs: null, ino: null };
  const kind = stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
  if (lock.flock) return readFlock(path, where, kind, stat);
  const contentOf = kind === 'file' ? path : kind === 'dir' && lock.owner ? join(path, lock.owner) : undefined;
  const content = contentOf === undefined ? null : await readFile(contentOf, 'utf8').catch(() => null);
  const now = Date.now();
  const record = lock.record && content !== null ? recordOf(content) : undefined;
  // A record's blank owner or expiry is the app's "free"; an expiry that is no instant, unreadable.
  const lease = lock.record && record ? recordLease(record, lock.record, lock.path) : undefined;
  const value = lock.record ? (lease?.value ?? null) : content;
  const pttlMs = lease?.free
    ? -2
    : lease?.atMs !== undefined
      ? Math.max(0, Math.floor(lease.atMs - now))
      : lock.staleMs === undefined || lease?.unreadable
        ? -1
        : Math.max(0, Math.floor(stat.mtimeMs + lock.staleMs - now));
  return {
    where,
    exists: !lease?.free,
    value,
    pttlMs,
    kind,
    mtimeMs: stat.mtimeMs,
    ageMs: Math.round(now - stat.mtimeMs),
    ino: stat.ino,
    ...(lock.record ? { content } : {}),
    ...(lease?.free ? { free: lease.free } : {}),
    ...(lease?.unreadable ? { unreadable: lease.unreadable } : {}),
  };
}

/**
 * A flock lock's state: held while the kernel lists a granted lock on the inode now at the path (a
 * lock on a file since removed or replaced holds nothing here). No expiry: the kernel drops it when
 * the holder's open file closes or its process dies (PTTL -1 while held).
 */
async function readFlock(
  path: string,
  where: string,
  kind: FileLockState['kind'],
  file: { mtimeMs: number; ino: number },
): Promise<FileLockState> {
  const now = Date.now();
  const kernel = await kernelLocksOn(path);
  const locks = kernel?.ino === file.ino ? kernel.locks : [];
  const content = kind === 'file' ? await readFile(path, 'utf8').catch(() => null) : null;
  const held = locks.length > 0;
  return {
    where,
    exists: held,
    value: held ? content : null,
    pttlMs: held ? -1 : -2,
    kind,
    mtimeMs: file.mtimeMs,
    ageMs: Math.round(now - file.mtimeMs),
    ino: file.ino,
    kernelLocks: locks,
    ...(held ? {} : { free: `the file is there (inode ${file.ino}) but /proc/locks lists no lock on it` }),
  };
}

/** A lease file's JSON record, or undefined when it is not one (empty, torn, not an object). */
function recordOf(content: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(content);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** "stat k.lock + owner (live until mtime + 300 ms, the target's stale rule)". */
export function whereOf(lock: FileLock): string {
  if (lock.flock)
    return `/proc/locks on the inode at ${lock.path} (a flock: held while the kernel lists a lock on the file; no expiry, the kernel drops it with its holder's open file)`;
  const owner = lock.owner ? ` + ${lock.owner}` : lock.record ? `, record ${lock.record.owner}` : '';
  const expiry = lock.record?.expiresAt
    ? `live until its ${lock.record.expiresAt}`
    : lock.staleMs === undefined
      ? "no expiry: a file lock goes stale only by its library's rule, and the target declares none"
      : `live until mtime + ${lock.staleMs} ms, the target's stale rule, on this machine's clock`;
  return `stat ${lock.path}${owner} (${expiry})`;
}

/**
 * The store's clock: the time the kernel stamps on a file it writes (a probe in the run dir, beside
 * the locks' directory), the clock a file lock's mtime is read against.
 */
export async function kernelClockMs(dir: string): Promise<number> {
  const probe = join(dirname(dir), 'clock-probe');
  await writeFile(probe, '');
  return (await stat(probe)).mtimeMs;
}
