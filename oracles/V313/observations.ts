/**
 * What V313's play records for its judge: each step of the scenario as it went. A step the run
 * never got to is absent (the solo run left nothing to judge, A never reached its first write, the
 * stop did not land, or the step belongs to another --contender schedule).
 */
import type { InferredLocation, LockState, ObservedLock } from '../../src/oracle/scenario.ts';
import type { ReadingBeforeWrite } from '../../src/judging/leaders-at-once.ts';
import type { CallOutcome, ShutdownOutcome } from '../../src/holder/holder.ts';
import type { ExploreFault } from '../../src/oracle/explore-point.ts';
import type { LeaseReading, ReadingAtWrite } from '../../src/judging/lease-at-write.ts';
import type { NodeFault, NodeFaultOutcome } from '../../scenarios/node-faults.ts';
import type { QuorumAtWrite, QuorumReading } from './quorum-reading.ts';
import type { NodeLock } from '../../src/judging/failover-loss.ts';

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

/** Which came first after A's stop was armed: A stopped there, A's job ended, or neither within --timeout. */
export type StopLanding = 'held' | 'ended' | 'timeout';

/** How A was stopped after its first write, and from when (harness ms). */
export type AStop =
  /** --variant pause: SIGSTOP, which always lands (A is at its first write). */
  | { kind: 'pause'; since: number }
  /** --variant renewal-wire: A's next renewal held at its wire proxy. */
  | {
      kind: 'renewal-wire';
      landed: StopLanding;
      /** The renewal held and when it reached the proxy; null when none was. */
      held: { command: string; atMs: number } | null;
      /** What the hold looked for, in words. */
      holdWhat: string;
      lockKey: string;
      /** Whether the harness can read where the lock lives on this store. */
      lockReadable: boolean;
      /** Where it was held, when not at A's wire proxy: a cluster's link ("the link n3→n1"). */
      at?: string;
    }
  /**
   * --variant partition / delay-write: from A's next write on, A cut off from the store and the
   * resource (partition), or only that write held on its way to the resource (delay-write).
   */
  | { kind: 'partition' | 'delay-write'; landed: StopLanding; since: number; words: string }
  /**
   * --fault NAME of a fault that lands itself (--landed-fault): landed on A held at its first
   * write; `took` whether it did anything there (connections closed), `words` what it did.
   */
  | { kind: 'landed'; fault: ExploreFault; took: boolean; since: number; words: string }
  /** --variant staged: A held at its seam between a staged write and its commit. */
  | { kind: 'staged'; landed: StopLanding; since: number; words: string }
  /** --explore: A stopped at the point's boundary. */
  | {
      kind: 'point';
      landed: StopLanding;
      /** The boundary ("job#3 EVALSHA") and the point in words. */
      label: string;
      words: string;
      /** Why the point was missed, when A's job ended first. */
      missed: string;
      since: number;
      /** The point's fault (absent in runs recorded before it was kept). */
      fault?: ExploreFault;
    };

/** --variant failover: A's run with replication held, the lock on every node at the failover, the failover, and B on the new master. */
export interface FailoverObservation {
  /** A reached its first write (held there); else its job ended (denied) first: `aEnded`. */
  aReached: boolean;
  aEnded: CallOutcome | null;
  /** The lock on every data node just before the master was killed. */
  nodes: NodeLock[];
  /** Harness ms until which A's lease surely lived by the master's clock (its PTTL read at the failover); null: the master held no key of A's then. */
  aLeaseUntil: number | null;
  /** Replication bytes the replicas were kept from (A's writes on the master among them). */
  heldBytes: number;
  killed: string;
  promoted: string;
  how: string;
  promotedAt: number;
  bWrote: boolean;
  bAttempts: number;
}

/**
 * --variant quorum (--topology redlock:N): A cut off from a minority of the masters across its
 * acquire, so its lock lives on a bare majority; at A's first write (held there) one of that
 * majority is faulted (--node-fault); B tries inside A's lease; A is let go. See ./quorum.ts.
 */
export interface QuorumObservation {
  quorum: number;
  /** The masters A's requests were kept from across its acquire. */
  cutOff: string[];
  fault: NodeFault;
  /** The masters as A sat at its first write, before the fault. */
  atAFirstWrite: QuorumReading;
  /** The masters once the fault had landed (a restart: the node up again; restart-late: the node down). */
  afterFault: QuorumReading | null;
  outcome: NodeFaultOutcome | null;
  /** Harness ms until which A's token lived on a majority by the PTTLs read at its first write; null: it never did. */
  aLeaseUntil: number | null;
  /** Until when B tried inside A's lease (half the time A's lease had left once the fault landed). */
  bWindowUntil: number;
  /** B's tries inside that window: whether one wrote, how many, and the masters at its first write. */
  bInWindow: { wrote: boolean; attempts: number; atFirstWrite: QuorumReading | null };
  /** B's tries after A's job ended (when none wrote inside the window): whether one wrote. */
  bLater?: { wrote: boolean; attempts: number };
  /** The masters before each of A's writes once it was let go. */
  atAWrites: QuorumAtWrite[];
}

/**
 * --variant pause-in-acquire (--topology redlock:N): every master's reply to A's acquire kept from
 * A until each had sent one, A then SIGSTOPped and the replies delivered into its sockets; A stays
 * stopped until its keys lapsed and B took the lock and wrote. See ./pause-in-acquire.ts.
 */
export interface AcquireStopObservation {
  quorum: number;
  /** Reply bytes each master's link kept before A was stopped (every master answered A's acquire). */
  repliesKept: Record<string, number>;
  /** Whether every master's reply came within --timeout (else A was never stopped). */
  repliesInFlight: boolean;
  /** Harness ms A was SIGSTOPped (null: it was not). */
  stoppedAt: number | null;
  /** The masters just after A was stopped: its keys there. */
  atStop: QuorumReading | null;
  /** B's tries while A was stopped, and the masters at B's first write. */
  bWhileStopped: { wrote: boolean; attempts: number; atFirstWrite: QuorumReading | null; aStopped: boolean } | null;
  /** The masters before each of A's writes after it resumed. */
  atAWrites: QuorumAtWrite[];
}

/** B's tries for the lock: whether one reached its first write, how many, and when the last denied one began (harness ms). */
export interface BTries {
  wrote: boolean;
  attempts: number;
  lastDeniedAt: number | null;
}

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
  /** --variant failover (./failover.ts). */
  failover?: FailoverObservation;
  /** --variant quorum (./quorum.ts). */
  quorum?: QuorumObservation;
  /** --variant pause-in-acquire (./pause-in-acquire.ts). */
  acquireStop?: AcquireStopObservation;
  /**
   * --variant shutdown: how and when (harness ms) A's shutdown began, and A's lock as read just
   * before (or why the store cannot show it; absent in runs recorded before it was read); whether A then reached its next write (held
   * there, from `heldAt`), ended its job, or neither within --timeout; B's tries while A was held
   * there (until 2 × --ttl after `heldAt`) and, when none wrote, the lock as read then and B's
   * tries after A was let go; how the shutdown itself ended (null: not within --timeout).
   */
  shutdown?: {
    by: 'close' | 'sigterm';
    at: number;
    aLockAtStart?:
      Pick<ObservedLock, 'where' | 'exists' | 'value' | 'pttlMs' | 'sentAt' | 'liveUntil'> | { unreadable: string };
    aNextWrite: 'held' | 'ended' | 'timeout';
    /** Harness ms A was seen held at its next write: its shutdown had begun inside it by then. */
    heldAt?: number;
    bWhileHeld?: BTries;
    aLockAfter?: Pick<LockState, 'where' | 'exists' | 'value' | 'pttlMs'> & { sentAt: number };
    bAfter?: BTries;
    outcome?: ShutdownOutcome | null;
  };
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
