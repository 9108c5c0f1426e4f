/**
 * What V315's play records for its judge: A's first write, how A was cut off (or the explored point
 * it was held at), whether B led and wrote while the cut was in force, and B's lease as the store
 * showed it.
 */
import type { WireFaultRecord } from '../../src/wire/records.ts';
import type { InferredLocation } from '../../src/oracle/scenario.ts';
import type { ReadingBeforeWrite } from '../../src/judging/leaders-at-once.ts';
import type { LeaseReading, ReadingAtWrite } from '../../src/judging/lease-at-write.ts';
import type { FailoverLoss } from '../../src/judging/failover-loss.ts';

export interface V315Observations {
  /** When A made its first leader write (harness ms), or null: none within --timeout. */
  aFirstWriteAt: number | null;
  /** With no first write from A: its leader loop had returned (else it was still running). */
  aLoopReturned: boolean;
  /** On an --explore run where A led, the point A was to be held at; null otherwise. */
  point: ExplorePointSeen | null;
  /**
   * The cut once it was in force; null if the run ended first. At a wire proxy (or, on a file store,
   * `atFilesystem`, at A's filesystem calls): its record as it stood just before it was lifted.
   */
  cut: {
    how: string;
    killed: number;
    stopped?: WireFaultRecord;
    atFilesystem?: true;
    /** On a cluster: A's node partitioned from the others; the link messages the partition dropped. */
    partitioned?: { fromMs: number; dropped: number; samples: string[] };
  } | null;
  /** --fault failover: A's leader key on every node at the failover, and the failover (scenarios/failover.ts); absent otherwise. */
  failover?: FailoverLoss;
  /** Once A was cut off: B's first leader write reached the resource (it was held there). */
  bWrote: boolean;
  /** ...while A's cut was still in force. */
  bWroteWhileCut: boolean;
  /** B's lease read at B's first write and before each of A's later writes was accepted (null: B never wrote). */
  bLease: { atFirstWrite: LeaseReading; atAWrites: ReadingAtWrite[] } | null;
  /** When play stopped watching (harness ms): writes that reached the resource later are not judged. */
  watchedUntil: number;
  /** Where the lock lives, inferred from A's loop at its first write (no storeKey, nothing at env.key); absent otherwise. */
  inferred?: InferredLocation | null;
  /** --contenders 3 or more: what the candidates B, C, … did; absent (runs recorded before the option) or null with one. */
  contenders?: ContendersSeen | null;
}

/** The candidates' race for leadership once A was cut off (or killed, a point on a contender). */
/** What a V315 run has seen before its leaders start: nothing yet (its contenders' record where there are more than two). */
export function noneSeenYet(contenders: number): V315Observations {
  return {
    aFirstWriteAt: null,
    aLoopReturned: false,
    point: null,
    cut: null,
    bWrote: false,
    bWroteWhileCut: false,
    bLease: null,
    watchedUntil: 0,
    ...(contenders > 2 ? { contenders: null } : {}),
  };
}

export interface ContendersSeen {
  /** The candidates, in order: B, C, … */
  ids: string[];
  /** The first candidate whose write reached the resource, and when (harness ms); null: none wrote. */
  firstLeader: { holder: string; t: number } | null;
  /** A was cut off: the first candidate wrote while the cut was in force. */
  ledWhileCut: boolean;
  /** A point on a candidate: A, once it led, was killed (SIGKILL), and how its process ended; else null. */
  aKilled: { signal: string | null; t: number } | null;
  /** A point on a candidate: that candidate, held there while the others ran their loops; else null. */
  held: ContenderHeld | null;
  /** The lock read before each write of every holder was accepted, from the fault on (scenarios/lease-at-writes.ts). */
  readings: ReadingBeforeWrite[];
}

/** A candidate held at an explored point in its election while the others ran. */
export interface ContenderHeld extends ExplorePointSeen {
  holder: string;
  /** Another candidate whose write reached the resource while this one was held (the first), or null. */
  othersLed: { holder: string; t: number } | null;
}

/** The explored point A was to be held at, and whether A's leader loop got there. */
export interface ExplorePointSeen {
  /** The boundary, as the evidence names it. */
  label: string;
  /** What the point did to A, in words. */
  inWords: string;
  /** held: A got there; ended: its loop ended first (`missed` says why); timeout: neither within --timeout. */
  reached: 'held' | 'ended' | 'timeout';
  missed: string;
}
