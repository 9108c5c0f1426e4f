/** What V317's play records for its judge: each leg's clocks as asked and as measured, A's lease, and B's two tries. */
import type { LeaseSummary } from '../../src/holder/holder-protocol.ts';
import type { Variant } from './legs.ts';

export interface V317Observations {
  /** An explored point (--explore): A's clock step, in words, and whether it landed; null on a plain run. */
  point: { inWords: string; stepLanded: boolean; stepMissed: string } | null;
  legs: LegObservation[];
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
