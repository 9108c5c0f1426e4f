/**
 * What V312's play records for its judge: where the lock lives, the explored point A was held at
 * (if any), P holding the lock at its first write, and A's job run meanwhile. Each stage is null
 * when the run never got there.
 */
import type { LockState, SessionLock } from '../../src/oracle/scenario.ts';
import type { CallOutcome } from '../../src/holder/holder.ts';
import type { ExplorePoint } from '../../src/oracle/explore-point.ts';

/** The lock as the harness read it, with when (harness ms) the read was sent. */
export interface LockReading extends LockState {
  sentAt: number;
}

export interface V312Observations {
  /** The lock key, and whether the store shows the lock there (a Redis key: read while P held it and when A's job ended). */
  lock: { key: string; readable: boolean };
  /** --explore: the point A was held at before P took the lock; null when A simply runs while P holds. */
  point: {
    at: ExplorePoint;
    /** What came first: A held at the point, A's job ending, or (null) neither within --timeout. */
    first: 'held' | 'ended' | null;
    /** The stop's own account of why A's job ended without reaching the point. */
    missed: string;
    /**
     * The lock read while A was held there, before P started (A ran alone so far): the key (Redis)
     * or the granted advisory locks (Postgres); null where the store shows neither, or A never got there.
     */
    lockThen?: { key: LockReading | null; sessionLocks: SessionLock[] | null } | null;
  } | null;
  /** P held at its first write; null when it made no write within --timeout (or A never reached its point). */
  p: {
    /** Harness ms P reached its first write. */
    heldAt: number;
    /** The key read while P held the lock (null where the store does not show it). */
    key: LockReading | null;
    /** The harness's words for a read that found nothing where the lock should be while P held it. */
    notFound: string;
    /** The granted session locks in pg_locks while P held the lock (null on a store without them). */
    sessionLocks: SessionLock[] | null;
  } | null;
  /** A's job, run while P held the lock; null when P never held it. */
  a: {
    /** How A's job ended; null when it did not end within --timeout. */
    job: CallOutcome | null;
    /** The commands on the lock A's pass-through wire proxy saw, in order. */
    tries: string[];
    /** The key read once A's job ended (null where the store does not show it). */
    key: LockReading | null;
    /** The granted session locks in pg_locks once A's job ended (null on a store without them). */
    sessionLocks: SessionLock[] | null;
    /** Harness ms once the lock was read after A's job. */
    readAt: number;
  } | null;
}
