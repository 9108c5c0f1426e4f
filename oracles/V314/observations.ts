/**
 * What V314's two scenarios record for their judges. Pool: A's lock, the parallel query seen
 * waiting at the server-side gate, A's release meanwhile, and pg_locks after. Pooler: A's lock,
 * B's attempt while A held it, the pooler's clients, and pg_locks after. A stage is null when the
 * run never got there.
 */
import type { ClientSession, SessionLock } from '../../src/oracle/scenario.ts';
import type { CallOutcome } from '../../src/holder/holder.ts';

export interface V314PoolObservations {
  scenario: 'pool';
  /** A's acquire returned a lease. */
  acquired: boolean;
  /** The granted session locks in pg_locks after A acquired. */
  locksAfterAcquire: SessionLock[];
  /** The parallel query, sent through A's pool once A held the lock; null when A did not. */
  parallel: {
    /** The statement that waits at the gate. */
    sql: string;
    /** The session it was seen waiting in, or null: not seen within --timeout. */
    waiting: ClientSession | null;
    /** The query had already ended when the harness gave up looking for it. */
    endedFirst: boolean;
  } | null;
  /** A's release while the parallel query waited; null when it was never seen waiting. */
  release: {
    /** How the release ended; null when it did not return within --timeout. */
    outcome: CallOutcome | null;
    /** The parallel query was still waiting in its session once the release returned. */
    queryStillWaiting: boolean;
    /** Every session lock in pg_locks after A released. */
    locks: SessionLock[];
  } | null;
  /** Every session lock in pg_locks after the parallel query finished; null when it was never sent. */
  locksAfterQuery: SessionLock[] | null;
}

export interface V314PoolerObservations {
  scenario: 'pooler';
  /** A's acquire returned a lease. */
  acquired: boolean;
  /** The granted session locks on the server after A acquired. */
  locksAfterAcquire: SessionLock[];
  /** B's attempt while A held the lock, and what followed; null when A did not hold it. */
  b: {
    /** B's acquire returned a lease while A held the lock. */
    granted: boolean;
    /** The server sessions B's statements ran on, seen after its attempt. */
    sessions: number[];
    /** The pooler's client connections from A and B (PgBouncer's SHOW CLIENTS). */
    clients: Array<{ holder: string; state: string }>;
    /** A's release, once B had tried. */
    aRelease: CallOutcome;
    /** Denied, B tried again once A had released: whether it took the lock then (null: B was granted, so it did not). */
    tookLockAfterA: boolean | null;
    /** Every session lock after A released, and after both holders released and disconnected. */
    locksAfterARelease: SessionLock[];
    locksAfterAll: SessionLock[];
  } | null;
}

export type V314Observations = V314PoolObservations | V314PoolerObservations;
