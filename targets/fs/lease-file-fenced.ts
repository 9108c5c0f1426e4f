// GOOD for V310 on --store fs (explored): lease-file.ts with its renewal and release fenced by the file they checked. Each opens the lease file once and reads, checks and writes through that open file, so its write lands only on the file it checked: a successor's takeover removes that file first, and a late write lands on the removed one. A renewal re-checks after its write that the path still names that file (else the lease was lost); a release expires its own record in place (expiresAt 0: the next contender takes it over at once) instead of removing whatever the path names, and waits for a renewal in flight first.
import { defineTarget } from '../contract.ts';
import { acquireLease, leaseFile, leaseLocation, recordText, type LeaseRecord } from './lease-record.ts';
import { renewOwnLease, throughOwnFile } from './lease-renewal.ts';

/** The owner check: renewal and release act only on a record whose ownerId is the holder's token. */
const mine = (token: string) => (record: LeaseRecord) => record.ownerId === token;

/** Each holder's renewal in flight, by its token: a release waits for it. */
const renewals = new Map<string, Promise<boolean>>();

export default defineTarget({
  description:
    'owner-record lease file ({ ownerId, expiresAt }, created wx); renewal and release read, check and write through the one open file they checked; release expires its own record and waits for a renewal in flight',
  storeKey: leaseLocation,
  acquire: acquireLease,
  async extend(env, lease, ttlMs) {
    const { path } = leaseFile(env);
    const token = String(lease.token);
    const renewal = renewOwnLease(path, mine(token), ttlMs);
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
    return throughOwnFile(leaseFile(env).path, mine(token), async (file, record) => {
      await file.write(recordText({ ownerId: record.ownerId, expiresAt: 0 }), 0);
      return true;
    });
  },
});
