/**
 * Fault: the lock's lease revoked on the server, as an operator's `etcdctl lease revoke` or a
 * session expiry would end it: every key on the lease goes at once, while the holder runs on and
 * still believes it holds the lock (its keepalives now answer TTL −1, which npm etcd3 reports only
 * as the lease's `lost` event). The etcd family's fault (StoreFamily.faults); it lands itself
 * (`land`, at the moment the oracle names: --fault lease-revoked) by `revokeHolderLease`: the lease revoked is the
 * one the member granted the holder last, read in the LeaseGrant reply on the holder's own
 * connection at its wire proxy (src/wire/store-grants.ts), with no help from its client; it says
 * why it does not apply where the holder was granted no lease, or the lock's key is not on it.
 */
import type { WireProxy } from '../../../wire/proxy.ts';
import type { LandableFault } from '../../fault-landing.ts';
import type { StoreView } from '../../family.ts';
import { EtcdGateway } from '../gateway.ts';
import type { EtcdLockFields } from '../view.ts';

export const LEASE_REVOKED: LandableFault = {
  name: 'lease-revoked',
  rank: 105,
  words: 'its lease revoked on the server',
  doc: "the lease the lock's key is attached to revoked on the etcd member (LeaseRevoke through the member's JSON gateway): the key goes at once while A runs on",
  at: ['command', 'effect', 'seam'],
  topologies: ['single'],
  stores: ['etcd'],
  inWords: (_boundary, at) =>
    `A's lease was revoked on the etcd member at ${at}, its key deleted with it, while A ran on`,
  async land({ holder, wire, view, store, lockLocation, faults }) {
    if (store.kind !== 'etcd' || !wire || typeof lockLocation !== 'string')
      return {
        reached: false,
        why: `lease-revoked revokes an etcd lease, read at the holder's wire proxy: a ${store.kind} store has none (run it with --store etcd)`,
      };
    const revoked = await revokeHolderLease(store.url, wire, view(), lockLocation);
    if (!revoked.landed) return { reached: false, why: revoked.why };
    const action = `LeaseRevoke ${revoked.lease}`;
    faults.lift(faults.apply('store', holder.id, action, { lease: revoked.lease, key: revoked.key }));
    return {
      reached: true,
      took: true,
      words: `A's lease ${revoked.lease} was revoked on the etcd member, its lock key ${revoked.key} deleted with it, while A ran on`,
      facts: { action, lease: revoked.lease, key: revoked.key },
      lift: () => undefined,
    };
  },
};

export type LeaseRevoked =
  { landed: true; lease: string; key: string; after: { exists: boolean } } | { landed: false; why: string };

/** Revoke the lease the holder behind `proxy` was granted last; the reads around it confirm the lock's key was on it and went. */
export async function revokeHolderLease(
  storeUrl: string,
  proxy: WireProxy,
  view: StoreView,
  location: string,
): Promise<LeaseRevoked> {
  const lease = proxy.latestLease();
  if (!lease)
    return {
      landed: false,
      why: `holder ${proxy.holder} was granted no lease (no LeaseGrant answered on its connection): revoking cannot end its lock (lease-revoked does not apply)`,
    };
  const before = (await view.lock(location)) as Awaited<ReturnType<StoreView['lock']>> & EtcdLockFields;
  if (!before.exists || !before.holderKey)
    return { landed: false, why: `nothing holds ${location}: revoking lease ${lease.id} cannot end the lock` };
  if (before.lease !== lease.id)
    return {
      landed: false,
      why: `${before.holderKey} is on lease ${before.lease ?? 'none'}, not on holder ${proxy.holder}'s lease ${lease.id} (lease-revoked does not apply)`,
    };
  await new EtcdGateway(storeUrl).revoke(lease.id);
  const after = await view.lock(location);
  const gone = !after.exists || (after as EtcdLockFields).holderKey !== before.holderKey;
  return gone
    ? { landed: true, lease: lease.id, key: before.holderKey, after: { exists: after.exists } }
    : { landed: false, why: `${before.holderKey} was still there after its lease ${lease.id} was revoked` };
}
