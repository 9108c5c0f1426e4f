// BAD for V310 on --store fs (explored): the owner-record lease file (lease-record.ts) whose renewal and release act by pathname after their check: a renewal reads the record, checks it is its own and unexpired, then writes the file; a release reads, compares, then removes the file. A write held after its check lands over a successor's record, an rm held after its compare removes it, and a renewal in flight across the release re-creates the lock.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { defineTarget } from '../contract.ts';
import { acquireLease, leaseFile, leaseLocation, parseRecord, recordText } from './lease-record.ts';

export default defineTarget({
  description:
    'owner-record lease file ({ ownerId, expiresAt }, created wx); renewal: read, check, writeFile by path; release: read, compare, rm by path',
  storeKey: leaseLocation,
  acquire: acquireLease,
  async extend(env, lease, ttlMs) {
    const { path } = leaseFile(env);
    const record = parseRecord(await readFile(path, 'utf8').catch(() => ''));
    if (!record || record.ownerId !== lease.token || record.expiresAt <= Date.now()) return false;
    await writeFile(path, recordText({ ownerId: record.ownerId, expiresAt: Date.now() + ttlMs }));
    return true;
  },
  async release(env, lease) {
    const { path } = leaseFile(env);
    const record = parseRecord(await readFile(path, 'utf8').catch(() => ''));
    if (!record || record.ownerId !== lease.token) return false;
    await rm(path, { force: true });
    return true;
  },
});
