/**
 * What V311's play records for its judge: where A was stopped before its kill, the key as the kill
 * found it, the kill itself, the key right after it, B's retries and the key at TTL + grace, the
 * watch to the patience bound of a lock still held then, each
 * with the harness time (ms) it was read or happened.
 */
import type { InferredLocation, LockState, SessionLock } from '../../src/oracle/scenario.ts';
import type { ExplorePoint } from '../../src/oracle/explore-point.ts';
import type { ContenderTry } from '../../scenarios/contenders.ts';
import type { LockWatch } from './watch.ts';

export interface V311Observations {
  /** The explored point (--explore) A was stopped at inside its acquire, or null on a plain run. */
  point: ExplorePoint | null;
  /**
   * --variant between-commands (and an explored point): whether A reached the kill point
   * ('reached'), its acquire returned first ('finished', `missed` says why), or neither came within
   * --timeout ('timed-out'). Null for --variant after-acquire.
   */
  stop: { outcome: 'reached' | 'finished' | 'timed-out'; missed: string } | null;
  /** When A held the key: its acquire returned, or it reached the kill point (null when it never did). */
  heldSince: number | null;
  /**
   * The key read right before the kill (null when A was denied), with how the harness words that
   * read had it found nothing.
   */
  atKill: (LockState & { notFound: string }) | null;
  /** How A's process ended when killed. */
  exit: { signal: string | null; code: number | null; t: number } | null;
  /** The key read right after the kill, and when the store answered. */
  afterKill: (LockState & { receivedAt: number }) | null;
  /**
   * The contenders' retries as one (B's alone by default): whether any took the lock, when the
   * last try began, when the first got the lock or all stopped at TTL + grace (the watch, if any,
   * goes on from there).
   */
  b: { granted: boolean; attempts: number; lastAttemptAt: number; endedAt: number } | null;
  /** Each contender's retries (B, C, … with --contenders 3 or more); absent in runs recorded before the option. */
  contenders?: ContenderTry[] | null;
  /** Where the lock lives, inferred from A's own acquire (the target declares no storeKey and nothing was at env.key); null otherwise, absent in runs recorded before. */
  inferred?: InferredLocation | null;
  /** The key read when the contenders' TTL + grace ran out (null when one took the lock by then). */
  stuck: LockState | null;
  /**
   * The lock still held at TTL + grace: the contenders' retries from then to the patience bound,
   * with the store's view meanwhile (watch.ts). Null when one took it in time; absent in runs
   * recorded before --patience.
   */
  watch?: LockWatch | null;
  /**
   * On a session advisory lock (Postgres with no lease row declared; then atKill, afterKill and
   * stuck are null): the advisory locks pg_locks showed granted right before the kill, right after
   * it and when the contenders were still denied at TTL + grace (null when one took the lock by
   * then; the watch reads them again at the patience bound). Absent on every other lock.
   */
  sessionLocks?: { atKill: SessionLock[]; afterKill: SessionLock[] | null; stuck: SessionLock[] | null };
}
