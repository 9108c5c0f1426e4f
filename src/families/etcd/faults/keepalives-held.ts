/**
 * Fault: a holder's keepalives held at its wire proxy until its lease ends on the server, while
 * the holder runs on (its other RPCs still flow: a held HTTP/2 frame stops only its own stream),
 * as a network that drops one stream or a client whose keepalive loop stalled would leave it. What
 * npm etcd3 does then: its lease's `lost` fires only after 2 × TTL without an answer, and its
 * `Lock` never surfaces it. The etcd family's fault (StoreFamily.faults); it lands itself
 * (`land`, at the moment the oracle names: --fault keepalives-held) by `holdKeepalivesUntilLeaseEnds`,
 * which says why it did not land where the holder sent no keepalive. The wait is bounded by
 * 3 × --ttl + 5 s: a lease kept no longer than --ttl ends well inside it.
 */
import type { LandableFault } from '../../fault-landing.ts';
import type { StoreView } from '../../family.ts';
import type { WireProxy } from '../../../wire/proxy.ts';
import { ETCD_RENEWAL } from '../commands.ts';
import type { EtcdLockFields } from '../view.ts';

export const KEEPALIVES_HELD: LandableFault = {
  name: 'keepalives-held',
  rank: 85,
  words: 'its keepalives held until its lease ended',
  doc: "A's lease keepalives (Lease/LeaseKeepAlive) held at its wire proxy until the member ended its lease, A and its other RPCs running on; then delivered",
  at: ['command', 'effect', 'seam'],
  topologies: ['single'],
  stores: ['etcd'],
  inWords: (_boundary, at) =>
    `A's keepalives were held at its wire proxy from ${at} until its lease ended on the etcd member, while A ran on`,
  async land({ holder, wire, view, store, lockLocation, ttlMs, faults }) {
    if (store.kind !== 'etcd' || !wire || typeof lockLocation !== 'string')
      return {
        reached: false,
        why: `keepalives-held holds etcd lease keepalives at the holder's wire proxy: a ${store.kind} store has none (run it with --store etcd)`,
      };
    const record = faults.apply('wire', holder.id, 'hold Lease/LeaseKeepAlive until the lease ends');
    const held = await holdKeepalivesUntilLeaseEnds(wire, view(), lockLocation, 3 * ttlMs + 5000);
    faults.lift(record, held.landed ? { lease: held.lease, heldMs: Math.round(held.heldMs) } : { why: held.why });
    if (!held.landed) return { reached: false, why: held.why };
    return {
      reached: true,
      took: held.keepalivesHeld > 0,
      words: `A's keepalives (${held.keepalivesHeld}) were held at its wire proxy for ${held.heldMs.toFixed(0)} ms until its lease ${held.lease} ended on the etcd member, while A ran on`,
      facts: {
        action: 'hold Lease/LeaseKeepAlive until the lease ended',
        lease: held.lease,
        heldMs: Math.round(held.heldMs),
        keepalivesHeld: held.keepalivesHeld,
      },
      lift: () => undefined,
    };
  },
};

export type KeepalivesHeld =
  { landed: true; lease: string; heldMs: number; keepalivesHeld: number } | { landed: false; why: string };

/**
 * Hold A's keepalives from now until the lease holding `location` is gone (the view, every 50 ms),
 * then let them go; `deadlineMs` (ms from now) bounds the wait. Not landed: no lease there, or no
 * keepalive sent (a client that does not keep its lease alive), or the lease outlived the deadline.
 */
export async function holdKeepalivesUntilLeaseEnds(
  proxy: WireProxy,
  view: StoreView,
  location: string,
  deadlineMs: number,
): Promise<KeepalivesHeld> {
  const before = (await view.lock(location)) as Awaited<ReturnType<StoreView['lock']>> & EtcdLockFields;
  if (!before.exists || !before.lease || before.lease === '0')
    return { landed: false, why: `${location} holds no key on a lease: no keepalive to hold` };
  const hold = proxy.hold(ETCD_RENEWAL);
  hold.reached.catch(() => undefined); // never reached: said below as not landed
  const began = performance.now();
  try {
    while (performance.now() - began < deadlineMs) {
      const now = (await view.lock(location)) as Awaited<ReturnType<StoreView['lock']>> & EtcdLockFields;
      if (!now.exists || now.lease !== before.lease) {
        if (!hold.holding)
          return {
            landed: false,
            why: `A sent no keepalive while its lease ${before.lease} ran out: nothing was held`,
          };
        return {
          landed: true,
          lease: before.lease,
          heldMs: performance.now() - began,
          keepalivesHeld: hold.record.commandsAffected,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { landed: false, why: `lease ${before.lease} still lived ${deadlineMs} ms into the hold` };
  } finally {
    hold.release();
  }
}
