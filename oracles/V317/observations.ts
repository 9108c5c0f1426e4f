/** What V317's play records for its judge: each leg's clocks as asked and as measured, A's lease, and B's two tries. */
import type { LeaseSummary } from '../../src/holder/holder-protocol.ts';
import type { Variant } from './legs.ts';

export interface V317Observations {
  /** An explored point (--explore): A's clock step, in words, and whether it landed; null on a plain run. */
  point: { inWords: string; stepLanded: boolean; stepMissed: string } | null;
  legs: LegObservation[];
  /** On a cluster store, its one leg (then `legs` is empty). */
  cluster?: ClusterObservation;
}

export interface LegObservation {
  variant: Variant;
  /** A's and B's offsets as asked. */
  appOffsetsMs: [number, number];
  storeOffsetMs: number;
  /** The store's wall clock minus the real one, read with the store's own clock query (ms). */
  measuredStoreSkewMs: number;
  /** The holders' offsets as they reported them after B's last attempt. */
  appOffsetsAfterMs: number[];
  aLease: LeaseSummary | null;
  /** Harness time A's acquire began (its lease was written no earlier) and returned. */
  aStartedAt: number;
  aAt: number;
  /** On a file store, B's first look right after A acquired, when it was denied (a grant is `early`). */
  look?: { at: number; answeredAt: number; lease: LeaseSummary | null };
  /** B's try halfway (on a file store, or its first look when that took the lock): sent at `at`, answered at `answeredAt`; null when A had no lease. */
  early: { at: number; answeredAt: number; lease: LeaseSummary | null } | null;
  /** B's try --margin after the lease lapsed; null when B took over early or A had no lease. */
  late: { at: number; lease: LeaseSummary | null } | null;
}

/** On a cluster of the target's own nodes (--store cluster): one leg, the key's home's clocks skewed. */
export interface ClusterObservation {
  variant: ClusterVariant;
  /**
   * An explored point (--explore): the node whose wall clock was stepped at a message of A's lock
   * path, by how much, and whether it landed; absent on a plain run (the home restarted skewed).
   */
  point?: { inWords: string; node: string; wallStepMs: number; landed: boolean; missed: string };
  /** The key's home, A's node and B's node. */
  home: string | null;
  aNode: string;
  bNode: string;
  /** Why the harness could not read the lock through the nodes (no inspect member), or undefined. */
  unreadable?: string;
  /** Each node's clocks as asked (ms off the machine's): the home's wall and monotonic clocks both. */
  asked: Record<string, { wallMs: number; monotonicMs: number }>;
  /** An explored point: each node's clocks as asked after its step (`measuredAfter` is read against these). */
  askedAfter?: Record<string, { wallMs: number; monotonicMs: number }>;
  /** Each node's clocks as read inside it before A's first lock and after A's last try. */
  measuredBefore: Record<string, { wallMs: number; monotonicMs: number; roundTripMs: number }>;
  measuredAfter: Record<string, { wallMs: number; monotonicMs: number; roundTripMs: number }>;
  /** A's lock on the free key (A's node asks the home for a delegation), then released. */
  aFirst: ClusterTry;
  /** B's lock --margin after A's delegation lapsed by the home's clock; null when A had no lock. */
  bLate: ClusterTry | null;
  /** A's lock again while B holds (A's node still sees its delegation live, or asks the home); null when B had none. */
  aAgain: ClusterTry | null;
}

export type ClusterVariant = 'home-ahead' | 'home-behind';

export interface ClusterTry {
  at: number;
  answeredAt: number;
  /** The lock's token when granted, null when denied. */
  token: string | null;
  /** The home's report right after the answer: whether it has a live grant, its token, its ms left. */
  homeAfter: { exists: boolean; value: string | null; pttlMs: number } | null;
}
