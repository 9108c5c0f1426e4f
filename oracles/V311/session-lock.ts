/**
 * V311 on a session advisory lock (Postgres, no lease row declared): the lock is whichever advisory
 * lock pg_locks shows granted, tied to the server session holding it rather than to a key with a
 * TTL. What play reads (each read recorded in the history) and how a reading is worded.
 */
import type { Scenario, SessionLock } from '../../src/oracle/scenario.ts';

/** The advisory locks granted in the store now, recorded under `label`. */
export async function grantedSessionLocks(s: Scenario, label: string): Promise<SessionLock[]> {
  return (await s.observeSessionLocks(label)).filter((lock) => lock.granted);
}

/** Whether V311 judges this run's lock as a session advisory lock: no readable location, and a store that has them. */
export function onSessionLock(s: Scenario): boolean {
  return s.lockUnreadable !== undefined && s.view().sessionLocks !== undefined;
}

/** "session 4242 (application_name of A)" for each lock, or "no advisory lock granted". */
export function sessionsInWords(locks: readonly SessionLock[]): string {
  if (locks.length === 0) return 'no advisory lock granted';
  return locks
    .map((lock) => `session ${lock.session}${lock.holder ? ` (application_name of ${lock.holder})` : ''}`)
    .join(', ');
}
