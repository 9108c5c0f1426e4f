/**
 * The fenced renewal of the owner-record lease file (lease-record.ts), shared by lease-file-fenced.ts
 * (V310) and lease-leader.ts (V315): it opens the lease file once and reads, checks and writes through
 * that open file, so its write lands only on the file it checked. A successor's takeover removes that
 * file first, so a late write (a holder paused between its check and its write) lands on the removed
 * one instead of over the successor's record; after its write it checks that the path still names
 * that file, else the lease was lost. Not a target itself.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { parseRecord, recordText, type LeaseRecord } from './lease-record.ts';

/** Which records are this holder's (the owner check: its ownerId is the holder's token). */
export type Mine = (record: LeaseRecord) => boolean;

/** Open the lease file and `act` on it when its record is `mine`: false when there is none, or it is another's. */
export async function throughOwnFile(
  path: string,
  mine: Mine,
  act: (file: FileHandle, record: LeaseRecord) => Promise<boolean>,
): Promise<boolean> {
  const file = await open(path, 'r+').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!file) return false;
  try {
    const record = parseRecord(await file.readFile('utf8'));
    if (!record || !mine(record)) return false;
    return await act(file, record);
  } finally {
    await file.close();
  }
}

/** Extend the holder's unexpired lease at `path` by `ttlMs`: true only when the renewed file is still the lease. */
export function renewOwnLease(path: string, mine: Mine, ttlMs: number): Promise<boolean> {
  return throughOwnFile(path, mine, async (file, record) => {
    if (record.expiresAt <= Date.now()) return false;
    await file.write(recordText({ ownerId: record.ownerId, expiresAt: Date.now() + ttlMs }), 0);
    // The write landed on the file checked; the lease is renewed only if the path still names that file.
    const [written, named] = await Promise.all([file.stat(), stat(path).catch(() => null)]);
    return named !== null && named.ino === written.ino && named.dev === written.dev;
  });
}
