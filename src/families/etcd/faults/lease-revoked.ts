/**
 * Fault: the lock's lease revoked on the server, as an operator's `etcdctl lease revoke` or a
 * session expiry would end it: every key on the lease goes at once, while the holder runs on and
 * still believes it holds the lock (its keepalives now answer TTL −1, which npm etcd3 reports only
 * as the lease's `lost` event). Declared in the fault registry's shape (src/core/fault.ts on the
 * `faults` branch: the lead wires it in); landed by `revokeLockLease`, which says why it does not
 * apply where the lock's key has no lease.
 */
import type { StoreView } from '../../family.ts';
import { EtcdGateway } from '../gateway.ts';
import type { EtcdLockFields } from '../view.ts';

export const LEASE_REVOKED = {
  name: 'lease-revoked',
  rank: 105,
  words: 'its lease revoked on the server',
  doc: "the lease the lock's key is attached to revoked on the etcd member (LeaseRevoke through the member's JSON gateway): the key goes at once while A runs on",
  at: ['command', 'effect', 'seam'],
  topologies: ['single'],
  inWords: (_boundary: unknown, at: string) =>
    `A's lease was revoked on the etcd member at ${at}, its key deleted with it, while A ran on`,
} as const;

export type LeaseRevoked =
  { landed: true; lease: string; key: string; after: { exists: boolean } } | { landed: false; why: string };

/** Revoke the lease of whatever holds `location` now; the read after it confirms the key went. */
export async function revokeLockLease(storeUrl: string, view: StoreView, location: string): Promise<LeaseRevoked> {
  const before = (await view.lock(location)) as Awaited<ReturnType<StoreView['lock']>> & EtcdLockFields;
  if (!before.exists || !before.holderKey)
    return { landed: false, why: `nothing holds ${location}: no lease to revoke` };
  if (!before.lease || before.lease === '0')
    return {
      landed: false,
      why: `${before.holderKey} has no lease (put without one): revoking cannot end it (lease-revoked does not apply)`,
    };
  await new EtcdGateway(storeUrl).revoke(before.lease);
  const after = await view.lock(location);
  const gone = !after.exists || (after as EtcdLockFields).holderKey !== before.holderKey;
  return gone
    ? { landed: true, lease: before.lease, key: before.holderKey, after: { exists: after.exists } }
    : { landed: false, why: `${before.holderKey} was still there after its lease ${before.lease} was revoked` };
}
