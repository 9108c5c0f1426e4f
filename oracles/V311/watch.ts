/**
 * V311's watch past TTL + grace: a dead holder's lock still held then is late, not yet "never
 * freed". The contenders keep retrying until one takes the lock or the patience bound (--patience,
 * from A's take) passes, while the harness reads the store's view of the lock (its key or file, by
 * the store's expiry or the target's declared stale rule) to tell when it was gone or stale; the
 * lock is read once more, and recorded, if the bound ran out. Records what happened; judges nothing.
 */
import type { LockState, Scenario, SessionLock } from '../../src/oracle/scenario.ts';
import type { Holder } from '../../src/holder/holder.ts';
import { raceTogether, type ContenderTry } from '../../scenarios/contenders.ts';
import { grantedSessionLocks } from './session-lock.ts';
import { sameLock, type LockIdentity } from '../../src/judging/ownership.ts';

export interface LockWatch {
  /** The bound the watch ran to, in ms from A's take (--patience, or its default). */
  patienceMs: number;
  /** When the watch began (harness ms): when the contenders' TTL + grace ran out. */
  from: number;
  /** Each contender's retries during the watch. */
  tries: ContenderTry[];
  /** The first read of the store's view that showed A's lock gone, another's, or lapsed (harness ms, and how); null if none did. */
  freed: { at: number; how: string } | null;
  /** How many times the store's view was read during the watch. */
  reads: number;
  /** The lock read (and recorded) when the bound ran out; null when a contender took it. */
  last: LockState | null;
  /** On a session advisory lock: pg_locks when the bound ran out (null when a contender took it). */
  lastSessions?: SessionLock[] | null;
}

/**
 * Watches A's lock (as read at the kill: `aLock`, its value and, on a file lock, its inode) until a contender takes it or harness
 * time `until`. `session`: the lock is a session advisory lock, read in pg_locks only at the end.
 */
export async function watchLock(
  s: Scenario,
  contenders: readonly Holder[],
  w: { aLock: LockIdentity | null; until: number; patienceMs: number; everyMs: number; session: boolean },
): Promise<LockWatch> {
  const from = s.now();
  const now = () => s.now();
  let freed: LockWatch['freed'] = null;
  let reads = 0;
  let done = false;
  // The store's view, read a few times a TTL (at most every 50 ms) while the contenders retry.
  const readEvery = Math.max(50, w.everyMs * 2);
  const viewing = (async () => {
    while (!w.session && !done && freed === null && s.now() < w.until) {
      const state = await s.readLock();
      reads += 1;
      const how = freedHow(state, w.aLock);
      if (how) freed = { at: s.now(), how };
      else await s.sleep(readEvery);
    }
  })();
  const tries = await raceTogether(contenders, now, Math.max(0, w.until - s.now()), w.everyMs);
  done = true;
  await viewing;
  const granted = tries.some((t) => t.granted);
  const watch: LockWatch = { patienceMs: w.patienceMs, from, tries, freed, reads, last: null };
  if (granted) return w.session ? { ...watch, lastSessions: null } : watch;
  const label = `the ${w.patienceMs} ms patience bound ran out`;
  if (w.session) return { ...watch, lastSessions: await grantedSessionLocks(s, label) };
  const { where, exists, value, pttlMs, lapsedRecord, free, ino } = await s.observeLock(label);
  const last = { where, exists, value, pttlMs, ...(lapsedRecord ? { lapsedRecord } : {}), ...(free ? { free } : {}) };
  return { ...watch, last: typeof ino === 'number' ? { ...last, ino } : last };
}

/** How a read shows A's lock free (gone or free by the app's rule, another lock there, lapsed by its expiry or stale rule), or undefined. */
function freedHow(state: LockState, aLock: LockIdentity | null): string | undefined {
  if (!state.exists) return `${state.where} ${state.free ?? 'found nothing'}`;
  // A not read at the kill: any value there is another's.
  const a = aLock ?? { exists: true, value: null };
  if (!sameLock(state, a))
    return state.value === a.value
      ? `${state.where} held another lock (inode ${state.ino}, A's was ${a.ino})`
      : `${state.where} held ${JSON.stringify(state.value)}, not A's`;
  if (state.pttlMs === 0) return `${state.where} showed it lapsed (PTTL 0)`;
  if (state.lapsedRecord) return `${state.where} showed A's record lapsed`;
  return undefined;
}
