/**
 * The harness's own read of an etcd lock (never through a holder), by the JSON gateway
 * (gateway.ts). A location is a key (npm etcd3's `Lock`: one key made by a Create == 0 transaction)
 * or a prefix, written with its trailing `/` (etcd's own Lock RPC, Go's `concurrency.Mutex` and
 * `Election`, etcd3's `Election`: each contender puts `<prefix><lease id>`, and the key with the
 * lowest create revision holds; the others are its waiters). The read shows the holding key, its
 * create and mod revision, its lease and that lease's remaining TTL, and the waiters.
 *
 * etcd reports a lease's remaining TTL in whole seconds, rounded down: `pttlMs` is that lower bound
 * (the lease lives at least this long, and less than a second more), −1 for a key with no lease.
 */
import type { LockState } from '../family.ts';
import type { EtcdGateway, EtcdKey } from './gateway.ts';

/** A location ending in `/` is a prefix whose oldest key holds the lock. */
export function isPrefix(location: string): boolean {
  return location.endsWith('/');
}

export function describeEtcd(location: string): string {
  return isPrefix(location)
    ? `range ${location}* (oldest create revision holds) + LeaseTimeToLive`
    : `range ${location} + LeaseTimeToLive`;
}

/** What a read adds beside LockState, for the evidence and the timeline. */
export interface EtcdLockFields {
  /** The key that holds the lock (a prefix's oldest), its revisions and its lease (decimal id; '0': none). */
  holderKey?: string;
  createRevision?: number;
  modRevision?: number;
  lease?: string;
  /** The lease's TTL as granted, in seconds. */
  grantedTtlS?: number;
  /** The other keys under the prefix, oldest first: the waiters, with their create revisions. */
  waiters?: Array<{ key: string; createRevision: number; lease: string }>;
}

export async function readEtcdLock(gateway: EtcdGateway, location: string): Promise<LockState & EtcdLockFields> {
  const where = describeEtcd(location);
  const keys = isPrefix(location) ? await gateway.under(location) : [await gateway.get(location)].filter(present);
  const [holder, ...rest] = keys;
  const waiters = rest.map(({ key, createRevision, lease }) => ({ key, createRevision, lease }));
  if (!holder) return { where, exists: false, value: null, pttlMs: -2, ...(isPrefix(location) ? { waiters } : {}) };
  const facts = {
    where,
    exists: true,
    value: holder.value,
    holderKey: holder.key,
    createRevision: holder.createRevision,
    modRevision: holder.modRevision,
    lease: holder.lease,
    ...(isPrefix(location) ? { waiters } : {}),
  };
  if (holder.lease === '0') return { ...facts, pttlMs: -1 };
  const { ttl, grantedTtl } = await gateway.timeToLive(holder.lease);
  // A lease that ended between the two reads: its key goes with it, so nothing holds the lock now.
  if (ttl < 0) return { where, exists: false, value: null, pttlMs: -2, ...(isPrefix(location) ? { waiters } : {}) };
  return { ...facts, pttlMs: ttl * 1000, grantedTtlS: grantedTtl };
}

function present(key: EtcdKey | null): key is EtcdKey {
  return key !== null;
}
