/**
 * The lock on every master of a Redlock topology, read at one instant by the harness (each node
 * straight, not through any holder's link): which token each node holds and with how long left.
 * Pure helpers say which holder held a majority in a reading; the reads themselves are the
 * scenario's (observeLock reads every node of a topology).
 */
import type { Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { NodeLock } from '../src/judging/failover-loss.ts';

/** The lock on every master at one read: harness ms it was sent, and each node's key. */
export interface QuorumReading {
  label: string;
  sentAt: number;
  nodes: NodeLock[];
}

/** One of A's writes after B's first, and the masters as read just before the harness accepted it. */
export interface QuorumAtWrite {
  seq: number;
  reading: QuorumReading;
}

export async function readQuorum(s: Scenario, label: string): Promise<QuorumReading> {
  const seen = await s.observeLock(label);
  const nodes = (seen as { nodes?: NodeLock[] }).nodes ?? [];
  return {
    label,
    sentAt: seen.sentAt,
    nodes: nodes.map(({ node, role, offset, exists, value, pttlMs }) => ({
      node,
      role,
      offset,
      exists,
      value,
      pttlMs,
    })),
  };
}

/** Wait until no master holds the lock's key (a release answered by a majority may still be on its way to the rest). */
export function untilNoMasterHoldsIt(s: Scenario, timeoutMs: number, everyMs: number): Promise<boolean> {
  return s.waitUntil(
    async () => ((await s.readLock()) as { nodes?: NodeLock[] }).nodes?.every((n) => !n.exists) ?? false,
    timeoutMs,
    everyMs,
  );
}

/** From now on, the masters are read before each of `writer`'s writes is accepted; the list fills as they come. */
export function readQuorumAtWrites(s: Scenario, writer: Holder): QuorumAtWrite[] {
  return writer.readBeforeEffects((name) =>
    readQuorum(s, `every master as ${writer.id}'s write "${name}" arrived, before it was accepted`),
  );
}

/** The nodes holding `token` with time left (a key with no expiry counts as live). */
export function nodesHolding(reading: QuorumReading, token: string | null): NodeLock[] {
  if (token === null) return [];
  return reading.nodes.filter((n) => n.exists && n.value === token && (n.pttlMs > 0 || n.pttlMs === -1));
}

/** The token a majority of the nodes hold in this reading, or null when none does. */
export function majorityToken(reading: QuorumReading, quorum: number): string | null {
  const counts = new Map<string, number>();
  for (const n of reading.nodes) if (n.exists && n.value !== null) counts.set(n.value, (counts.get(n.value) ?? 0) + 1);
  for (const [token, count] of counts) if (count >= quorum) return token;
  return null;
}

/** Harness ms until which `token` surely lives on at least `count` nodes, by their PTTLs in this reading (null: never). */
export function liveOnUntil(reading: QuorumReading, token: string | null, count: number): number | null {
  const ends = nodesHolding(reading, token)
    .map((n) => (n.pttlMs === -1 ? Infinity : reading.sentAt + n.pttlMs))
    .sort((x, y) => y - x);
  return ends.length >= count ? ends[count - 1]! : null;
}

/** The nodes of a reading in words: "m1 abc… 1890 ms, m2 no key, m3 down". */
export function quorumInWords(reading: QuorumReading, names: Record<string, string> = {}): string {
  return reading.nodes
    .map((n) =>
      n.role === 'down'
        ? `${n.node} down`
        : n.exists
          ? `${n.node} ${n.value !== null && names[n.value] ? names[n.value] : JSON.stringify(n.value)} (${n.pttlMs} ms left)`
          : `${n.node} no key`,
    )
    .join(', ');
}
