/**
 * Pure judgements over a failover (--topology replicated|sentinel) the oracles share: the lock as
 * read on each node just before the master died, whether it lived on the master alone (so the
 * failover lost it), in words for the evidence.
 */

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
