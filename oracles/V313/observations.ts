/**
 * What V313's play records for its judge: each step of the scenario as it went. A step the run
 * never got to is absent (the solo run left nothing to judge, A never reached its first write, the
 * stop did not land, or the step belongs to another --contender schedule).
 */
import type { InferredLocation, LockState } from '../../src/oracle/scenario.ts';
import type { ReadingBeforeWrite } from '../../src/judging/leaders-at-once.ts';
import type { CallOutcome } from '../../src/holder/holder.ts';
import type { ExploreFault } from '../../src/oracle/explore-point.ts';
import type { LeaseReading, ReadingAtWrite } from '../../src/judging/lease-at-write.ts';
import type { FailoverObservation } from '../../scenarios/failover-flow.ts';
import type { AcquireStopObservation } from '../../scenarios/redlock-pause-in-acquire.ts';
import type { QuorumObservation } from '../../scenarios/redlock-quorum.ts';
import type { ShutdownObservation } from '../../scenarios/shutdown.ts';
import type { PointStop, RenewalHeldStop, StopLanding } from '../../scenarios/stop-landing.ts';

/** The lock's location as the harness read it: there or not, and the time it had left (PTTL, ms). */
export type KeyReading = Pick<LockState, 'exists' | 'pttlMs'>;

/**
 * --contender hold: B's lock as the harness read it while B sat held at its first write, and again
 * before each of A's later writes was accepted (scenarios/lease-at-writes.ts).
 */
export interface BLease {
  atFirstWrite: LeaseReading;
  atAWrites: ReadingAtWrite[];
}

/** How A was stopped after its first write, and from when (harness ms). */
export type AStop =
  /** --variant pause: SIGSTOP, which always lands (A is at its first write). */
  | { kind: 'pause'; since: number }
  /** --variant renewal-wire: A's next renewal held at its wire proxy (a cluster: the grant on its node's link). */
  | RenewalHeldStop
  /**
   * --variant partition / delay-write: from A's next write on, A cut off from the store and the
   * resource (partition), or only that write held on its way to the resource (delay-write).
   */
  | { kind: 'partition' | 'delay-write'; landed: StopLanding; since: number; words: string }
  /**
   * --fault NAME of a fault that lands itself (--landed-fault): landed on A held at its first
   * write; `took` whether it did anything there (connections closed), `words` what it did; or,
   * `notLanded`, tried there and not landed (`words`: why), A let go at once.
   */
  | { kind: 'landed'; fault: ExploreFault; took: boolean; since: number; words: string; notLanded?: true }
  /** --variant staged: A held at its seam between a staged write and its commit. */
  | { kind: 'staged'; landed: StopLanding; since: number; words: string }
  /** --explore: A stopped at the point's boundary. */
  | PointStop;

export interface V313Observations {
  /** B running the job alone before A starts (counts the writes, not judged): how it ended (null: not within --timeout) and the resource's last sequence number then. */
  solo: { job: CallOutcome | null; lastSeq: number };
  /** A's tries to reach its first write: when it made it (null: never), and the last try's outcome when it never did. */
  aFirstWrite?: { at: number | null; attempts: number; lastTry: CallOutcome | null };
  /** Where the lock lives, inferred from A's job at its first write (no storeKey, nothing at env.key); absent otherwise. */
  inferred?: InferredLocation | null;
  stop?: AStop;
  /** hold / come-and-go: B's tries to take the lock and write, and whether A was still stopped when B did. */
  bWhileStopped?: { wrote: boolean; attempts: number; aStopped: boolean };
  /** hold: B's lease read at B's first write and before each of A's later writes was accepted. */
  bLease?: BLease;
  /** come-and-go: the key while B wrote, how B's job ended (null: not within --timeout), whether the key was then gone, and A still stopped. */
  bCameAndWent?: { during: KeyReading; job: CallOutcome | null; gone: boolean; after: KeyReading; aStopped: boolean };
  /** The lock's value as A was stopped (A's token), where the key was read and there. */
  aTokenAtStop?: string | null;
  /** A file lock's inode as A was stopped: a lock made again at the path is a new lease, whatever it holds. */
  aInoAtStop?: number;
  /** come-and-go: the lock as A, resumed, sat at its next write (absent: A made none). */
  aNextWrite?: Pick<LockState, 'where' | 'exists' | 'value' | 'free' | 'ino'>;
  /** come-and-go: whether the third holder C took the lock after A resumed. */
  cTookLock?: boolean;
  /** after-lift: whether the key went while A was stopped, the last reading, when it was read, and A still stopped. */
  aLeaseLapsed?: { lapsed: boolean; seen: KeyReading; readAt: number; aStopped: boolean };
  /** after-lift: B's tries after A resumed, and whether A was then held at its next write. */
  bAfterLift?: { wrote: boolean; attempts: number; aAtNextWrite: boolean };
  /** --variant failover (scenarios/failover-flow.ts). */
  failover?: FailoverObservation;
  /** --variant quorum (scenarios/redlock-quorum.ts). */
  quorum?: QuorumObservation;
  /** --variant pause-in-acquire (scenarios/redlock-pause-in-acquire.ts). */
  acquireStop?: AcquireStopObservation;
  /** --variant shutdown (scenarios/shutdown.ts). */
  shutdown?: ShutdownObservation;
  /** A's job after A resumed: how it ended (null: not within --timeout). */
  aResumed?: { job: CallOutcome | null };
  /** --contenders 3 or more (./race.ts): what the successors B, C, … did, and the lock read before every write. */
  contenders?: CandidatesSeen;
}

/** The successors' race for the lock once A was stopped (or killed, a point on a successor). */
export interface CandidatesSeen {
  /** The successors, in order: B, C, … */
  ids: string[];
  /** The first successor whose write reached the resource, and when (harness ms); null: none wrote. */
  firstWriter: { holder: string; t: number } | null;
  /** A was stopped: the first successor wrote while A still was. */
  wroteWhileStopped: boolean;
  /** A point on a successor: A, killed at its first write, and how its process ended; else null. */
  aKilled: { signal: string | null; t: number } | null;
  /** A point on a successor: that successor, held there while the others ran the job; else null. */
  held: {
    holder: string;
    label: string;
    inWords: string;
    reached: StopLanding;
    missed: string;
    /** Another successor whose write reached the resource while this one was held (the first), or null. */
    othersWrote: { holder: string; t: number } | null;
  } | null;
  /** The lock read before each write of every holder was accepted, from the fault on. */
  readings: ReadingBeforeWrite[];
}
