// GOOD for V310 on --store fs (explored): lease-file.ts with its renewal and release fenced by the file they checked. Each opens the lease file once and reads, checks and writes through that open file, so its write lands only on the file it checked: a successor's takeover removes that file first, and a late write lands on the removed one. A renewal re-checks after its write that the path still names that file (else the lease was lost); a release expires its own record in place (expiresAt 0: the next contender takes it over at once) instead of removing whatever the path names, and waits for a renewal in flight first.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { defineTarget } from '../contract.ts';
import { acquireLease, leaseFile, leaseLocation, parseRecord, recordText, type LeaseRecord } from './lease-record.ts';

/** Each holder's renewal in flight, by its token: a release waits for it. */
const renewals = new Map<string, Promise<boolean>>();

/** Open the lease file and `act` on it when its record is `token`'s: false when there is none, or it is another's. */
async function throughOwnFile(
  path: string,
  token: unknown,
  act: (file: FileHandle, record: LeaseRecord) => Promise<boolean>,
): Promise<boolean> {
  const file = await open(path, 'r+').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!file) return false;
  try {
    const record = parseRecord(await file.readFile('utf8'));
    if (!record || record.ownerId !== token) return false;
    return await act(file, record);
  } finally {
    await file.close();
  }
}

export default defineTarget({
  description:
    'owner-record lease file ({ ownerId, expiresAt }, created wx); renewal and release read, check and write through the one open file they checked; release expires its own record and waits for a renewal in flight',
  storeKey: leaseLocation,
  acquire: acquireLease,
  async extend(env, lease, ttlMs) {
    const { path } = leaseFile(env);
    const token = String(lease.token);
    const renewal = throughOwnFile(path, token, async (file, record) => {
      if (record.expiresAt <= Date.now()) return false;
      await file.write(recordText({ ownerId: record.ownerId, expiresAt: Date.now() + ttlMs }), 0);
      // The write landed on the file checked; the lease is renewed only if the path still names that file.
      const [written, named] = await Promise.all([file.stat(), stat(path).catch(() => null)]);
      return named !== null && named.ino === written.ino && named.dev === written.dev;
    });
    renewals.set(token, renewal);
    try {
      return await renewal;
    } finally {
      if (renewals.get(token) === renewal) renewals.delete(token);
    }
  },
  async release(env, lease) {
    const token = String(lease.token);
    await renewals.get(token)?.catch(() => false);
    return throughOwnFile(leaseFile(env).path, token, async (file, record) => {
      await file.write(recordText({ ownerId: record.ownerId, expiresAt: 0 }), 0);
      return true;
    });
  },
});
