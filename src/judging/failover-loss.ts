/**
 * Pure judgements over a failover (--topology replicated|sentinel) the oracles share: the lock as
 * read on each node just before the master died, whether it lived on the master alone (so the
 * failover lost it), in words for the evidence.
 */
import type { Check } from '../core/judgement.ts';
import type { EffectRecord } from '../core/resource.ts';

/** The lock on one node of a topology, as the harness read it there (role and replication offset too). */
export interface NodeLock {
  node: string;
  role: string;
  offset: number | null;
  exists: boolean;
  value: string | null;
  pttlMs: number;
}

export function nodesInWords(nodes: readonly NodeLock[]): string {
  return nodes
    .map(
      (n) =>
        `${n.node} (${n.role}${n.offset !== null ? `, offset ${n.offset}` : ''}): ${n.exists ? `key ${JSON.stringify(n.value)}, PTTL ${n.pttlMs} ms` : 'no key'}`,
    )
    .join('; ');
}

/** The lock was on the killed master and on no replica, with replication bytes really kept from them. */
export function lostWithMaster(nodes: readonly NodeLock[], killed: string, heldBytes: number): boolean {
  const replicas = nodes.filter((n) => n.node !== killed);
  const onMaster = nodes.find((n) => n.node === killed)?.exists ?? false;
  return heldBytes > 0 && replicas.length > 0 && onMaster && !replicas.some((n) => n.exists);
}

/** What a failover did to the lock, as play recorded it (scenarios/failover.ts failoverOnceLocked). */
export interface FailoverLoss {
  /** The lock on every data node just before the master was killed. */
  nodes: NodeLock[];
  /** Replication bytes kept from the replicas (A's SET among them). */
  heldBytes: number;
  killed: string;
  promoted: string;
  how: string;
  /** Harness ms the promoted node answered as master (absent in runs recorded before it was kept). */
  promotedAt?: number;
  /** Harness ms until which A's lease surely lived by the master's PTTL (null: no key there). */
  aLeaseUntil: number | null;
}

export const LOST_IN_FAILOVER = "A's lock was lost in the failover";

/** The failover's loss landed: A's lock lived on the master alone when it was SIGKILLed, and a replica was promoted. */
export function lostInFailover(f: FailoverLoss): Check {
  const lost = lostWithMaster(f.nodes, f.killed, f.heldBytes);
  return {
    name: LOST_IN_FAILOVER,
    held: lost,
    detail:
      `${f.heldBytes} replication byte(s) kept from the replicas; at the failover: ${nodesInWords(f.nodes)}; ${f.promoted} promoted (${f.how})` +
      (lost ? '' : ": A's lock was not on the master alone, so the failover did not lose it"),
  };
}

/**
 * What the fences of A's writes after B's first and of B's first show after a failover: the token
 * handed out again by the promoted master, or one not older; undefined when either carried none.
 */
export function fencesAfterFailover(
  bFirst: EffectRecord | undefined,
  aAfter: readonly EffectRecord[],
): string | undefined {
  const aFence = aAfter.find((e) => e.fence !== undefined)?.fence;
  if (aFence === undefined || bFirst?.fence === undefined) return undefined;
  return aFence === bFirst.fence
    ? `The fencing token repeated: B's first write carried fence ${bFirst.fence}, and so did A's after it — the INCR that gave A its token was lost with the master, so the promoted one handed B the same token, and a resource checking fences cannot tell them apart.`
    : `A's writes carried fence ${aFence} and B's first fence ${bFirst.fence}: the resource took A's as not older.`;
}
