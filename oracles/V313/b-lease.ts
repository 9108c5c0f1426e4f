/**
 * V313 --contender hold: until when B's lock surely lived, by the store's own clock, while B sat
 * held at its first write. A's writes after B's first are judged only up to then: on a loaded
 * machine B's lease can lapse (no renewal, or one that came late) and A re-take a free lock.
 * - Where the store shows the lock itself (a Redis key's PTTL; a Postgres lease row the target
 *   declares with storeKey(env), `expiresColumn - now()`): read while B sits at its first write.
 * - Where the store has session locks (Postgres, no declared row): B's session lock, granted to the
 *   same B session at B's first write and again after A's job ended (B still held at its write, so
 *   it could not have let go and re-taken it in between). Anything else (a lease in a table the
 *   harness was not told about) cannot be read: the window is unknown.
 */
import type { Scenario } from '../../src/oracle/scenario.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { BLease } from './observations.ts';

const AT_FIRST_WRITE = 'B in its critical section (held at its first write)';

/**
 * Read B's lock now (B held at its first write); the returned function finishes the reading once
 * A's job has ended, B still held (a second read of the session locks where those are the lock).
 */
export async function readBLease(s: Scenario): Promise<() => Promise<BLease>> {
  if (s.lockUnreadable === undefined) {
    const seen = await s.observeLock(AT_FIRST_WRITE);
    // A key with no expiry lives until deleted: no end to record (null, where liveUntil is Infinity).
    const until = seen.exists && seen.pttlMs < 0 ? null : seen.liveUntil;
    return async () => ({ until, how: `by ${seen.where} in the store` });
  }
  if (!s.view().sessionLocks) {
    const why = s.lockUnreadable;
    return async () => ({ why: `B's lock cannot be read in the store: ${why}` });
  }
  const bSessions = async (label: string) =>
    (await s.observeSessionLocks(label)).filter((l) => l.granted && l.holder === 'B');
  const atFirst = await bSessions(AT_FIRST_WRITE);
  return async () => {
    const readAt = s.now();
    const after = await bSessions("A's job ended, B still held at its first write");
    const kept = after.find((l) => atFirst.some((f) => f.session === l.session));
    if (kept)
      return {
        until: readAt,
        how: `by pg_locks: B's session ${kept.session} held its advisory lock at B's first write and still after A's job ended`,
      };
    return {
      why:
        `B's lock cannot be shown live at A's writes: pg_locks showed B holding ${describeSessionLocks(atFirst)} at B's first write and ${describeSessionLocks(after)} after A's job ended, ` +
        `and the harness reads a lease in a table only where the target declares it. B's lease may have lapsed (its renewals late on a loaded machine) and A re-taken a free lock. ` +
        `A lease row: declare it, storeKey: (env) => ({ table, keyColumn, key: env.key, expiresColumn })`,
    };
  };
}
