/**
 * The ZooKeeper session a fault lands on: the one the holder's wire proxy saw the server grant it
 * (its ConnectResponse), or why the fault cannot land (no session yet, or not a ZooKeeper store).
 * Shared by expire-session and hold-pings.
 */
import type { LandingContext, NotApplicable } from '../../fault-landing.ts';
import type { WireProxy } from '../../../wire/proxy.ts';
import type { SessionGrant } from '../../../wire/store-grants.ts';

/** The holder's wire and its latest session, or the fault's not-applicable answer (`does`: what the fault does, for the message). */
export function holderSession(
  fault: string,
  does: string,
  { holder, wire, store }: LandingContext,
): { wire: WireProxy; session: SessionGrant } | NotApplicable {
  const session = wire?.latestSession();
  if (store.kind === 'zookeeper' && wire && session) return { wire, session };
  return {
    reached: false,
    why:
      store.kind === 'zookeeper'
        ? `${fault}: holder ${holder.id} has no ZooKeeper session at its wire proxy yet: land it after the holder connected`
        : `${fault} ${does}: a ${store.kind} store has none (run it with --store zookeeper)`,
  };
}
