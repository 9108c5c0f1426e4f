/**
 * The kernel's own file locks (flock(2), POSIX fcntl and open-file-description locks) on one file,
 * as /proc/locks lists them: the harness's read of a lock that lives in the kernel, not in the
 * file system. A flock-based library (Python's filelock, a Node binding of flock) leaves its lock
 * file behind when it releases or its holder dies; what says "held" is a granted lock on the
 * file's inode, which the kernel drops when the last descriptor of the holder's open file closes
 * (a SIGKILL included). Entries waiting for a lock (`->`) hold nothing and are skipped; leases and
 * delegations are not locks a holder takes.
 */
import { readFile, stat } from 'node:fs/promises';
import type { KernelLock } from '../family.ts';

/** One granted lock of /proc/locks with the file it is on (device major:minor, inode). */
export interface KernelLockEntry extends KernelLock {
  major: number;
  minor: number;
  ino: number;
}

// "3: FLOCK  ADVISORY  WRITE 25558 fe:00:1499222 0 EOF"; a waiter has "-> " after the id.
const ENTRY = /^\d+:\s+(->\s+)?(FLOCK|POSIX|OFDLCK)\s+\S+\s+(READ|WRITE)\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/;

/** The granted locks in /proc/locks' text (waiters, leases and unknown lines left out). */
export function parseProcLocks(text: string): KernelLockEntry[] {
  const entries: KernelLockEntry[] = [];
  for (const line of text.split('\n')) {
    const match = ENTRY.exec(line);
    if (!match || match[1]) continue;
    entries.push({
      type: match[2] as KernelLock['type'],
      mode: match[3] as KernelLock['mode'],
      pid: Number(match[4]),
      major: parseInt(match[5]!, 16),
      minor: parseInt(match[6]!, 16),
      ino: Number(match[7]),
    });
  }
  return entries;
}

/** A stat's st_dev as the kernel prints it in /proc/locks (glibc's major()/minor() of the encoded device). */
export function deviceOf(dev: number): { major: number; minor: number } {
  const encoded = BigInt(dev);
  const major = Number(((encoded >> 8n) & 0xfffn) | ((encoded >> 32n) & ~0xfffn));
  const minor = Number((encoded & 0xffn) | ((encoded >> 12n) & ~0xffn));
  return { major, minor };
}

/** The granted kernel locks on the file at `path` (followed if a symlink); null when nothing is there. */
export async function kernelLocksOn(path: string): Promise<{ ino: number; locks: KernelLock[] } | null> {
  const file = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!file) return null;
  const { major, minor } = deviceOf(file.dev);
  const text = await readFile('/proc/locks', 'utf8').catch((error: Error) => {
    throw new Error(
      `cannot read /proc/locks (${error.message}): a flock lock (storeKey's flock: true) is read there; run on Linux with /proc mounted`,
    );
  });
  const locks = parseProcLocks(text)
    .filter((e) => e.ino === file.ino && e.major === major && e.minor === minor)
    .map(({ type, mode, pid }) => ({ type, mode, pid }));
  return { ino: file.ino, locks };
}
