/**
 * A holder's wire proxy where the store has one to offer, and a cluster's nodes where the store is
 * the target's own nodes: what an oracle's stop of A needs, asked for without naming the store.
 * On a cluster a holder's traffic runs on its node's links (the scenario's `links`), not a wire.
 */
import type { ClusterNodes } from '../src/oracle/cluster-nodes.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { WireProxy } from '../src/wire/proxy.ts';

/** `id`'s wire proxy, when `wanted` and the store's traffic goes through one (not a cluster's own nodes). */
export async function wireIfAny(s: Scenario, id: string, wanted: boolean): Promise<WireProxy | undefined> {
  return wanted && !s.family.ownNodes ? s.wire(id) : undefined;
}

/** The cluster's nodes when the store is the target's own nodes (a point on a link is armed there); else undefined. */
export async function targetNodesIfAny(s: Scenario): Promise<ClusterNodes | undefined> {
  return s.family.ownNodes ? s.nodes() : undefined;
}
