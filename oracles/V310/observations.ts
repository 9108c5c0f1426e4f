/**
 * What V310's play records for its judge: A's lease and where the harness found it, whether A was
 * stopped (or held) until B took the lock, A's release, and what the store, B and C said after it,
 * each with the harness time (ms) it was read or answered.
 */
import type { FailoverLoss } from '../../src/judging/failover-loss.ts';
import type { LeaseSummary } from '../../src/holder/holder-protocol.ts';
import type { ExplorePoint } from '../../src/oracle/explore-point.ts';
import type { InferredLocation, ObservedLock } from '../../src/oracle/scenario.ts';
import type { OwnerFact } from '../../src/judging/ownership.ts';

/** The lock as the harness read it, the raw reading (its PTTL, not an extrapolated end: -1 survives JSON). */
export type LockReading = Omit<ObservedLock, 'liveUntil'>;

/** A read of the lock taken while a holder (A, or B) held it, to check the harness looks where the lock lives. */
export interface Located {
  lock: LockReading;
  /** How long after that holder's acquire began the read was answered. */
  lookedAfterMs: number;
  /** How the harness words this read had it found nothing (where it looked, and what that may mean). */
  notFound: string;
}

export interface V310Observations {
  /** --variant failover: the lock on every node at the failover, and the failover (scenarios/failover.ts). */
  failover?: FailoverLoss;
  /** The explored point (--explore) A was held at inside its release, or null on a plain run. */
  point: ExplorePoint | null;
  /** Where the lock lives, inferred from A's own acquire (the target declares no storeKey and nothing was at env.key); null otherwise. */
  inferred: InferredLocation | null;
  /** A's acquire on the empty store: its lease, or null when it was denied. */
  leaseA: LeaseSummary | null;
  /** The lock read right after A acquired (null when A was denied). */
  atA: Located | null;
  /**
   * --variant narrow (and an explored point): whether A got to where it is held inside its release
   * ('held'), its release finished first ('finished', `missed` says why), or neither came within
   * --timeout ('timed-out'). Null for --variant pause.
   */
  hold: {
    outcome: 'held' | 'finished' | 'timed-out';
    missed: string;
    /** Harness ms A was let go (absent in runs recorded before, and where A was never held). */
    liftedAt?: number;
  } | null;
  /** B's acquire while A was stopped or held (null when the run ended before). */
  b: {
    lease: LeaseSummary | null;
    attempts: number;
    /** When B began the attempt that took the lock (its last). */
    startedAt: number;
    /** A was still stopped (or held) when B's acquire returned. */
    aStillStopped: boolean;
  } | null;
  /** The lock read right after B's acquire returned (null when the run ended before). */
  seenB: Located | null;
  /** A's renewal before its release (an explored point on a file store), or null when A made none. */
  aRenewal: ARenewal | null;
  /** The lock read once A's held renewal returned, before its release (null when there was none). */
  afterRenewal: LockReading | null;
  /** The lock read just before A, still stopped or held, was let go to release (B's lease where it matters; null when the run ended before). */
  beforeARelease?: LockReading | null;
  /**
   * A's release after B took the lock: whether it finished within --timeout, its error if it threw,
   * and the harness ms it returned (absent when it did not, and in runs recorded before).
   */
  aRelease: { finished: boolean; error: string | null; endedAt?: number } | null;
  /**
   * Each of A's commands on the lock during its release and how many times the store ran it (its
   * replies seen at A's wire proxy, delivered to A or not: a client that re-sends a command whose
   * reply it lost makes the store run it twice); null without A's wire proxy (the pause variant).
   */
  storeRan?: Array<{ command: string; times: number }> | null;
  /**
   * How many of A's renewals of its lock the store answered while A was held at the point (or its
   * delete), before B's try ended: a timer renewing A's lease keeps B out of a held command. Null
   * where nothing counted them (no wire proxy, or a store with no renewal command it recognises).
   */
  renewalsWhileHeld?: number | null;
  /** B's extend (or, with no extend and C denied, second release) of its own lease after A's release. */
  bSide: BSide | null;
  /** The lock read after A's release (null when the run ended before). */
  after: LockReading | null;
  /** C's acquire after A's release, and when it was answered. */
  c: { lease: LeaseSummary | null; answeredAt: number } | null;
  /**
   * The holders' own calls that made or wrote the lock's location, as traced (Scenario.ownerFacts):
   * whose lock a reading shows when no declared token says (./owner.ts). Absent in runs recorded before.
   */
  owners?: OwnerFact[];
}

/** A's renewal: whether it returned within --timeout, whether it said it renewed, its error if it threw. */
export interface ARenewal {
  finished: boolean;
  extended: boolean | null;
  error: string | null;
}

/** What B saw when it extended (or released) its own lease after A's release. */
export interface BSide {
  member: 'extend' | 'release';
  ok: boolean;
  endedAt: number;
  /** The member threw (this error) instead of answering; null when it answered. */
  threw: string | null;
}
